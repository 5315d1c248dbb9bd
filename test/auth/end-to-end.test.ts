// The "Done when" journey of issue 3: register, verify from the mail, sign in, enroll MFA, sign out,
// sign in with MFA, lose the device, recover through self-service recovery.
import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { call, startAuthApp, totp } from '../helpers/auth.ts';
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

test('a person registers, verifies, enrolls MFA, signs in with it, loses the device and recovers', async (t) => {
  const email = 'journey@example.com';
  const password = 'a long and lovely passphrase';
  t.is((await call(t0, 'POST', '/api/auth/register', { email, password, name: 'Jo' })).status, 202);

  const verifyMail = await smtp.next(email, /Confirm/);
  const verifyUrl = new URL(/(http\S+\/verify\?token=\S+)/.exec(verifyMail.text)![1]!);
  t.is((await call(t0, 'POST', '/api/auth/verify', { token: verifyUrl.searchParams.get('token') })).status, 200);

  const first = await call(t0, 'POST', '/api/auth/token', { email, password });
  const session = first.body['access_token'] as string;
  t.truthy(session);

  const setup = await call(t0, 'POST', '/api/auth/mfa/setup', {}, session);
  const secret = new URL(setup.body['provisioning_uri'] as string).searchParams.get('secret')!;
  const confirm = await call(t0, 'POST', '/api/auth/mfa/confirm', { code: totp(t0, secret) }, session);
  t.is((confirm.body['recovery_codes'] as string[]).length, 10);

  t.is((await call(t0, 'POST', '/api/auth/logout', {}, session)).status, 200);
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, session)).status, 401);

  t0.clock.advance(30_000);
  const pending = await call(t0, 'POST', '/api/auth/token', { email, password });
  t.true(pending.body['mfa_required'] as boolean);
  const second = await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: pending.body['mfa_token'], code: totp(t0, secret) });
  t.is(second.status, 200);
  t.is((await call(t0, 'POST', '/api/auth/logout', {}, second.body['access_token'] as string)).status, 200);

  // The phone is gone (and so are the recovery codes): self-service recovery.
  const stuck = await call(t0, 'POST', '/api/auth/token', { email, password });
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/request', { mfa_token: stuck.body['mfa_token'], password })).status, 202);
  const recoveryMail = await smtp.next(email, /Recover access/);
  const recoveryToken = new URL(/(http\S+\/mfa-recovery\?token=\S+)/.exec(recoveryMail.text)![1]!).searchParams.get('token')!;
  t.is((await call(t0, 'GET', `/api/auth/mfa/recovery/info?token=${encodeURIComponent(recoveryToken)}`)).body['email'], email);
  t.is((await call(t0, 'POST', '/api/auth/mfa/recovery/consume', { token: recoveryToken })).status, 200);
  await smtp.next(email, /removed/);

  const back = await call(t0, 'POST', '/api/auth/token', { email, password });
  t.truthy(back.body['access_token']);
  t.like((await call(t0, 'GET', '/api/auth/mfa/status', undefined, back.body['access_token'] as string)).body, { enabled: false });
});
