import test from 'ava';
import { startAuthApp, passwordUser, signIn, call, PASSWORD, enrollMfa, totp } from '../helpers/auth.ts';
import type { TestApp } from '../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp();
});
test.after.always(() => t0.stop());

test.serial('a password sign-in returns a session JWT and sets an HttpOnly cookie', async (t) => {
  const user = await passwordUser(t0);
  const res = await t0.fetch('/api/auth/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: PASSWORD }) });
  t.is(res.status, 200);
  const body = (await res.json()) as { access_token: string; token_type: string };
  t.is(body.token_type, 'bearer');
  const cookie = res.headers.get('set-cookie') ?? '';
  t.regex(cookie, /sextant_session=/);
  t.regex(cookie, /httponly/i);
  const me = await call(t0, 'GET', '/api/auth/me', undefined, body.access_token);
  t.is(me.status, 200);
  t.is(me.body['user_id'], user.id);
  t.is(me.body['org_id'], 'acme');
  const viaCookie = await t0.fetch('/api/auth/me', { headers: { cookie: cookie.split(';')[0]! } });
  t.is(viaCookie.status, 200);
});

test.serial('the OAuth2 password form signs in with username and password', async (t) => {
  const user = await passwordUser(t0);
  const res = await t0.fetch('/api/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: user.email, password: PASSWORD }).toString(),
  });
  t.is(res.status, 200);
  t.truthy(((await res.json()) as { access_token?: string }).access_token);
});

test.serial('a wrong password and an unknown email get the same 401', async (t) => {
  const user = await passwordUser(t0);
  const wrong = await signIn(t0, user.email, 'not the password at all');
  const unknown = await signIn(t0, 'nobody@example.com', 'not the password at all');
  t.is(wrong.status, 401);
  t.is(unknown.status, 401);
  t.deepEqual(wrong.body, unknown.body);
});

test.serial('a sign-in without email or password answers 422 with located issues', async (t) => {
  const res = await call(t0, 'POST', '/api/auth/token', { password: 'x' });
  t.is(res.status, 422);
  t.deepEqual((res.body.detail as { loc: string[] }[])[0]?.loc, ['body', 'email']);
  const res2 = await call(t0, 'POST', '/api/auth/token', { email: 'a@b.c' });
  t.is(res2.status, 422);
});

test.serial('an unverified account cannot sign in', async (t) => {
  const user = await passwordUser(t0);
  t0.app.services.store.sqlite!.prepare('UPDATE users SET email_verified_at = NULL WHERE id = ?').run(user.id);
  const res = await signIn(t0, user.email);
  t.is(res.status, 403);
  t.is(res.body.code, 'EMAIL_NOT_VERIFIED');
});

test.serial('a deactivated member with the right password is told whom to ask; a wrong password learns nothing; the throttle still applies', async (t) => {
  const orgId = t0.org();
  const admin = await passwordUser(t0, { orgId, role: 'admin', email: 'grace.admin@deactivated.test' });
  const member = await passwordUser(t0, { orgId });
  t.is((await call(t0, 'POST', `/api/admin/members/${member.id}/deactivate`, {}, t0.session(admin))).status, 200);
  const wrong = await signIn(t0, member.email, 'not the password at all');
  const unknown = await signIn(t0, 'nobody-deactivated@example.com', 'not the password at all');
  t.is(wrong.status, 401);
  t.deepEqual(wrong.body, unknown.body);
  const right = await signIn(t0, member.email);
  t.is(right.status, 403);
  t.is(right.body.code, 'ACCESS_REMOVED');
  t.deepEqual(right.body['data'], { org_name: `Org ${orgId}`, admins: ['grace.admin'] });
  t.regex(right.body.detail as string, new RegExp(`Org ${orgId}.*grace\\.admin`));
  t.is(right.body['access_token'], undefined);
  // Each refusal counts as a failed attempt, as before: past the free ones even the right password waits.
  let last = right;
  for (let i = 0; i < 5 && last.status !== 429; i++) last = await signIn(t0, member.email);
  t.is(last.status, 429);
});

