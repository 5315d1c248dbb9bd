// Organization settings (issue 23): MFA required, self-service join domains and role, session lifetime.
import test from 'ava';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { call } from '../auth/tokens/requests.ts';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts';

let t0: TestApp;
let dns: TestDnsServer;
test.before(async () => {
  dns = await startDnsServer();
  t0 = await startTestApp({ SEXTANT_DNS_SERVERS: dns.address });
});
test.after.always(async () => {
  await t0.stop();
  await dns.close();
});

function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  return { orgId, admin, as: { session: t0.session(admin) } };
}

test('an admin reads the defaults and changes every setting', async (t) => {
  const { as } = team();
  const before = await call(t0, 'GET', '/api/admin/organization/settings', as);
  t.deepEqual(before.body, { mfa_required: false, allowed_email_domains: [], email_domains: [], join_default_role: 'user', session_lifetime_seconds: 7 * 24 * 3600, production_through_environments: false, subscription_external_recipients: false });
  const res = await call(t0, 'PATCH', '/api/admin/organization/settings', as, {
    mfa_required: true,
    allowed_email_domains: ['Example-Corp.test', 'sub.example-corp.test'],
    join_default_role: 'modeler',
    session_lifetime_seconds: 3600,
    subscription_external_recipients: true,
  });
  t.is(res.status, 200);
  t.like(res.body, { mfa_required: true, allowed_email_domains: ['example-corp.test', 'sub.example-corp.test'], join_default_role: 'modeler', session_lifetime_seconds: 3600, subscription_external_recipients: true });
  // Claimed domains are pending until verified (issue 33).
  t.deepEqual((res.body['email_domains'] as { status: string }[]).map((d) => d.status), ['pending', 'pending']);
  t.deepEqual((await call(t0, 'GET', '/api/admin/organization/settings', as)).body, res.body);
  // A partial change keeps the rest.
  const partial = await call(t0, 'PATCH', '/api/admin/organization/settings', as, { mfa_required: false });
  t.like(partial.body, { mfa_required: false, join_default_role: 'modeler', session_lifetime_seconds: 3600, subscription_external_recipients: true });
});

test.serial('new sessions get the organization\'s lifetime', async (t) => {
  const { as, orgId } = team();
  await call(t0, 'PATCH', '/api/admin/organization/settings', as, { session_lifetime_seconds: 1800 });
  const session = t0.session(t0.user({ orgId }));
  t.is((await call(t0, 'GET', '/api/auth/me', { session })).status, 200);
  t0.clock.advance(1800_000 + 1000);
  t.is((await call(t0, 'GET', '/api/auth/me', { session })).status, 401);
});

/** Publishes the TXT record of a domain the team claimed and verifies it through the real DNS path. */
async function verify(as: { session: string }, domain: string) {
  const settings = await call(t0, 'GET', '/api/admin/organization/settings', as);
  const record = (settings.body['email_domains'] as { domain: string; txt_record: { name: string; value: string } }[]).find((d) => d.domain === domain)!.txt_record;
  dns.txt.set(record.name, [[record.value]]);
  return call(t0, 'POST', `/api/admin/email_domains/${domain}/verify`, as);
}

const membershipOf = (email: string) =>
  t0.app.services.store.sqlite!.prepare('SELECT m.org_id, m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ?').get(email) as { org_id: string; role: string };

test('people signing up with a verified domain join with the default role; before it is verified they start their own organization', async (t) => {
  const { as, orgId } = team();
  await call(t0, 'PATCH', '/api/admin/organization/settings', as, { allowed_email_domains: ['joiners.test'], join_default_role: 'modeler' });
  const early = await call(t0, 'POST', '/api/auth/register', {}, { email: 'early@joiners.test', password: 'a long and varied passphrase 42' });
  t.true(early.status < 300);
  t.like(membershipOf('early@joiners.test'), { role: 'admin' });
  t.not(membershipOf('early@joiners.test').org_id, orgId);
  t.is((await verify(as, 'joiners.test')).status, 200);
  const reg = await call(t0, 'POST', '/api/auth/register', {}, { email: 'new.person@joiners.test', password: 'a long and varied passphrase 42' });
  t.true(reg.status < 300);
  t.deepEqual({ ...membershipOf('new.person@joiners.test') }, { org_id: orgId, role: 'modeler' });
});

