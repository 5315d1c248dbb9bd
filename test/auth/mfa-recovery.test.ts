import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { call, enrollMfa, PASSWORD, passwordUser, signIn, startAuthApp } from '../helpers/auth.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';

let t0: TestApp;
let smtp: TestSmtp;
test.before(async () => {
  smtp = await startTestSmtp();
  t0 = await startAuthApp({ SEXTANT_SMTP_URL: smtp.url });
});
test.after.always(async () => {
  await t0.stop();
  await smtp.stop();
});

const db = () => t0.app.services.store.sqlite!;

async function pendingToken(email: string): Promise<string> {
  const res = await signIn(t0, email);
  return res.body['mfa_token'] as string;
}

test.serial('a password user re-enters the password, gets a mailed token, and consuming it wipes MFA, ends sessions and notifies', async (t) => {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  const user = await passwordUser(t0, { orgId });
  const session = t0.session(user);
  await enrollMfa(t0, session);
  const mfaToken = await pendingToken(user.email);
  const res = await t0.fetch('/api/auth/mfa/recovery/request', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'RecoveryTest/1.0' },
    body: JSON.stringify({ mfa_token: mfaToken, password: PASSWORD }),
  });
  t.is(res.status, 202);
  const mail = await smtp.next(user.email, /Recover access/);
  await smtp.next(admin.email, /requested/);
  const token = /Recovery token: (\S+)/.exec(mail.text)![1]!;
  const info = await call(t0, 'GET', `/api/auth/mfa/recovery/info?token=${encodeURIComponent(token)}`);
  t.is(info.status, 200);
  t.like(info.body, { email: user.email, user_agent: 'RecoveryTest/1.0' });
  t.is(typeof info.body['ip'], 'string');
  t.is(typeof info.body['requested_at'], 'number');
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/consume', { token })).status, 200);
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/consume', { token })).status, 400);
  t.is((await call(t0, 'GET', `/api/auth/mfa/recovery/info?token=${encodeURIComponent(token)}`)).status, 400);
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, session)).status, 401);
  await smtp.next(user.email, /removed/);
  await smtp.next(admin.email, /completed/);
  t.truthy((await signIn(t0, user.email)).body['access_token']);
  const actions = (db().prepare('SELECT action FROM audit_log WHERE user_id = ?').pluck().all(user.id) as string[]);
  t.true(actions.includes('mfa_recovery_requested'));
  t.true(actions.includes('mfa_recovery_completed'));
});

test.serial('a password user without the right password is refused', async (t) => {
  const user = await passwordUser(t0);
  await enrollMfa(t0, t0.session(user));
  const mfaToken = await pendingToken(user.email);
  const missing = await call(t0, 'POST', '/api/auth/mfa/recovery/request', { mfa_token: mfaToken });
  t.is(missing.status, 422);
  t.deepEqual((missing.body.detail as { loc: string[] }[])[0]?.loc, ['body', 'password']);
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/request', { mfa_token: mfaToken, password: 'wrong password!!' })).status, 400);
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/request', { mfa_token: 'not-a-token', password: PASSWORD })).status, 401);
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/request', {})).status, 422);
});

test.serial('a magic-link user relies on the pending token from the magic link', async (t) => {
  const user = t0.user();
  db().prepare("UPDATE users SET identity_kind = 'magic_link' WHERE id = ?").run(user.id);
  await enrollMfa(t0, t0.session(user));
  await call(t0, 'POST', '/api/auth/magic_link/request', { email: user.email });
  const link = /Magic link token: (\S+)/.exec((await smtp.next(user.email, /sign-in link/)).text)![1]!;
  const pending = await call(t0, 'POST', '/api/auth/magic_link/consume', { token: link });
  const res = await call(t0, 'POST', '/api/auth/mfa/recovery/request', { mfa_token: pending.body['mfa_token'] });
  t.is(res.status, 202);
  await smtp.next(user.email, /Recover access/);
});

test.serial('SSO and unclassified passwordless identities are ineligible', async (t) => {
  for (const kind of ['sso', null]) {
    const user = t0.user();
    db().prepare('UPDATE users SET identity_kind = ? WHERE id = ?').run(kind, user.id);
    await enrollMfa(t0, t0.session(user));
    // A pending token as SSO sign-in would mint it.
    const { signJwt } = await import('../../src/auth/credentials/jwt.ts');
    const mfaToken = signJwt(t0.config.secrets.jwtKey, t0.clock, 'mfa_pending', { sub: user.id, org: 'acme', tv: 0, amr: 'sso' }, 300);
    const res = await call(t0, 'POST', '/api/auth/mfa/recovery/request', { mfa_token: mfaToken });
    t.is(res.status, 403);
    t.is(res.body.code, 'MFA_RECOVERY_INELIGIBLE');
  }
});

test.serial('a recovery token expires after an hour', async (t) => {
  const user = await passwordUser(t0);
  await enrollMfa(t0, t0.session(user));
  await call(t0, 'POST', '/api/auth/mfa/recovery/request', { mfa_token: await pendingToken(user.email), password: PASSWORD });
  const token = /Recovery token: (\S+)/.exec((await smtp.next(user.email, /Recover access/)).text)![1]!;
  t0.clock.advance(61 * 60_000);
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/consume', { token })).status, 400);
  t.is((await call(t0, 'GET', '/api/auth/mfa/recovery/info')).status, 422);
});
