import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { call, PASSWORD, passwordUser, signIn, startAuthApp } from '../helpers/auth.ts';
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

const tokenIn = (text: string, label: string) => new RegExp(`${label}: (\\S+)`).exec(text)?.[1] ?? '';

test('registering mails a verification link; following it lets the user sign in', async (t) => {
  const reg = await call(t0, 'POST', '/api/auth/register', { email: 'New.Person@Example.org', password: PASSWORD, name: 'New' });
  t.is(reg.status, 202);
  t.is((await signIn(t0, 'new.person@example.org')).body.code, 'EMAIL_NOT_VERIFIED');
  const mail = await smtp.next('new.person@example.org', /Confirm/);
  const link = /(http\S+\/verify\?token=\S+)/.exec(mail.text)?.[1];
  t.truthy(link);
  const token = new URL(link!).searchParams.get('token')!;
  t.is((await call(t0, 'POST', '/api/auth/verify', { token })).status, 200);
  t.is((await call(t0, 'POST', '/api/auth/verify', { token })).status, 400);
  const signedIn = await signIn(t0, 'new.person@example.org');
  t.is(signedIn.status, 200);
  const me = await call(t0, 'GET', '/api/auth/me', undefined, signedIn.body['access_token'] as string);
  t.is(me.body['role'], 'admin');
});

test('registering a known address answers the same and mails the owner instead', async (t) => {
  const user = await passwordUser(t0);
  const res = await call(t0, 'POST', '/api/auth/register', { email: user.email, password: 'another fine passphrase' });
  const fresh = await call(t0, 'POST', '/api/auth/register', { email: 'fresh@example.net', password: 'another fine passphrase' });
  t.is(res.status, fresh.status);
  t.deepEqual(res.body, fresh.body);
  const mail = await smtp.next(user.email);
  t.regex(mail.text, /already has one/);
  await smtp.next('fresh@example.net');
});

test('a weak password is refused with a 422 on the password field', async (t) => {
  for (const password of ['short', 'aaaaaaaaaaaaaaa', 'password123']) {
    const res = await call(t0, 'POST', '/api/auth/register', { email: 'weak@example.com', password });
    t.is(res.status, 422);
    t.deepEqual((res.body.detail as { loc: string[] }[])[0]?.loc, ['body', 'password']);
  }
  t.is((await call(t0, 'POST', '/api/auth/register', { email: 'not-an-email', password: PASSWORD })).status, 422);
});

test('the password policy is public and is the rule registration applies', async (t) => {
  const policy = await call(t0, 'GET', '/api/auth/password_policy');
  t.is(policy.status, 200);
  const min = policy.body['min_length'] as number;
  t.true(Number.isInteger(min) && min > 0);
  // One character short is refused on the field; the shortest allowed length is taken.
  const short = await call(t0, 'POST', '/api/auth/register', { email: 'policy@example.com', password: 'x7#Kq2!mZ9pL4vR'.slice(0, min - 1) });
  t.is(short.status, 422);
  t.is((await call(t0, 'POST', '/api/auth/register', { email: 'policy@example.com', password: 'x7#Kq2!mZ9pL4vR'.slice(0, min) })).status, 202);
});

test('registration with a domain owned by an organization joins it as a user', async (t) => {
  const orgId = t0.org();
  t0.app.services.store.sqlite!.prepare('INSERT INTO org_email_domains (domain, org_id) VALUES (?, ?)').run('corp.test', orgId);
  await call(t0, 'POST', '/api/auth/register', { email: 'joiner@corp.test', password: PASSWORD });
  const mail = await smtp.next('joiner@corp.test');
  await call(t0, 'POST', '/api/auth/verify', { token: tokenIn(mail.text, 'Verification token') });
  const token = (await signIn(t0, 'joiner@corp.test')).body['access_token'] as string;
  const me = await call(t0, 'GET', '/api/auth/me', undefined, token);
  t.is(me.body['org_id'], orgId);
  t.is(me.body['role'], 'user');
});

test('resending verification answers the same for known, verified and unknown addresses and mails only the unverified', async (t) => {
  await call(t0, 'POST', '/api/auth/register', { email: 'resend@example.com', password: PASSWORD });
  const first = await smtp.next('resend@example.com');
  const verified = await passwordUser(t0);
  const answers = await Promise.all(
    ['resend@example.com', verified.email, 'ghost@example.com'].map((email) => call(t0, 'POST', '/api/auth/resend_verification_mail', { email })),
  );
  for (const a of answers) t.deepEqual([a.status, a.body], [answers[0]!.status, answers[0]!.body]);
  const second = await smtp.next('resend@example.com');
  // The older link no longer works; the new one does.
  t.is((await call(t0, 'POST', '/api/auth/verify', { token: tokenIn(first.text, 'Verification token') })).status, 400);
  t.is((await call(t0, 'POST', '/api/auth/verify', { token: tokenIn(second.text, 'Verification token') })).status, 200);
  t.false(smtp.mails.some((m) => m.to.includes(verified.email) || m.to.includes('ghost@example.com')));
  t.is((await call(t0, 'POST', '/api/auth/resend_verification_mail', {})).status, 422);
});

test.serial('a password reset mails a single-use token that changes the password and ends live sessions', async (t) => {
  const user = await passwordUser(t0);
  const oldSession = t0.session(user);
  const known = await call(t0, 'POST', '/api/auth/reset_password', { email: user.email });
  const unknown = await call(t0, 'POST', '/api/auth/reset_password', { email: 'nobody-here@example.com' });
  t.deepEqual([known.status, known.body], [unknown.status, unknown.body]);
  const token = tokenIn((await smtp.next(user.email, /Reset/)).text, 'Reset token');
  const weak = await call(t0, 'POST', '/api/auth/reset_password', { token, new_password: 'short' });
  t.is(weak.status, 422);
  t.deepEqual((weak.body.detail as { loc: string[] }[])[0]?.loc, ['body', 'new_password']);
  const results = await Promise.all(Array.from({ length: 20 }, () => call(t0, 'POST', '/api/auth/reset_password', { token, new_password: 'a brand new passphrase' })));
  t.is(results.filter((r) => r.status === 200).length, 1);
  t.true(results.every((r) => r.status === 200 || r.status === 400));
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, oldSession)).status, 401);
  t.is((await signIn(t0, user.email)).status, 401);
  t.is((await signIn(t0, user.email, 'a brand new passphrase')).status, 200);
});

test.serial('a reset token expires after an hour', async (t) => {
  const user = await passwordUser(t0);
  await call(t0, 'POST', '/api/auth/reset_password', { email: user.email });
  const token = tokenIn((await smtp.next(user.email, /Reset/)).text, 'Reset token');
  t0.clock.advance(61 * 60_000);
  t.is((await call(t0, 'POST', '/api/auth/reset_password', { token, new_password: 'a brand new passphrase' })).status, 400);
});

test('verify and reset answer 422 for malformed bodies', async (t) => {
  t.is((await call(t0, 'POST', '/api/auth/verify', {})).status, 422);
  t.is((await call(t0, 'POST', '/api/auth/reset_password', { token: 'x' })).status, 422);
  t.is((await call(t0, 'POST', '/api/auth/verify', { token: 'nonsense' })).body.code, 'INVALID_TOKEN');
});
