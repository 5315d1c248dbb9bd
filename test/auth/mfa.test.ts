// The MFA enrollment state table of interface part 3, row by row, plus single use under concurrency.
import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { call, enrollMfa, PASSWORD, passwordUser, signIn, startAuthApp, totp } from '../helpers/auth.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp();
});
test.after.always(() => t0.stop());

test.serial('no MFA -> setup -> pending: an otpauth URI; a repeated setup replaces the pending secret', async (t) => {
  const user = await passwordUser(t0);
  const s = t0.session(user);
  const first = await call(t0, 'POST', '/api/auth/mfa/setup', undefined, s);
  t.is(first.status, 200);
  t.regex(first.body['provisioning_uri'] as string, /^otpauth:\/\/totp\/Sextant:/);
  t.is((await call(t0, 'GET', '/api/auth/mfa/status', undefined, s)).body['pending'], true);
  const second = await call(t0, 'POST', '/api/auth/mfa/setup', {}, s);
  t.not(second.body['secret'], first.body['secret']);
  // A code from the replaced secret no longer confirms.
  const stale = await call(t0, 'POST', '/api/auth/mfa/confirm', { code: totp(t0, first.body['secret'] as string) }, s);
  t.is(stale.status, 400);
  const sealed = t0.app.services.store.sqlite!.prepare('SELECT totp_pending_secret FROM users WHERE id = ?').pluck().get(user.id) as string;
  t.false(sealed.includes(second.body['secret'] as string), 'secret is encrypted at rest');
});

test.serial('enabled -> setup is rejected until MFA is disabled', async (t) => {
  const user = await passwordUser(t0);
  const s = t0.session(user);
  await enrollMfa(t0, s);
  const res = await call(t0, 'POST', '/api/auth/mfa/setup', {}, s);
  t.is(res.status, 409);
  t.is(res.body.code, 'MFA_ALREADY_ENABLED');
});

test.serial('pending -> confirm -> enabled: 10 recovery codes once, stored as bcrypt hashes, no new session with a session', async (t) => {
  const user = await passwordUser(t0);
  const s = t0.session(user);
  t.is((await call(t0, 'POST', '/api/auth/mfa/confirm', { code: '123456' }, s)).body.code, 'MFA_SETUP_NOT_STARTED');
  const setup = await call(t0, 'POST', '/api/auth/mfa/setup', {}, s);
  t.is((await call(t0, 'POST', '/api/auth/mfa/confirm', { code: '000000' }, s)).status, 400);
  const res = await t0.fetch('/api/auth/mfa/confirm', {
    method: 'POST',
    headers: { authorization: `Bearer ${s}`, 'content-type': 'application/json' },
    body: JSON.stringify({ code: totp(t0, setup.body['secret'] as string) }),
  });
  t.is(res.status, 200);
  const body = (await res.json()) as { recovery_codes: string[]; access_token?: string };
  t.is(body.recovery_codes.length, 10);
  t.is(new Set(body.recovery_codes).size, 10);
  t.is(body.access_token, undefined);
  t.is(res.headers.get('set-cookie'), null);
  const hashes = t0.app.services.store.sqlite!.prepare('SELECT code_hash FROM mfa_recovery_codes WHERE user_id = ?').pluck().all(user.id) as string[];
  t.is(hashes.length, 10);
  t.true(hashes.every((h) => h.startsWith('$2')));
  const status = await call(t0, 'GET', '/api/auth/mfa/status', undefined, s);
  t.like(status.body, { enabled: true, pending: false, recovery_codes_remaining: 10 });
  t.is((await call(t0, 'POST', '/api/auth/mfa/confirm', { code: '123456' }, s)).status, 409);
});

