// Admin member routes (issue 23): list, search, pages, role, attributes, deactivate, reactivate,
// remove, unlock; 401, 403, 404 across organizations, 422 shapes and the last-admin rule.
import test from 'ava';
import { getUser } from '../../src/auth/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call, mcpInitialize } from '../auth/tokens/requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  const member = t0.user({ orgId });
  return { orgId, admin, member, as: { session: t0.session(admin) } };
}

test('an admin lists members with role, status, MFA, sign-in methods and attributes', async (t) => {
  const { as, admin, member, orgId } = team();
  await call(t0, 'PUT', `/api/row-security/groups/sales`, as, { name: 'Sales', members: [member.id] });
  await call(t0, 'PUT', `/api/admin/members/${member.id}/attributes`, as, { attributes: { region: 'EU' } });
  const res = await call(t0, 'GET', '/api/admin/members', as);
  t.is(res.status, 200);
  const list = res.body['members'] as Record<string, unknown>[];
  t.deepEqual(list.map((m) => m['user_id']).sort(), [admin.id, member.id].sort());
  const m = list.find((x) => x['user_id'] === member.id)!;
  t.like(m, { role: 'user', status: 'active', mfa_enabled: false, attributes: { region: 'EU' }, groups: [{ id: 'sales', name: 'Sales' }] });
  t.deepEqual(m['sign_in_methods'], ['magic_link']);
  t.is(list.find((x) => x['user_id'] === admin.id)!['last_sign_in_at'], new Date(t0.clock.now()).toISOString());
  t.is(res.body['next_cursor'], null);
  t.is((await call(t0, 'GET', `/api/admin/members/${member.id}`, as)).body['email'], member.email);
  t.truthy(orgId);
});

test('search finds members by part of the name or email, and keyset pages walk the list once', async (t) => {
  const { as, orgId } = team();
  for (let i = 0; i < 5; i++) t0.user({ orgId, email: `pager-${i}_x@paging.test` });
  const found = await call(t0, 'GET', '/api/admin/members?q=pager-3_', as);
  t.deepEqual((found.body['members'] as { email: string }[]).map((m) => m.email), ['pager-3_x@paging.test']);
  // LIKE wildcards in the search are literal.
  t.deepEqual((await call(t0, 'GET', '/api/admin/members?q=pager-%25', as)).body['members'], []);
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await call(t0, 'GET', `/api/admin/members?limit=2${cursor ? `&cursor=${cursor}` : ''}`, as);
    t.is(page.status, 200);
    seen.push(...(page.body['members'] as { email: string }[]).map((m) => m.email));
    cursor = page.body['next_cursor'] as string | null;
  } while (cursor);
  t.is(seen.length, 7);
  t.deepEqual(seen, [...seen].sort());
  const bad = await call(t0, 'GET', '/api/admin/members?cursor=%%%', as);
  t.is(bad.status, 422);
  t.deepEqual((bad.body.detail as { loc: string[] }[])[0]!.loc, ['query', 'cursor']);
});

test('member routes answer 401 without a credential and 403 to users and modelers', async (t) => {
  const { member, orgId } = team();
  const paths: [string, string, unknown?][] = [
    ['GET', '/api/admin/members'],
    ['GET', `/api/admin/members/${member.id}`],
    ['PUT', `/api/admin/members/${member.id}/role`, { role: 'admin' }],
    ['PUT', `/api/admin/members/${member.id}/attributes`, { attributes: {} }],
    ['POST', `/api/admin/members/${member.id}/deactivate`],
    ['POST', `/api/admin/members/${member.id}/reactivate`],
    ['DELETE', `/api/admin/members/${member.id}`],
    ['POST', `/api/admin/members/${member.id}/unlock`],
  ];
  const modeler = { session: t0.session(t0.user({ orgId, role: 'modeler' })) };
  for (const [method, path, body] of paths) {
    t.is((await call(t0, method, path, {}, body)).status, 401, path);
    t.is((await call(t0, method, path, { session: t0.session(member) }, body)).status, 403, path);
    t.is((await call(t0, method, path, modeler, body)).status, 403, path);
  }
});