test.serial('logout ends the session: the same JWT is refused afterwards', async (t) => {
  const user = await passwordUser(t0);
  const token = (await signIn(t0, user.email)).body['access_token'] as string;
  const out = await t0.fetch('/api/auth/logout', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
  t.is(out.status, 200);
  t.regex(out.headers.get('set-cookie') ?? '', /sextant_session=;/);
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, token)).status, 401);
});

test.serial('logout and me need a credential', async (t) => {
  t.is((await call(t0, 'POST', '/api/auth/logout', {})).status, 401);
  t.is((await call(t0, 'GET', '/api/auth/me')).status, 401);
});

test.serial('me accepts an API token in the API-KEY header', async (t) => {
  const user = t0.user();
  const res = await t0.fetch('/api/auth/me', { headers: { 'API-KEY': t0.token(user) } });
  t.is(res.status, 200);
  t.is(((await res.json()) as { credential: string }).credential, 'api_token');
});

test.serial('with MFA on, sign-in yields a pending token that only the MFA step turns into a session', async (t) => {
  const user = await passwordUser(t0);
  const { secret } = await enrollMfa(t0, t0.session(user));
  const first = await signIn(t0, user.email);
  t.is(first.status, 200);
  t.true(first.body['mfa_required'] as boolean);
  t.is(first.body['access_token'], undefined);
  const mfaToken = first.body['mfa_token'] as string;
  // The pending token is no session.
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, mfaToken)).status, 401);
  const bad = await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: '000000' });
  t.is(bad.status, 401);
  const ok = await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: totp(t0, secret) });
  t.is(ok.status, 200);
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, ok.body['access_token'] as string)).status, 200);
  // The same code again, even with the pending token still alive, is refused.
  const replay = await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: totp(t0, secret) });
  t.is(replay.status, 401);
});

test.serial('the pending MFA token expires', async (t) => {
  const user = await passwordUser(t0);
  const { secret } = await enrollMfa(t0, t0.session(user));
  const mfaToken = (await signIn(t0, user.email)).body['mfa_token'] as string;
  t0.clock.advance(6 * 60_000);
  const res = await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: totp(t0, secret) });
  t.is(res.status, 401);
  t.is(res.body.code, 'INVALID_MFA_TOKEN');
});

test.serial('the MFA step answers 422 for a missing code', async (t) => {
  const res = await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: 'x' });
  t.is(res.status, 422);
});

test.serial('a recovery code works once as the second step', async (t) => {
  const user = await passwordUser(t0);
  const { recoveryCodes } = await enrollMfa(t0, t0.session(user));
  const code = recoveryCodes[0]!;
  const mfaToken = (await signIn(t0, user.email)).body['mfa_token'] as string;
  t.is((await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: code.toUpperCase() })).status, 200);
  t.is((await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code })).status, 401);
});

test.serial('when the organization enforces MFA, a user without MFA gets an enrollment token accepted only by setup and confirm', async (t) => {
  const orgId = t0.org(undefined, { mfaEnforced: true });
  const user = await passwordUser(t0, { orgId });
  const first = await signIn(t0, user.email);
  t.true(first.body['mfa_enrollment_required'] as boolean);
  const enrollment = first.body['enrollment_token'] as string;
  const me = await call(t0, 'GET', '/api/auth/me', undefined, enrollment);
  t.is(me.status, 403);
  t.is(me.body.code, 'MFA_ENROLLMENT_REQUIRED');
  const setup = await call(t0, 'POST', '/api/auth/mfa/setup', {}, enrollment);
  t.is(setup.status, 200);
  const res = await t0.fetch('/api/auth/mfa/confirm', {
    method: 'POST',
    headers: { authorization: `Bearer ${enrollment}`, 'content-type': 'application/json' },
    body: JSON.stringify({ code: totp(t0, setup.body['secret'] as string) }),
  });
  t.is(res.status, 200);
  const body = (await res.json()) as { access_token: string; recovery_codes: string[] };
  t.is(body.recovery_codes.length, 10);
  t.regex(res.headers.get('set-cookie') ?? '', /sextant_session=ey/);
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, body.access_token)).status, 200);
});
