// Refused attempts on administrative routes are audited as failures, exactly once each, in the
// caller's organization (issue 33, section 6): a modeler making itself admin, an analyst on every
// admin route, a member id that is unknown or of another organization, malformed bodies and a
// refused SSO save. A refusal the operation audits itself (409 LAST_ADMIN) is not written twice.
import test from 'ava';
import { isAdministrative } from '../../src/gateway/admin-refusals.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call } from '../auth/tokens/requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_TRUST_PROXY: 'true' });
});
test.after.always(() => t0.stop());

type Entry = { action: string; outcome: string; actor_id: string | null; user_id: string | null; target_type: string | null; target_id: string | null; ip: string | null; data: Record<string, unknown> };

function team(ip: string) {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  const modeler = t0.user({ orgId, role: 'modeler' });
  const analyst = t0.user({ orgId });
  return { orgId, admin, modeler, analyst, as: { session: t0.session(admin), ip } };
}

/** The organization's failure entries as its admin reads them, oldest first. */
async function failures(as: { session: string }): Promise<Entry[]> {
  const res = await call(t0, 'GET', '/api/admin/audit?limit=500&outcome=failure', as);
  return (res.body['entries'] as Entry[]).reverse();
}

test('a modeler making itself admin is refused with 403 and leaves exactly one failure entry naming it', async (t) => {
  const { as, modeler } = team('203.0.113.40');
  const res = await call(t0, 'PUT', `/api/admin/members/${modeler.id}/role`, { session: t0.session(modeler), ip: '198.51.100.40' }, { role: 'admin' });
  t.is(res.status, 403);
  const entries = await failures(as);
  t.is(entries.length, 1);
  t.like(entries[0], {
    action: 'member_role_changed', outcome: 'failure', actor_id: modeler.id, user_id: modeler.id, target_type: 'user', target_id: modeler.id, ip: '198.51.100.40',
    data: { code: 'FORBIDDEN', operation: 'admin_change_member_role' },
  });
  t.is((await call(t0, 'GET', '/api/auth/me', { session: t0.session(modeler) })).body['role'], 'modeler');
});