test("another organization's admin gets 404 for every member route and changes nothing", async (t) => {
  const { member } = team();
  const other = team();
  for (const [method, path, body] of [
    ['GET', `/api/admin/members/${member.id}`],
    ['PUT', `/api/admin/members/${member.id}/role`, { role: 'admin' }],
    ['PUT', `/api/admin/members/${member.id}/attributes`, { attributes: { a: 'b' } }],
    ['POST', `/api/admin/members/${member.id}/deactivate`],
    ['POST', `/api/admin/members/${member.id}/reactivate`],
    ['DELETE', `/api/admin/members/${member.id}`],
    ['POST', `/api/admin/members/${member.id}/unlock`],
  ] as [string, string, unknown?][]) {
    const res = await call(t0, method, path, other.as, body);
    t.is(res.status, 404, path);
    t.is(res.body.code, 'MEMBER_NOT_FOUND');
  }
  t.false((await call(t0, 'GET', '/api/admin/members', other.as)).body['members']!.toString().includes(member.id));
  t.is((await call(t0, 'GET', '/api/auth/me', { session: t0.session(member) })).body['role'], 'user');
});

test('an admin changes a role; the change holds on the member\'s next request', async (t) => {
  const { as, member } = team();
  const session = t0.session(member);
  const res = await call(t0, 'PUT', `/api/admin/members/${member.id}/role`, as, { role: 'modeler', can_merge: true });
  t.is(res.status, 200);
  t.like(res.body, { role: 'modeler', can_merge: true });
  t.is((await call(t0, 'GET', '/api/auth/me', { session })).body['role'], 'modeler');
});

test('role and attribute bodies are validated with 422 naming the field', async (t) => {
  const { as, member } = team();
  const bad = async (path: string, body: unknown, loc: (string | number)[]) => {
    const res = await call(t0, 'PUT', path, as, body);
    t.is(res.status, 422, JSON.stringify(body));
    t.true(Array.isArray(res.body.detail));
    t.deepEqual((res.body.detail as { loc: (string | number)[] }[])[0]!.loc.slice(0, loc.length), loc);
  };
  await bad(`/api/admin/members/${member.id}/role`, { role: 'owner' }, ['body', 'role']);
  await bad(`/api/admin/members/${member.id}/attributes`, { attributes: { '1bad': 'x' } }, ['body', 'attributes']);
  await bad(`/api/admin/members/${member.id}/attributes`, { attributes: { region: 'x'.repeat(1001) } }, ['body', 'attributes', 'region']);
  await bad(`/api/admin/members/${member.id}/attributes`, { attributes: { email: 'spoof@example.com' } }, ['body', 'attributes', 'email']);
  await bad(`/api/admin/members/${member.id}/attributes`, { groups: ['no-such-group'] }, ['body', 'groups', 0]);
  await bad(`/api/admin/members/${member.id}/attributes`, {}, ['body', 'attributes']);
});

test('the last active admin cannot be demoted, deactivated or removed, not even by themselves', async (t) => {
  const { as, admin, orgId } = team();
  for (const [method, path, body, action] of [
    ['PUT', `/api/admin/members/${admin.id}/role`, { role: 'user' }, 'demote'],
    ['POST', `/api/admin/members/${admin.id}/deactivate`, undefined, 'deactivate'],
    ['DELETE', `/api/admin/members/${admin.id}`, undefined, 'remove'],
  ] as [string, string, unknown, string][]) {
    const res = await call(t0, method, path, as, body);
    t.is(res.status, 409);
    t.is(res.body.code, 'LAST_ADMIN');
    t.deepEqual(res.body['data'], { action });
    t.regex(res.body.detail as string, /last active admin/);
  }
  // With a second admin, the first may step down; then the second is the last one.
  const second = t0.user({ orgId, role: 'admin' });
  t.is((await call(t0, 'PUT', `/api/admin/members/${admin.id}/role`, as, { role: 'user' })).status, 200);
  const secondAs = { session: t0.session(second) };
  t.is((await call(t0, 'POST', `/api/admin/members/${second.id}/deactivate`, secondAs)).body.code, 'LAST_ADMIN');
});

test('two admins deactivating each other at once: exactly one succeeds, one admin stays', async (t) => {
  const { as, admin, orgId } = team();
  const second = t0.user({ orgId, role: 'admin' });
  const results = await Promise.all([
    call(t0, 'POST', `/api/admin/members/${second.id}/deactivate`, as),
    call(t0, 'POST', `/api/admin/members/${admin.id}/deactivate`, { session: t0.session(second) }),
  ]);
  // The loser is refused either as the last admin (409) or because the winner deactivated them first (401).
  t.is(results.filter((r) => r.status === 200).length, 1);
  t.true(results.every((r) => [200, 401, 409].includes(r.status)));
  const active = t0.app.services.store.sqlite!
    .prepare("SELECT COUNT(*) FROM memberships WHERE org_id = ? AND role = 'admin' AND deactivated_at IS NULL")
    .pluck()
    .get(orgId);
  t.is(active, 1);
});

