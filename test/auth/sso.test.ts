import test from 'ava';
import { setSsoConfig } from '../helpers/auth-config.ts';
import type { TestApp } from '../helpers/app.ts';
import { call, enrollMfa, startAuthApp, totp } from '../helpers/auth.ts';
import { startTestIdp, type TestIdp } from '../helpers/oidc-idp.ts';
import { browse as browseAs } from '../helpers/sso-browser.ts';

let t0: TestApp;
let idp: TestIdp;
const ORG = 'ssoorg';

test.before(async () => {
  t0 = await startAuthApp();
  // The provider's tokens carry real times; let the gateway's clock agree.
  t0.clock.set(Date.now());
  t0.org(ORG);
  idp = await startTestIdp({ clientId: 'sextant', clientSecret: 'sextant-client-secret-0123456789', redirectUris: [`${t0.config.baseUrl}/api/auth/${ORG}/oidc/auth`] });
  setSsoConfig({ db: t0.app.services.store.sqlite!, clock: t0.clock, secretBox: t0.app.services.secretBox }, { orgId: ORG, type: 'oidc', issuer: idp.issuer, clientId: 'sextant', clientSecret: 'sextant-client-secret-0123456789' });
});
test.after.always(async () => {
  await t0.stop();
  await idp.stop();
});

const browse = (path: string, stopWhen?: (u: URL) => boolean) => browseAs(t0, path, stopWhen);

test.serial('a new user signs in through the organization\'s OIDC provider, is created without a password and lands on next', async (t) => {
  idp.signInAs({ sub: 'idp-user-1', email: 'sso.person@bigcorp.test', name: 'Sso Person' });
  const { url, jar } = await browse(`/api/auth/${ORG}/oidc/login?next=/after`);
  t.is(url.pathname, '/after');
  const session = jar.get('sextant_session');
  t.truthy(session);
  const me = await t0.fetch('/api/auth/me', { headers: { cookie: `sextant_session=${session}` } });
  const body = (await me.json()) as { email: string; org_id: string; has_password: boolean; name: string };
  t.like(body, { email: 'sso.person@bigcorp.test', org_id: ORG, has_password: false, name: 'Sso Person' });
  // A second sign-in links to the same user.
  const again = await browse(`/api/auth/${ORG}/oidc/login`);
  t.is(again.url.pathname, '/');
  t.is(t0.app.services.store.sqlite!.prepare("SELECT COUNT(*) FROM users WHERE email = 'sso.person@bigcorp.test'").pluck().get(), 1);
});

test.serial('the authorization request carries PKCE S256, state and nonce', async (t) => {
  const res = await t0.fetch(`/api/auth/${ORG}/oidc/login`, { redirect: 'manual' });
  t.is(res.status, 302);
  const auth = new URL(res.headers.get('location')!);
  t.is(auth.origin, idp.issuer);
  t.is(auth.searchParams.get('code_challenge_method'), 'S256');
  t.truthy(auth.searchParams.get('code_challenge'));
  t.truthy(auth.searchParams.get('state'));
  t.truthy(auth.searchParams.get('nonce'));
});

test.serial('a callback with a forged or replayed state is refused', async (t) => {
  idp.signInAs({ sub: 'idp-user-2', email: 'replay@bigcorp.test' });
  const { url, jar } = await browse(`/api/auth/${ORG}/oidc/login`, (u) => u.pathname.endsWith('/oidc/auth'));
  const stateCookie = `sextant_sso_state=${jar.get('sextant_sso_state')}`;
  const forged = new URL(url);
  forged.searchParams.set('state', 'forged');
  t.is((await t0.fetch(forged.pathname + forged.search, { headers: { cookie: stateCookie }, redirect: 'manual' })).status, 401);
  // Without the browser's state cookie (login CSRF): refused.
  t.is((await t0.fetch(url.pathname + url.search, { redirect: 'manual' })).status, 401);
  const ok = await t0.fetch(url.pathname + url.search, { headers: { cookie: stateCookie }, redirect: 'manual' });
  t.is(ok.status, 302);
  t.is((await t0.fetch(url.pathname + url.search, { headers: { cookie: stateCookie }, redirect: 'manual' })).status, 401);
});

