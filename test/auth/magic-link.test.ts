import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { call, enrollMfa, passwordUser, startAuthApp, totp } from '../helpers/auth.ts';
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

async function magicMail(email: string): Promise<{ token: string; code: string }> {
  const res = await call(t0, 'POST', '/api/auth/magic_link/request', { email });
  if (res.status !== 202) throw new Error(`request failed ${res.status}`);
  const mail = await smtp.next(email, /sign-in link/);
  return { token: /Magic link token: (\S+)/.exec(mail.text)![1]!, code: /enter this code: (\d{8})/.exec(mail.text)![1]! };
}

test('a magic link signs in once and sets the session cookie', async (t) => {
  const user = t0.user();
  const { token } = await magicMail(user.email);
  const res = await t0.fetch('/api/auth/magic_link/consume', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  t.is(res.status, 200);
  t.regex(res.headers.get('set-cookie') ?? '', /sextant_session=ey/);
  const again = await call(t0, 'POST', '/api/auth/magic_link/consume', { token });
  t.is(again.status, 400);
  t.is(again.body.code, 'INVALID_TOKEN');
});

test('the request answers the same for an unknown address and sends nothing', async (t) => {
  const user = t0.user();
  const known = await call(t0, 'POST', '/api/auth/magic_link/request', { email: user.email });
  const unknown = await call(t0, 'POST', '/api/auth/magic_link/request', { email: 'stranger@example.com' });
  t.deepEqual([known.status, known.body], [unknown.status, unknown.body]);
  await smtp.next(user.email);
  t.false(smtp.mails.some((m) => m.to.includes('stranger@example.com')));
  t.is((await call(t0, 'POST', '/api/auth/magic_link/request', { email: 'nope' })).status, 422);
});

test('the fallback code works with the email, and using it spends the link too', async (t) => {
  const user = t0.user();
  const { token, code } = await magicMail(user.email);
  t.is((await call(t0, 'POST', '/api/auth/magic_link/consume', { email: user.email, code: code === '00000000' ? '00000001' : '00000000' })).status, 400);
  t.is((await call(t0, 'POST', '/api/auth/magic_link/consume', { email: user.email, code })).status, 200);
  t.is((await call(t0, 'POST', '/api/auth/magic_link/consume', { token })).status, 400);
  t.is((await call(t0, 'POST', '/api/auth/magic_link/consume', { code })).status, 422);
});

test('twenty parallel consumptions of one link: exactly one succeeds', async (t) => {
  const user = t0.user();
  const { token } = await magicMail(user.email);
  const results = await Promise.all(Array.from({ length: 20 }, () => call(t0, 'POST', '/api/auth/magic_link/consume', { token })));
  t.is(results.filter((r) => r.status === 200).length, 1);
});

test('twenty parallel consumptions of one fallback code: exactly one succeeds', async (t) => {
  const user = t0.user();
  const { code } = await magicMail(user.email);
  const results = await Promise.all(Array.from({ length: 20 }, () => call(t0, 'POST', '/api/auth/magic_link/consume', { email: user.email, code })));
  t.is(results.filter((r) => r.status === 200).length, 1);
});

test.serial('a link expires after 15 minutes', async (t) => {
  const user = t0.user();
  const { token } = await magicMail(user.email);
  t0.clock.advance(16 * 60_000);
  t.is((await call(t0, 'POST', '/api/auth/magic_link/consume', { token })).status, 400);
});

test.serial('with MFA enabled the link leads to the MFA step, not a session', async (t) => {
  const user = await passwordUser(t0);
  const { secret } = await enrollMfa(t0, t0.session(user));
  const { token } = await magicMail(user.email);
  const res = await call(t0, 'POST', '/api/auth/magic_link/consume', { token });
  t.is(res.status, 200);
  t.true(res.body['mfa_required'] as boolean);
  t.is(res.body['access_token'], undefined);
  const done = await call(t0, 'POST', '/api/auth/token/mfa', { mfa_token: res.body['mfa_token'], code: totp(t0, secret) });
  t.is(done.status, 200);
});