test('a deactivated admin does not count: the remaining active admin is the last one', async (t) => {
  const { as, orgId } = team();
  const second = t0.user({ orgId, role: 'admin' });
  t.is((await call(t0, 'POST', `/api/admin/members/${second.id}/deactivate`, as)).status, 200);
  const me = (await call(t0, 'GET', '/api/auth/me', as)).body['user_id'] as string;
  t.is((await call(t0, 'DELETE', `/api/admin/members/${me}`, as)).body.code, 'LAST_ADMIN');
});

test("a deactivated member's session, API, CLI and MCP tokens are refused on the next request; reactivation lets them sign in again", async (t) => {
  const { as, member } = team();
  const session = t0.session(member);
  const api = t0.token(member, 'api');
  const cli = t0.token(member, 'cli');
  const mcp = t0.token(member, 'mcp');
  // Warm the credential cache, so the refusal is not a cache miss.
  t.is((await call(t0, 'GET', '/api/auth/me', { session })).status, 200);
  t.is((await call(t0, 'GET', '/api/auth/me', { key: api })).status, 200);
  t.is((await call(t0, 'GET', '/api/auth/me', { bearer: cli })).status, 200);
  t.is((await mcpInitialize(t0, mcp)).status, 200);
  const res = await call(t0, 'POST', `/api/admin/members/${member.id}/deactivate`, as);
  t.is(res.status, 200);
  t.is(res.body['status'], 'deactivated');
  t.is((await call(t0, 'GET', '/api/auth/me', { session })).status, 401);
  t.is((await call(t0, 'GET', '/api/auth/me', { key: api })).status, 401);
  t.is((await call(t0, 'GET', '/api/auth/me', { bearer: cli })).status, 401);
  t.is((await mcpInitialize(t0, mcp)).status, 401);
  t.is((await call(t0, 'POST', '/api/auth/magic_link/request', {}, { email: member.email })).status, 202);
  const back = await call(t0, 'POST', `/api/admin/members/${member.id}/reactivate`, as);
  t.is(back.body['status'], 'active');
  // The old session stays ended; a new one works.
  t.is((await call(t0, 'GET', '/api/auth/me', { session })).status, 401);
  t.is((await call(t0, 'GET', '/api/auth/me', { session: t0.session((await getUser(t0.app.services.executor, member.id))!) })).status, 200);
});

test('a removed member loses access; their account row (and so their chats) stays', async (t) => {
  const { as, member, orgId } = team();
  const api = t0.token(member, 'api');
  t.is((await call(t0, 'DELETE', `/api/admin/members/${member.id}`, as)).status, 204);
  t.is((await call(t0, 'GET', '/api/auth/me', { key: api })).status, 401);
  t.is((await call(t0, 'GET', `/api/admin/members/${member.id}`, as)).status, 404);
  t.truthy(t0.app.services.store.sqlite!.prepare('SELECT 1 FROM users WHERE id = ?').get(member.id));
  t.truthy(orgId);
});

test('every member action is audited with the acting admin', async (t) => {
  const { as, admin, member, orgId } = team();
  await call(t0, 'PUT', `/api/admin/members/${member.id}/role`, as, { role: 'modeler' });
  await call(t0, 'PUT', `/api/admin/members/${member.id}/attributes`, as, { attributes: { region: 'EU' } });
  await call(t0, 'POST', `/api/admin/members/${member.id}/deactivate`, as);
  await call(t0, 'POST', `/api/admin/members/${member.id}/reactivate`, as);
  await call(t0, 'POST', `/api/admin/members/${member.id}/unlock`, as);
  await call(t0, 'DELETE', `/api/admin/members/${member.id}`, as);
  const rows = t0.app.services.store.sqlite!.prepare('SELECT action, actor_id, org_id FROM audit_log WHERE user_id = ? ORDER BY created_at, rowid').all(member.id) as Record<string, string>[];
  t.deepEqual(rows.map((r) => r['action']), ['member_role_changed', 'member_attributes_changed', 'member_deactivated', 'member_reactivated', 'member_unlocked', 'member_removed']);
  t.true(rows.every((r) => r['actor_id'] === admin.id && r['org_id'] === orgId));
});