test.serial('an existing member is linked by verified email; a non-member with the same email is refused', async (t) => {
  const member = t0.user({ orgId: ORG, email: 'member@bigcorp.test' });
  idp.signInAs({ sub: 'idp-member', email: member.email });
  const { jar } = await browse(`/api/auth/${ORG}/oidc/login`);
  const me = await t0.fetch('/api/auth/me', { headers: { cookie: `sextant_session=${jar.get('sextant_session')}` } });
  t.is(((await me.json()) as { user_id: string }).user_id, member.id);
  const outsider = t0.user({ orgId: t0.org(), email: 'outsider@bigcorp.test' });
  idp.signInAs({ sub: 'idp-outsider', email: outsider.email });
  const refused = await browse(`/api/auth/${ORG}/oidc/login`);
  t.is(refused.res.status, 403);
  idp.signInAs({ sub: 'idp-unverified', email: 'unverified@bigcorp.test', emailVerified: false });
  t.is((await browse(`/api/auth/${ORG}/oidc/login`)).res.status, 401);
});

test.serial('with MFA on, SSO continues to the MFA step of the sign-in page, the pending token in the fragment', async (t) => {
  idp.signInAs({ sub: 'idp-mfa', email: 'mfa.sso@bigcorp.test' });
  const first = await browse(`/api/auth/${ORG}/oidc/login`);
  const { secret } = await enrollMfa(t0, first.jar.get('sextant_session')!);
  const { url, res } = await browse(`/api/auth/${ORG}/oidc/login?next=/x`);
  t.is(url.pathname, '/login');
  t.is(url.searchParams.get('next'), '/x');
  t.false(res.headers.getSetCookie().some((c) => c.startsWith('sextant_session=ey')));
  // The web client's sign-in page finishes with the token from the fragment (never sent to a server).
  const mfaToken = new URLSearchParams(url.hash.slice(1)).get('mfa_token')!;
  const done = await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: totp(t0, secret) });
  t.is(done.status, 200);
});

test('unknown organization or type answers 404; a bad type 422', async (t) => {
  t.is((await t0.fetch('/api/auth/nope/oidc/login', { redirect: 'manual' })).status, 404);
  t.is((await t0.fetch(`/api/auth/${ORG}/saml/login`, { redirect: 'manual' })).status, 404);
  t.is((await t0.fetch(`/api/auth/${ORG}/BAD TYPE/login`, { redirect: 'manual' })).status, 422);
  t.is((await call(t0, 'GET', `/api/auth/${ORG}/oidc/auth`)).status, 422);
  t.is((await call(t0, 'GET', `/api/auth/${ORG}/oidc/auth?state=x&error=access_denied`)).body.code, 'SSO_FAILED');
});

test.serial('an SSO-only user has no password and gets no reset or magic link mail', async (t) => {
  idp.signInAs({ sub: 'idp-only', email: 'only.sso@bigcorp.test' });
  await browse(`/api/auth/${ORG}/oidc/login`);
  const db = t0.app.services.store.sqlite!;
  t.is(db.prepare("SELECT password_hash FROM users WHERE email = 'only.sso@bigcorp.test'").pluck().get(), null);
  t.is((await call(t0, 'POST', '/api/auth/reset_password', { email: 'only.sso@bigcorp.test' })).status, 200);
  t.is((await call(t0, 'POST', '/api/auth/magic_link/request', { email: 'only.sso@bigcorp.test' })).status, 202);
  t.is(db.prepare("SELECT COUNT(*) FROM outbox WHERE to_address = 'only.sso@bigcorp.test'").pluck().get(), 0);
  t.is((await call(t0, 'POST', '/api/auth/token', { email: 'only.sso@bigcorp.test', password: 'anything at all here' })).status, 401);
});
