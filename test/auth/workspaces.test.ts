import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { call, passwordUser, signIn, startAuthApp } from '../helpers/auth.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp();
});
test.after.always(() => t0.stop());

function workspaceSetup() {
  const base = t0.org();
  const ws1 = t0.org(undefined, { baseOrgId: base });
  const ws2 = t0.org(undefined, { baseOrgId: base });
  return { base, ws1, ws2 };
}

function join(userId: string, orgId: string) {
  t0.app.services.store.sqlite!.prepare("INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (?, ?, 'user', 0)").run(userId, orgId);
}

test('list_workspaces shows the base organization and only the workspaces the user belongs to', async (t) => {
  const { base, ws1 } = workspaceSetup();
  const user = t0.user({ orgId: base });
  join(user.id, ws1);
  const res = await call(t0, 'GET', '/api/auth/list_workspaces', undefined, t0.session(user));
  t.is(res.status, 200);
  t.like(res.body, { base_org: { org_id: base }, current_org_id: base });
  t.deepEqual((res.body['workspaces'] as { org_id: string }[]).map((w) => w.org_id), [ws1]);
  t.is((await call(t0, 'GET', '/api/auth/list_workspaces')).status, 401);
});

test('switch_to_workspace mints a workspace session and a short-lived hint cookie; members only', async (t) => {
  const { base, ws1, ws2 } = workspaceSetup();
  const user = t0.user({ orgId: base });
  join(user.id, ws1);
  const s = t0.session(user);
  const res = await t0.fetch('/api/auth/switch_to_workspace', { method: 'POST', headers: { authorization: `Bearer ${s}`, 'content-type': 'application/json' }, body: JSON.stringify({ workspace_org_id: ws1 }) });
  t.is(res.status, 200);
  const cookies = res.headers.getSetCookie();
  t.true(cookies.some((c) => c.startsWith('sextant_session=ey')));
  const hint = cookies.find((c) => c.startsWith('sextant_last_workspace='));
  t.regex(hint ?? '', new RegExp(`sextant_last_workspace=${ws1}`));
  t.regex(hint ?? '', /max-age=600|expires=/i);
  const body = (await res.json()) as { access_token: string; org_id: string };
  t.is(body.org_id, ws1);
  const me = await call(t0, 'GET', '/api/auth/me', undefined, body.access_token);
  t.like(me.body, { org_id: ws1, base_org_id: base });
  t.is((await call(t0, 'POST', '/api/auth/switch_to_workspace', { workspace_org_id: ws2 }, s)).status, 404);
  t.is((await call(t0, 'POST', '/api/auth/switch_to_workspace', { workspace_org_id: t0.org() }, s)).status, 404);
  t.is((await call(t0, 'POST', '/api/auth/switch_to_workspace', {}, s)).status, 422);
  // An API token cannot be turned into a session.
  t.is((await call(t0, 'POST', '/api/auth/switch_to_workspace', { workspace_org_id: ws1 }, t0.token(user))).status, 403);

  const back = await call(t0, 'POST', '/api/auth/switch_to_base_org', {}, body.access_token);
  t.is(back.status, 200);
  t.like((await call(t0, 'GET', '/api/auth/me', undefined, back.body['access_token'] as string)).body, { org_id: base });
  t.is((await call(t0, 'POST', '/api/auth/switch_to_base_org', {}, back.body['access_token'] as string)).status, 200);
});

test('set_my_default_workspace needs confirm true and membership; sign-in then starts there', async (t) => {
  const { base, ws1, ws2 } = workspaceSetup();
  const user = await passwordUser(t0, { orgId: base });
  join(user.id, ws1);
  const s = t0.session(user);
  const noConfirm = await call(t0, 'POST', '/api/auth/set_my_default_workspace', { workspace_org_id: ws1, confirm: false }, s);
  t.is(noConfirm.status, 422);
  t.deepEqual((noConfirm.body.detail as { loc: string[] }[])[0]?.loc, ['body', 'confirm']);
  t.is((await call(t0, 'POST', '/api/auth/set_my_default_workspace', { workspace_org_id: ws2, confirm: true }, s)).status, 404);
  t.is((await call(t0, 'POST', '/api/auth/set_my_default_workspace', { workspace_org_id: ws1, confirm: true }, s)).status, 200);
  const token = (await signIn(t0, user.email)).body['access_token'] as string;
  t.like((await call(t0, 'GET', '/api/auth/me', undefined, token)).body, { org_id: ws1, default_workspace_id: ws1 });
  t.is((await call(t0, 'POST', '/api/auth/set_my_default_workspace', { workspace_org_id: null, confirm: true }, s)).status, 200);
  t.is((await call(t0, 'POST', '/api/auth/set_my_default_workspace', { workspace_org_id: ws1, confirm: true })).status, 401);
});