test('an analyst on every administrative route is refused with 403, and each refusal leaves exactly one failure entry', async (t) => {
  const { as, analyst, admin } = team('203.0.113.41');
  const routes = t0.app.routes.filter((r) => isAdministrative(r));
  t.true(routes.length >= 40, `${routes.length} administrative routes`);
  const key = t0.token(analyst);
  for (const r of routes) {
    const path = r.path.replace('{user_id}', admin.id).replace(/\{[a-z_]+\}/g, 'x1');
    const res = await call(t0, r.method, path, { key, ip: '198.51.100.41' }, r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
    t.is(res.status, 403, `${r.method} ${r.path}`);
  }
  const entries = await failures(as);
  t.deepEqual(entries.map((e) => e.data['operation']).sort(), routes.map((r) => r.operationId).sort());
  for (const e of entries) t.like(e, { actor_id: analyst.id, ip: '198.51.100.41', data: { code: 'FORBIDDEN' } });
});

test('a member id that is unknown or of another organization answers 404 and leaves one failure entry, in the caller\'s organization only', async (t) => {
  const a = team('203.0.113.42');
  const b = team('203.0.113.43');
  const ops: [string, string, unknown?][] = [
    ['PUT', '/role', { role: 'modeler' }],
    ['PUT', '/attributes', { attributes: { region: 'EU' } }],
    ['POST', '/deactivate'],
    ['POST', '/reactivate'],
    ['POST', '/unlock'],
    ['DELETE', ''],
    ['GET', ''],
  ];
  for (const id of ['no-such-user', b.analyst.id]) {
    for (const [method, suffix, body] of ops) {
      const res = await call(t0, method, `/api/admin/members/${id}${suffix}`, a.as, body);
      t.is(res.status, 404, `${method} ${suffix} ${id}`);
    }
  }
  const entries = await failures(a.as);
  t.is(entries.length, ops.length * 2);
  t.deepEqual(entries.slice(0, ops.length).map((e) => e.action), ['member_role_changed', 'member_attributes_changed', 'member_deactivated', 'member_reactivated', 'member_unlocked', 'member_removed', 'admin_get_member']);
  for (const e of entries) t.like(e, { actor_id: a.admin.id, target_type: 'user', ip: '203.0.113.42', outcome: 'failure' });
  t.true(entries.every((e) => typeof e.data['code'] === 'string' && /NOT_FOUND/.test(e.data['code'] as string)));
  // The other organization's log holds nothing of it, and its member is untouched.
  t.deepEqual(await failures(b.as), []);
  t.is((await call(t0, 'GET', `/api/admin/members/${b.analyst.id}`, b.as)).body['status'], 'active');
});

test('malformed bodies on admin routes answer 422 and leave one failure entry each', async (t) => {
  const { as, analyst } = team('203.0.113.44');
  const bad: [string, string, unknown][] = [
    ['PUT', `/api/admin/members/${analyst.id}/role`, { role: 'owner' }],
    ['PUT', `/api/admin/members/${analyst.id}/attributes`, { attributes: { role: 'admin' } }],
    ['PUT', `/api/row-security/users/${analyst.id}/attributes`, { attributes: { email: 'boss@x.test' } }],
    ['POST', '/api/admin/invitations', { email: 'not an address' }],
    ['PATCH', '/api/admin/organization/settings', { session_lifetime_seconds: 1 }],
  ];
  for (const [method, path, body] of bad) t.is((await call(t0, method, path, as, body)).status, 422, path);
  const entries = await failures(as);
  t.deepEqual(entries.map((e) => e.action), ['member_role_changed', 'member_attributes_changed', 'user_attributes_changed', 'invitation_created', 'org_settings_changed']);
  for (const e of entries) t.like(e, { outcome: 'failure', data: { code: 'VALIDATION_FAILED' } });
});

test('a refused SSO provider save leaves one failure entry and no provider', async (t) => {
  const { as, admin } = team('203.0.113.45');
  const provider = { type: 'oidc', name: 'Corp', issuer: 'http://127.0.0.1:1', client_id: 'c', client_secret: 's' };
  const refused = await call(t0, 'POST', '/api/admin/sso/providers', as, provider);
  t.true(refused.status >= 400 && refused.status < 500, String(refused.status));
  const malformed = await call(t0, 'POST', '/api/admin/sso/providers', as, { ...provider, issuer: 'not a url' });
  t.is(malformed.status, 422);
  t.is((await call(t0, 'PATCH', '/api/admin/sso/providers/no-such-provider', as, { name: 'x' })).status, 404);
  const entries = await failures(as);
  t.deepEqual(entries.map((e) => [e.action, e.actor_id]), [
    ['sso_provider_added', admin.id],
    ['sso_provider_added', admin.id],
    ['sso_provider_changed', admin.id],
  ]);
  t.like(entries[2], { target_type: 'sso_provider', target_id: 'no-such-provider' });
  t.deepEqual((await call(t0, 'GET', '/api/admin/sso/providers', as)).body['providers'] ?? [], []);
});

test('a refusal the operation audits itself is not written twice', async (t) => {
  const { as, admin } = team('203.0.113.46');
  t.is((await call(t0, 'PUT', `/api/admin/members/${admin.id}/role`, as, { role: 'user' })).status, 409);
  t.is((await call(t0, 'DELETE', '/api/row-security/groups/no-such-group', as)).status, 404);
  const entries = await failures(as);
  t.deepEqual(entries.map((e) => [e.action, e.data['code'] ?? e.data['error']]), [
    ['member_role_changed', 'LAST_ADMIN'],
    ['group_deleted', 'GROUP_NOT_FOUND'],
  ]);
});
