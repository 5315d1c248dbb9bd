// Deactivation reaches every credential kind, OAuth included (principalFor), and a workspace admin's
// deactivation closes only that workspace (issue 23).
import test from 'ava';
import { sqliteExecutor } from '../../../src/store/index.ts';
import { getUser, principalFor } from '../../../src/auth/index.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { call } from '../tokens/requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

test('an OAuth client of a deactivated member gets no principal; after reactivation it does', async (t) => {
  const orgId = t0.org();
  const admin = { session: t0.session(t0.user({ orgId, role: 'admin' })) };
  const member = t0.user({ orgId });
  const db = t0.app.services.store.sqlite!;
  t.truthy((await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), member.id))!, orgId, 'oauth', ['mcp:tools'])));
  await call(t0, 'POST', `/api/admin/members/${member.id}/deactivate`, admin);
  t.is((await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), member.id))!, orgId, 'oauth', ['mcp:tools'])), undefined);
  await call(t0, 'POST', `/api/admin/members/${member.id}/reactivate`, admin);
  t.truthy((await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), member.id))!, orgId, 'oauth', ['mcp:tools'])));
});

test("a workspace admin's deactivation closes the workspace only; the base organization still answers", async (t) => {
  const base = t0.org();
  const ws = t0.org(undefined, { baseOrgId: base });
  const wsAdmin = t0.user({ orgId: ws, role: 'admin' });
  const member = t0.user({ orgId: base });
  const db = t0.app.services.store.sqlite!;
  db.prepare("INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES (?, ?, 'user', 0, 0)").run(member.id, ws);
  const inWs = t0.session(member, ws);
  const inBase = t0.session(member, base);
  const res = await call(t0, 'POST', `/api/admin/members/${member.id}/deactivate`, { session: t0.session(wsAdmin) });
  t.is(res.status, 200);
  t.is((await call(t0, 'GET', '/api/auth/me', { session: inWs })).status, 401);
  t.is((await call(t0, 'GET', '/api/auth/me', { session: inBase })).status, 200);
  // Removing from the workspace leaves the base membership too.
  t.is((await call(t0, 'DELETE', `/api/admin/members/${member.id}`, { session: t0.session(wsAdmin) })).status, 204);
  t.is((await call(t0, 'GET', '/api/auth/me', { session: inBase })).status, 200);
});

test("a removal ends the member's OAuth grants (MCP clients) with their tokens, there and in its workspaces: a later return brings none back", async (t) => {
  const base = t0.org();
  const ws = t0.org(undefined, { baseOrgId: base });
  const other = t0.org();
  const admin = { session: t0.session(t0.user({ orgId: base, role: 'admin' })) };
  const member = t0.user({ orgId: base });
  const db = t0.app.services.store.sqlite!;
  db.prepare("INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES (?, ?, 'user', 0, 0)").run(member.id, ws);
  db.prepare("INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES (?, ?, 'user', 0, 0)").run(member.id, other);
  const grant = (org: string) => {
    db.prepare("INSERT INTO oauth_models (model, id, payload, account_id, created_at) VALUES ('Grant', ?, '{}', ?, 0)").run(`g-${member.id}-${org}`, `${member.id}:${org}`);
    db.prepare("INSERT INTO oauth_models (model, id, payload, grant_id, created_at) VALUES ('RefreshToken', ?, '{}', ?, 0)").run(`rt-${member.id}-${org}`, `g-${member.id}-${org}`);
  };
  for (const org of [base, ws, other]) grant(org);
  t.is((await call(t0, 'DELETE', `/api/admin/members/${member.id}`, admin)).status, 204);
  const left = (db.prepare('SELECT id FROM oauth_models WHERE id LIKE ? ORDER BY id').all(`%-${member.id}-%`) as { id: string }[]).map((r) => r.id);
  t.deepEqual(left, [`g-${member.id}-${other}`, `rt-${member.id}-${other}`], 'only the grant of an organization the removal does not reach is left');
});
