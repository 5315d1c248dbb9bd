import test from 'ava';
import { addOrgEmailDomain } from '../helpers/auth-config.ts';
import type { TestApp } from '../helpers/app.ts';
import { call, startAuthApp } from '../helpers/auth.ts';
import { startTestIdp, type TestIdp } from '../helpers/oidc-idp.ts';
import { browse } from '../helpers/sso-browser.ts';

let t0: TestApp;
let idp: TestIdp;
const ORG = 'corporg';
/** An organization of its own for the last-admin rule. */
const LAST_ORG = 'lastadminorg';
const SECRET = 'corp-client-secret-0123456789abcdef';
const BASE = '/api/admin/sso/providers';

test.before(async () => {
  t0 = await startAuthApp();
  // The provider's tokens carry real times; let the gateway's clock agree.
  t0.clock.set(Date.now());
  t0.org(ORG);
  t0.org(LAST_ORG);
  addOrgEmailDomain(t0.app.services.store.sqlite!, ORG, 'corp.test');
  const types = ['corp', 'nojit', 'gone', 'race', 'changed'];
  idp = await startTestIdp({ clientId: 'sextant-corp', clientSecret: SECRET, redirectUris: [...types.map((ty) => `${t0.config.baseUrl}/api/auth/${ORG}/${ty}/auth`), `${t0.config.baseUrl}/api/auth/${LAST_ORG}/corp/auth`] });
});
test.after.always(async () => {
  await t0.stop();
  await idp.stop();
});

const db = () => t0.app.services.store.sqlite!;
const admin = () => t0.session(t0.user({ orgId: ORG, role: 'admin' }));
function provider(type: string, extra: Record<string, unknown> = {}) {
  return { type, name: `Corp ${type}`, issuer: idp.issuer, client_id: 'sextant-corp', client_secret: SECRET, ...extra };
}
const auditActions = (orgId: string) => db().prepare('SELECT action FROM audit_log WHERE org_id = ? ORDER BY rowid').pluck().all(orgId) as string[];

test.serial('an admin adds a provider over the API, the secret is sealed and never returned, and the sign-in page offers it', async (t) => {
  const res = await call(t0, 'POST', BASE, provider('corp', { groups_claim: 'groups', scopes: ['openid', 'email', 'profile', 'groups'] }), admin());
  t.is(res.status, 201);
  t.like(res.body, { type: 'corp', name: 'Corp corp', has_client_secret: true, jit_provisioning: true, default_role: 'user' });
  t.false(JSON.stringify(res.body).includes(SECRET));
  t.is(res.body['redirect_uri'], `${t0.config.baseUrl}/api/auth/${ORG}/corp/auth`);
  const stored = db().prepare('SELECT client_secret FROM sso_configs WHERE id = ?').pluck().get(res.body['id']) as string;
  t.false(stored.includes(SECRET));
  const got = await call(t0, 'GET', `${BASE}/${res.body['id'] as string}`, undefined, admin());
  t.false(JSON.stringify(got.body).includes(SECRET));
  const listing = await call(t0, 'GET', '/api/auth/org_from_email?email=someone@corp.test');
  t.deepEqual(listing.body['sso'], [{ type: 'corp', name: 'Corp corp', login_url: `${t0.config.baseUrl}/api/auth/${ORG}/corp/login` }]);
  t.true(auditActions(ORG).includes('sso_provider_added'));
});

test.serial('a person signs in end to end through the added provider and the group mapping gives role and RLS groups', async (t) => {
  const list = await call(t0, 'GET', BASE, undefined, admin());
  const corp = (list.body['providers'] as { id: string; type: string }[]).find((p) => p.type === 'corp')!;
  const mappings = [
    { group: 'data-team', role: 'modeler', rls_groups: ['analysts'] },
    { group: 'emea', rls_groups: ['emea'] },
    { group: 'apac', rls_groups: ['apac'] },
  ];
  t.is((await call(t0, 'PATCH', `${BASE}/${corp.id}`, { group_mappings: mappings }, admin())).status, 200);
  idp.signInAs({ sub: 'corp-1', email: 'ada@corp.test', name: 'Ada', groups: ['data-team', 'emea'] });
  const { url, jar } = await browse(t0, `/api/auth/${ORG}/corp/login?next=/welcome`);
  t.is(url.pathname, '/welcome');
  const me = await t0.fetch('/api/auth/me', { headers: { cookie: `sextant_session=${jar.get('sextant_session')}` } });
  const body = (await me.json()) as { user_id: string; org_id: string; role: string };
  t.like(body, { org_id: ORG, role: 'modeler' });
  const groups = db().prepare('SELECT g.name FROM group_members m JOIN groups g ON g.org_id = m.org_id AND g.id = m.group_id WHERE m.user_id = ? ORDER BY g.name').pluck().all(body.user_id);
  t.deepEqual(groups, ['analysts', 'emea']);
  // Leaving a group at the provider leaves the mapped RLS group at the next sign-in.
  idp.signInAs({ sub: 'corp-1', email: 'ada@corp.test', name: 'Ada', groups: ['apac'] });
  await browse(t0, `/api/auth/${ORG}/corp/login`);
  const after = db().prepare('SELECT g.name FROM group_members m JOIN groups g ON g.org_id = m.org_id AND g.id = m.group_id WHERE m.user_id = ? ORDER BY g.name').pluck().all(body.user_id);
  t.deepEqual(after, ['apac']);
  const audit = db().prepare("SELECT ip, outcome FROM audit_log WHERE action = 'sso_sign_in' AND user_id = ?").all(body.user_id) as { ip: string; outcome: string }[];
  t.is(audit.length, 2);
  t.truthy(audit[0]!.ip);
});

