import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { call } from './requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  const member = t0.user({ orgId });
  return { orgId, admin, member, adminSession: t0.session(admin) };
}

test('an admin creates a token for a member, who then acts through it with their own permissions', async (t) => {
  const { admin, member, adminSession, orgId } = team();
  const res = await call(t0, 'POST', `/api/auth/admin/users/${member.id}/tokens`, { session: adminSession }, { name: 'for member', expires_in_days: 7 });
  t.is(res.status, 201);
  t.is(res.body['org_id'], orgId);
  const token = res.body['token'] as string;
  // The token is the member's: it lists the member's tokens, and the admin routes refuse it.
  const own = await call(t0, 'GET', '/api/auth/user/tokens', { key: token });
  t.deepEqual((own.body['tokens'] as { token_id: string }[]).map((x) => x.token_id), [res.body['token_id']]);
  t.is((await call(t0, 'GET', `/api/auth/admin/users/${admin.id}/tokens`, { key: token })).status, 403);
});

test("an admin lists and revokes a member's tokens of every kind", async (t) => {
  const { member, adminSession } = team();
  const session = t0.session(member);
  const mcp = await call(t0, 'POST', '/api/auth/user/tokens/mcp', { session });
  const api = await call(t0, 'POST', '/api/auth/user/tokens', { session }, { name: 'own' });
  const list = await call(t0, 'GET', `/api/auth/admin/users/${member.id}/tokens`, { session: adminSession });
  t.is(list.status, 200);
  const tokens = list.body['tokens'] as { token_id: string; kind: string }[];
  t.deepEqual(tokens.map((x) => x.kind).sort(), ['api', 'mcp']);
  t.false(JSON.stringify(list.body).includes(api.body['token'] as string));
  const del = await call(t0, 'DELETE', `/api/auth/admin/users/${member.id}/tokens/${mcp.body['token_id'] as string}`, { session: adminSession });
  t.is(del.status, 204);
  const after = await call(t0, 'GET', `/api/auth/admin/users/${member.id}/tokens`, { session: adminSession });
  t.deepEqual((after.body['tokens'] as { kind: string }[]).map((x) => x.kind), ['api']);
});

test('admins of another organization get 404 for users outside it', async (t) => {
  const { member } = team();
  const other = team();
  const s = { session: other.adminSession };
  const created = await call(t0, 'POST', '/api/auth/user/tokens', { session: t0.session(member) }, { name: 'x' });
  const create = await call(t0, 'POST', `/api/auth/admin/users/${member.id}/tokens`, s, { name: 'x' });
  t.is(create.status, 404);
  t.is(create.body.code, 'USER_NOT_FOUND');
  t.is((await call(t0, 'GET', `/api/auth/admin/users/${member.id}/tokens`, s)).status, 404);
  t.is((await call(t0, 'DELETE', `/api/auth/admin/users/${member.id}/tokens/${created.body['token_id'] as string}`, s)).status, 404);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: created.body['token'] as string })).status, 200);
});

test("an admin cannot revoke a member's token through another member's path", async (t) => {
  const { member, adminSession, orgId } = team();
  const second = t0.user({ orgId });
  const created = await call(t0, 'POST', '/api/auth/user/tokens', { session: t0.session(member) }, { name: 'x' });
  const res = await call(t0, 'DELETE', `/api/auth/admin/users/${second.id}/tokens/${created.body['token_id'] as string}`, { session: adminSession });
  t.is(res.status, 404);
  t.is(res.body.code, 'TOKEN_NOT_FOUND');
});

test('modelers and users may not manage other users\' tokens', async (t) => {
  const { member, orgId } = team();
  for (const role of ['user', 'modeler'] as const) {
    const session = t0.session(t0.user({ orgId, role }));
    t.is((await call(t0, 'GET', `/api/auth/admin/users/${member.id}/tokens`, { session })).status, 403);
    t.is((await call(t0, 'POST', `/api/auth/admin/users/${member.id}/tokens`, { session }, { name: 'x' })).status, 403);
    t.is((await call(t0, 'DELETE', `/api/auth/admin/users/${member.id}/tokens/x`, { session })).status, 403);
  }
});

test('admin creation validates the body with 422', async (t) => {
  const { member, adminSession } = team();
  const res = await call(t0, 'POST', `/api/auth/admin/users/${member.id}/tokens`, { session: adminSession }, { name: 'x', expires_in_days: 4000 });
  t.is(res.status, 422);
  t.deepEqual((res.body.detail as { loc: unknown[] }[])[0]?.loc, ['body', 'expires_in_days']);
});