test.serial('enabled -> disable needs a code and the password when the user has one', async (t) => {
  const user = await passwordUser(t0);
  const s = t0.session(user);
  const { secret } = await enrollMfa(t0, s);
  const noPassword = await call(t0, 'POST', '/api/auth/mfa/disable', { code: totp(t0, secret) }, s);
  t.is(noPassword.status, 422);
  t.deepEqual((noPassword.body.detail as { loc: string[] }[])[0]?.loc, ['body', 'password']);
  t.is((await call(t0, 'POST', '/api/auth/mfa/disable', { code: totp(t0, secret), password: 'wrong password!' }, s)).body.code, 'INVALID_PASSWORD');
  t.is((await call(t0, 'POST', '/api/auth/mfa/disable', { code: '000000', password: PASSWORD }, s)).body.code, 'INVALID_MFA_CODE');
  t.is((await call(t0, 'POST', '/api/auth/mfa/disable', { password: PASSWORD }, s)).status, 422);
  const ok = await call(t0, 'POST', '/api/auth/mfa/disable', { code: totp(t0, secret), password: PASSWORD }, s);
  t.is(ok.status, 200);
  t.like((await call(t0, 'GET', '/api/auth/mfa/status', undefined, s)).body, { enabled: false, recovery_codes_remaining: 0 });
  t.is((await call(t0, 'POST', '/api/auth/mfa/disable', { code: '000000', password: PASSWORD }, s)).status, 409);
  t.is((await signIn(t0, user.email)).body['mfa_required'], undefined);
});

test.serial('an SSO-only user (no password) disables MFA with the code alone', async (t) => {
  const user = t0.user();
  t0.app.services.store.sqlite!.prepare("UPDATE users SET identity_kind = 'sso' WHERE id = ?").run(user.id);
  const s = t0.session(user);
  const { recoveryCodes } = await enrollMfa(t0, s);
  t.is((await call(t0, 'POST', '/api/auth/mfa/disable', { code: recoveryCodes[3] }, s)).status, 200);
});

test.serial('enabled -> regenerate: old recovery codes stop working, the new set works', async (t) => {
  const user = await passwordUser(t0);
  const s = t0.session(user);
  const { secret, recoveryCodes } = await enrollMfa(t0, s);
  const res = await call(t0, 'POST', '/api/auth/mfa/recovery_codes/regenerate', { code: totp(t0, secret), password: PASSWORD }, s);
  t.is(res.status, 200);
  const fresh = res.body['recovery_codes'] as string[];
  t.is(fresh.length, 10);
  const mfaToken = (await signIn(t0, user.email)).body['mfa_token'] as string;
  t.is((await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: recoveryCodes[0] })).status, 401);
  t.is((await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: fresh[0] })).status, 200);
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery_codes/regenerate', { code: 'bad', password: PASSWORD }, s)).status, 422);
});

test.serial('enabled -> admin reset: MFA wiped, token_version bumped, live sessions invalid, re-enrollment possible', async (t) => {
  const admin = t0.user({ role: 'admin' });
  const user = await passwordUser(t0);
  const userSession = t0.session(user);
  await enrollMfa(t0, userSession);
  const before = t0.app.services.store.sqlite!.prepare('SELECT token_version FROM users WHERE id = ?').pluck().get(user.id) as number;
  const res = await call(t0, 'POST', `/api/auth/admin/users/${user.id}/mfa/reset`, undefined, t0.session(admin));
  t.is(res.status, 200);
  t.is(t0.app.services.store.sqlite!.prepare('SELECT token_version FROM users WHERE id = ?').pluck().get(user.id), before + 1);
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, userSession)).status, 401);
  const again = await signIn(t0, user.email);
  t.truthy(again.body['access_token']);
  t.is((await call(t0, 'POST', '/api/auth/mfa/setup', {}, again.body['access_token'] as string)).status, 200);
});

test('admin reset: 404 outside the admin\'s organization, 403 for non-admins, 401 without credential', async (t) => {
  const admin = t0.user({ role: 'admin' });
  const other = t0.user({ orgId: t0.org() });
  const member = t0.user();
  t.is((await call(t0, 'POST', `/api/auth/admin/users/${other.id}/mfa/reset`, undefined, t0.session(admin))).status, 404);
  t.is((await call(t0, 'POST', '/api/auth/admin/users/no-such-user/mfa/reset', undefined, t0.session(admin))).status, 404);
  t.is((await call(t0, 'POST', `/api/auth/admin/users/${admin.id}/mfa/reset`, undefined, t0.session(member))).status, 403);
  t.is((await call(t0, 'POST', `/api/auth/admin/users/${member.id}/mfa/reset`)).status, 401);
});