test.serial("a mapping demotes an admin who is not the last, never the organization's last admin", async (t) => {
  const first = t0.user({ orgId: LAST_ORG, role: 'admin', email: 'first.admin@corp.test' });
  const second = t0.user({ orgId: LAST_ORG, role: 'admin', email: 'second.admin@corp.test' });
  const mapping = { groups_claim: 'groups', scopes: ['openid', 'email', 'groups'], group_mappings: [{ group: 'staff', role: 'user' }] };
  t.is((await call(t0, 'POST', BASE, provider('corp', mapping), t0.session(first))).status, 201);
  const admins = () => db().prepare("SELECT user_id FROM memberships WHERE org_id = ? AND role = 'admin'").pluck().all(LAST_ORG) as string[];
  idp.signInAs({ sub: 'second-admin', email: second.email, groups: ['staff'] });
  await browse(t0, `/api/auth/${LAST_ORG}/corp/login`);
  t.deepEqual(admins(), [first.id]);
  idp.signInAs({ sub: 'first-admin', email: first.email, groups: ['staff'] });
  t.is((await browse(t0, `/api/auth/${LAST_ORG}/corp/login?next=/in`)).url.pathname, '/in');
  t.deepEqual(admins(), [first.id]);
});

test.serial('with just-in-time provisioning off an unknown person is refused and an existing member gets in', async (t) => {
  const res = await call(t0, 'POST', BASE, provider('nojit', { jit_provisioning: false }), admin());
  t.is(res.status, 201);
  idp.signInAs({ sub: 'corp-new', email: 'new.person@corp.test' });
  t.is((await browse(t0, `/api/auth/${ORG}/nojit/login`)).res.status, 403);
  t.is(db().prepare("SELECT COUNT(*) FROM users WHERE email = 'new.person@corp.test'").pluck().get(), 0);
  const failed = db().prepare("SELECT outcome, ip, data FROM audit_log WHERE org_id = ? AND action = 'sso_sign_in_failed'").get(ORG) as { outcome: string; ip: string; data: string };
  t.is(failed.outcome, 'failure');
  t.truthy(failed.ip);
  t.like(JSON.parse(failed.data), { type: 'nojit', code: 'NOT_A_MEMBER' });
  const member = t0.user({ orgId: ORG, email: 'member.nojit@corp.test' });
  idp.signInAs({ sub: 'corp-member', email: member.email });
  t.is((await browse(t0, `/api/auth/${ORG}/nojit/login?next=/in`)).url.pathname, '/in');
});

test.serial('a removed provider refuses sign-in, including one started before the removal', async (t) => {
  const res = await call(t0, 'POST', BASE, provider('gone'), admin());
  idp.signInAs({ sub: 'corp-gone', email: 'gone@corp.test' });
  const started = await browse(t0, `/api/auth/${ORG}/gone/login`, (u) => u.pathname.endsWith('/gone/auth'));
  t.is((await call(t0, 'DELETE', `${BASE}/${res.body['id'] as string}`, undefined, admin())).status, 204);
  const cookie = `sextant_sso_state=${started.jar.get('sextant_sso_state')}`;
  t.is((await t0.fetch(started.url.pathname + started.url.search, { headers: { cookie }, redirect: 'manual' })).status, 401);
  const again = await t0.fetch(`/api/auth/${ORG}/gone/login`, { redirect: 'manual' });
  t.is(again.status, 404);
  t.is(((await again.json()) as { code: string }).code, 'SSO_NOT_CONFIGURED');
  t.is((await call(t0, 'GET', `${BASE}/${res.body['id'] as string}`, undefined, admin())).status, 404);
  t.true(auditActions(ORG).includes('sso_provider_removed'));
});