test('a domain another organization verified is a conflict naming it, a pending claim blocks no one; bad values are 422', async (t) => {
  const a = team();
  const b = team();
  await call(t0, 'PATCH', '/api/admin/organization/settings', a.as, { allowed_email_domains: ['claimed.test'] });
  // a's claim is pending: b may claim the domain too, and then a verifies first.
  t.is((await call(t0, 'PATCH', '/api/admin/organization/settings', b.as, { allowed_email_domains: ['claimed.test'] })).status, 200);
  t.is((await call(t0, 'PATCH', '/api/admin/organization/settings', b.as, { allowed_email_domains: [] })).status, 200);
  t.is((await verify(a.as, 'claimed.test')).status, 200);
  const res = await call(t0, 'PATCH', '/api/admin/organization/settings', b.as, { allowed_email_domains: ['claimed.test'] });
  t.is(res.status, 409);
  t.is(res.body.code, 'DOMAIN_TAKEN');
  t.deepEqual(res.body['data'], { domain: 'claimed.test' });
  for (const [body, field] of [
    [{ allowed_email_domains: ['not a domain'] }, 'allowed_email_domains'],
    [{ session_lifetime_seconds: 60 }, 'session_lifetime_seconds'],
    [{ join_default_role: 'owner' }, 'join_default_role'],
    [{ mfa_required: 'yes' }, 'mfa_required'],
  ] as [unknown, string][]) {
    const bad = await call(t0, 'PATCH', '/api/admin/organization/settings', a.as, body);
    t.is(bad.status, 422);
    t.is((bad.body.detail as { loc: string[] }[])[0]!.loc[1], field);
  }
});

test('settings answer 401 without a credential, 403 to non-admins and to workspace admins, and stay per organization', async (t) => {
  const { orgId, as } = team();
  const other = team();
  const user = { session: t0.session(t0.user({ orgId })) };
  for (const method of ['GET', 'PATCH']) {
    const body = method === 'PATCH' ? { mfa_required: true } : undefined;
    t.is((await call(t0, method, '/api/admin/organization/settings', {}, body)).status, 401);
    t.is((await call(t0, method, '/api/admin/organization/settings', user, body)).status, 403);
  }
  await call(t0, 'PATCH', '/api/admin/organization/settings', as, { join_default_role: 'admin' });
  t.is((await call(t0, 'GET', '/api/admin/organization/settings', other.as)).body['join_default_role'], 'user');
  const ws = t0.org(undefined, { baseOrgId: orgId });
  const wsAdmin = t0.user({ orgId: ws, role: 'admin' });
  const res = await call(t0, 'GET', '/api/admin/organization/settings', { session: t0.session(wsAdmin) });
  t.is(res.status, 403);
  t.is(res.body.code, 'BASE_ORG_REQUIRED');
});

test('settings changes are audited with the values before', async (t) => {
  const { as, orgId, admin } = team();
  await call(t0, 'PATCH', '/api/admin/organization/settings', as, { session_lifetime_seconds: 7200 });
  const row = t0.app.services.store.sqlite!.prepare("SELECT actor_id, data FROM audit_log WHERE org_id = ? AND action = 'org_settings_changed'").get(orgId) as { actor_id: string; data: string };
  t.is(row.actor_id, admin.id);
  t.like(JSON.parse(row.data), { changes: { session_lifetime_seconds: 7200 }, before: { session_lifetime_seconds: 7 * 24 * 3600 } });
});