test('MFA management endpoints need a credential and refuse malformed bodies', async (t) => {
  for (const [method, path] of [
    ['POST', '/api/auth/mfa/setup'],
    ['POST', '/api/auth/mfa/confirm'],
    ['POST', '/api/auth/mfa/disable'],
    ['POST', '/api/auth/mfa/recovery_codes/regenerate'],
    ['GET', '/api/auth/mfa/status'],
  ] as const) {
    t.is((await call(t0, method, path, method === 'POST' ? { code: '123456' } : undefined)).status, 401, path);
  }
  const s = t0.session(t0.user());
  t.is((await call(t0, 'POST', '/api/auth/mfa/confirm', {}, s)).status, 422);
});

test.serial('twenty parallel MFA steps with the same TOTP code: exactly one succeeds', async (t) => {
  const user = await passwordUser(t0);
  const { secret } = await enrollMfa(t0, t0.session(user));
  const mfa_token = (await signIn(t0, user.email)).body['mfa_token'] as string;
  const code = totp(t0, secret);
  const results = await Promise.all(Array.from({ length: 20 }, () => call(t0, 'POST', '/api/auth/token/mfa', { mfa_token, code })));
  t.is(results.filter((r) => r.status === 200).length, 1);
  t.true(results.every((r) => r.status === 200 || r.status === 401 || r.status === 429));
  // Let the failures of this burst age out of the per-address window.
  t0.clock.advance(16 * 60_000);
});

test.serial('twenty parallel MFA steps with the same recovery code: exactly one succeeds', async (t) => {
  const user = await passwordUser(t0);
  const { recoveryCodes } = await enrollMfa(t0, t0.session(user));
  const mfa_token = (await signIn(t0, user.email)).body['mfa_token'] as string;
  const results = await Promise.all(Array.from({ length: 20 }, () => call(t0, 'POST', '/api/auth/token/mfa', { mfa_token, code: recoveryCodes[5] })));
  t.is(results.filter((r) => r.status === 200).length, 1);
  t0.clock.advance(16 * 60_000);
  t.like((await call(t0, 'GET', '/api/auth/mfa/status', undefined, t0.session(user))).body, { recovery_codes_remaining: 9 });
});

test.serial('a TOTP code is accepted once per time step, and a later step is accepted again', async (t) => {
  const user = await passwordUser(t0);
  const { secret } = await enrollMfa(t0, t0.session(user));
  const step = async (code: string) => call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: (await signIn(t0, user.email)).body['mfa_token'], code });
  const code = totp(t0, secret);
  t.is((await step(code)).status, 200);
  t.is((await step(code)).status, 401);
  t0.clock.advance(30_000);
  t.is((await step(totp(t0, secret))).status, 200);
});

test('API and embedded tokens cannot change MFA, though they may read its status', async (t) => {
  const user = await passwordUser(t0);
  const apiToken = t0.token(user);
  const setup = await t0.fetch('/api/auth/mfa/setup', { method: 'POST', headers: { 'API-KEY': apiToken, 'content-type': 'application/json' }, body: '{}' });
  t.is(setup.status, 403);
  t.is(((await setup.json()) as { code: string }).code, 'SESSION_REQUIRED');
  const embedded = (await call(t0, 'POST', '/api/auth/embedded_user_login', {}, t0.session(user))).body['access_token'] as string;
  t.is((await call(t0, 'POST', '/api/auth/mfa/setup', {}, embedded)).status, 403);
  t.is((await call(t0, 'POST', '/api/auth/mfa/disable', { code: '123456', password: PASSWORD }, embedded)).status, 403);
  t.is((await t0.fetch('/api/auth/mfa/status', { headers: { 'API-KEY': apiToken } })).status, 200);
});