test.serial('the test call reports good credentials, a wrong secret and discovery problems, the latter all alike', async (t) => {
  const list = await call(t0, 'GET', BASE, undefined, admin());
  const corp = (list.body['providers'] as { id: string; type: string }[]).find((p) => p.type === 'corp')!;
  const good = await call(t0, 'POST', `${BASE}/${corp.id}/test`, undefined, admin());
  t.is(good.status, 200);
  t.true(good.body['ok'] as boolean);
  t.is((await call(t0, 'PATCH', `${BASE}/${corp.id}`, { client_secret: 'not-the-secret-at-all' }, admin())).status, 200);
  const bad = await call(t0, 'POST', `${BASE}/${corp.id}/test`, undefined, admin());
  t.false(bad.body['ok'] as boolean);
  t.is((bad.body['checks'] as { problem: string | null }[])[1]!.problem, 'bad_client_credentials');
  t.is((await call(t0, 'PATCH', `${BASE}/${corp.id}`, { client_secret: SECRET }, admin())).status, 200);
  // The same provider under another host name: the document names a different issuer. Like every
  // discovery failure it reads as one problem, and nothing of the fetched document is repeated.
  const mismatch = await call(t0, 'PATCH', `${BASE}/${corp.id}`, { issuer: idp.issuer.replace('127.0.0.1', 'localhost') }, admin());
  t.is(mismatch.status, 422);
  t.is((mismatch.body.detail as { type: string; loc: string[] }[])[0]!.type, 'discovery_failed');
  t.false(JSON.stringify(mismatch.body).includes(idp.issuer));
  // Stored earlier (configuration from before), now unreachable: the test says discovery failed.
  db().prepare("UPDATE sso_configs SET issuer = 'http://127.0.0.1:9' WHERE id = ?").run(corp.id);
  const down = await call(t0, 'POST', `${BASE}/${corp.id}/test`, undefined, admin());
  t.is((down.body['checks'] as { problem: string }[])[0]!.problem, 'discovery_failed');
  t.is((down.body['checks'] as { detail: string }[])[0]!.detail, (mismatch.body.detail as { msg: string }[])[0]!.msg);
  db().prepare('UPDATE sso_configs SET issuer = ? WHERE id = ?').run(idp.issuer, corp.id);
});

test('saving refuses an issuer that is not an http(s) address, unreachable or without discovery, with 422 naming the problem', async (t) => {
  // Unreachable and answering without a discovery document read alike: the answer maps no ports.
  for (const [issuer, problem] of [
    ['file:///etc/passwd', 'invalid_issuer_url'],
    ['http://user:pw@127.0.0.1:1', 'invalid_issuer_url'],
    ['not a url', 'invalid_issuer_url'],
    ['ftp://login.example.com', 'invalid_issuer_url'],
    ['http://127.0.0.1:9', 'discovery_failed'],
    [`${t0.url}`, 'discovery_failed'],
  ] as const) {
    const res = await call(t0, 'POST', BASE, provider('changed', { issuer }), admin());
    t.is(res.status, 422, issuer);
    t.is((res.body.detail as { type: string; loc: string[] }[])[0]!.type, problem);
    t.deepEqual((res.body.detail as { loc: string[] }[])[0]!.loc, ['body', 'issuer']);
  }
});

test('hostile bodies answer 422 in the validation shape', async (t) => {
  for (const body of [{}, provider('BAD TYPE'), provider('ok', { default_role: 'owner' }), provider('ok', { scopes: ['open id'] }), provider('ok', { extra: 1 }), provider('ok', { email_claim: 'a b' })]) {
    const res = await call(t0, 'POST', BASE, body, admin());
    t.is(res.status, 422);
    t.true(Array.isArray(res.body.detail));
  }
  t.is((await call(t0, 'PATCH', `${BASE}/x`, { group_mappings: [{ role: 'admin' }] }, admin())).status, 422);
});

test('without a credential 401, as a member or modeler 403', async (t) => {
  t.is((await call(t0, 'GET', BASE)).status, 401);
  t.is((await call(t0, 'POST', BASE, provider('x'))).status, 401);
  for (const role of ['user', 'modeler'] as const) {
    const s = t0.session(t0.user({ orgId: ORG, role }));
    t.is((await call(t0, 'GET', BASE, undefined, s)).status, 403);
    t.is((await call(t0, 'POST', BASE, provider('x'), s)).status, 403);
    t.is((await call(t0, 'POST', `${BASE}/x/test`, undefined, s)).status, 403);
  }
});

test("another organization's admin gets 404 for this organization's providers and never sees them", async (t) => {
  const list = await call(t0, 'GET', BASE, undefined, admin());
  const id = (list.body['providers'] as { id: string }[])[0]!.id;
  const other = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
  t.deepEqual((await call(t0, 'GET', BASE, undefined, other)).body['providers'], []);
  t.is((await call(t0, 'GET', `${BASE}/${id}`, undefined, other)).status, 404);
  t.is((await call(t0, 'PATCH', `${BASE}/${id}`, { name: 'taken over' }, other)).status, 404);
  t.is((await call(t0, 'POST', `${BASE}/${id}/test`, undefined, other)).status, 404);
  t.is((await call(t0, 'DELETE', `${BASE}/${id}`, undefined, other)).status, 404);
  t.is(db().prepare('SELECT name FROM sso_configs WHERE id = ?').pluck().get(id), 'Corp corp');
});

test('two admins adding the same type at once: exactly one wins, the other gets 409', async (t) => {
  const results = await Promise.all(Array.from({ length: 5 }, () => call(t0, 'POST', BASE, provider('race'), admin())));
  t.deepEqual(results.map((r) => r.status).sort(), [201, 409, 409, 409, 409]);
  t.is(results.find((r) => r.status === 409)!.body.code, 'SSO_PROVIDER_EXISTS');
});
