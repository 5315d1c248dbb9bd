// Issue 33 §6: an admin deactivates someone because a token leaked; reactivating them must not bring
// it back. Every credential issued before a deactivation (session, API, CLI and MCP token, OAuth grant
// with its access and refresh token) stays dead after the reactivation; what is issued afterwards
// works; a workspace's deactivation leaves the base organization's credentials alone.
import test from 'ava';
import { getUser } from '../../../src/auth/index.ts';
import type { TestApp } from '../../helpers/app.ts';
import { PASSWORD, passwordUser, signIn, startAuthApp } from '../../helpers/auth.ts';
import { ALL_KINDS, everyCredential, workingCredentials } from '../../helpers/every-credential.ts';
import { call } from '../tokens/requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp();
});
test.after.always(() => t0.stop());

const act = (verb: 'deactivate' | 'reactivate', userId: string, session: string) => call(t0, 'POST', `/api/admin/members/${userId}/${verb}`, { session });

test('after deactivate and reactivate in the base organization, every credential issued before stays dead; new ones work', async (t) => {
  const orgId = t0.org();
  const admin = t0.session(t0.user({ orgId, role: 'admin' }));
  const member = await passwordUser(t0, { orgId });
  const colleague = t0.user({ orgId });
  const held = await everyCredential(t0, member);
  const theirs = await everyCredential(t0, colleague);
  t.deepEqual(await workingCredentials(t0, held), ALL_KINDS);
  t.is((await act('deactivate', member.id, admin)).status, 200);
  t.deepEqual(await workingCredentials(t0, held), []);
  const back = await act('reactivate', member.id, admin);
  t.is(back.status, 200);
  t.is(back.body['status'], 'active');
  t.deepEqual(await workingCredentials(t0, held), []);
  t.deepEqual(await workingCredentials(t0, theirs), ALL_KINDS);
  // The member signs in anew, and what they get now works, every kind.
  t.is((await signIn(t0, member.email, PASSWORD)).status, 200);
  t.deepEqual(await workingCredentials(t0, await everyCredential(t0, (await getUser(t0.app.services.executor, member.id))!)), ALL_KINDS);
});

test("a workspace's deactivation ends the member's workspace credentials for good and leaves their base organization's working", async (t) => {
  const base = t0.org();
  const ws = t0.org(undefined, { baseOrgId: base });
  const wsAdmin = t0.session(t0.user({ orgId: ws, role: 'admin' }));
  const member = t0.user({ orgId: base });
  t0.app.services.store.sqlite!.prepare("INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES (?, ?, 'user', 0, 0)").run(member.id, ws);
  const inWs = await everyCredential(t0, member, ws);
  const inBase = await everyCredential(t0, member, base);
  t.is((await act('deactivate', member.id, wsAdmin)).status, 200);
  t.is((await act('reactivate', member.id, wsAdmin)).status, 200);
  t.deepEqual(await workingCredentials(t0, inWs), []);
  t.deepEqual(await workingCredentials(t0, inBase), ALL_KINDS);
  t.deepEqual(await workingCredentials(t0, await everyCredential(t0, member, ws)), ALL_KINDS);
});

test("another organization's admin, a non-admin, a bad id or no credential deactivates nothing and revokes nothing", async (t) => {
  const orgId = t0.org();
  const member = t0.user({ orgId });
  const stranger = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
  const modeler = t0.session(t0.user({ orgId, role: 'modeler' }));
  const held = await everyCredential(t0, member);
  for (const verb of ['deactivate', 'reactivate'] as const) {
    t.is((await act(verb, member.id, stranger)).status, 404);
    t.is((await act(verb, member.id, modeler)).status, 403);
    t.is((await call(t0, 'POST', `/api/admin/members/${member.id}/${verb}`)).status, 401);
    const invalid = await act(verb, 'x'.repeat(300), stranger);
    t.is(invalid.status, 422);
    t.true(Array.isArray(invalid.body.detail));
  }
  t.deepEqual(await workingCredentials(t0, held), ALL_KINDS);
});
