// Brute-force protection: failed attempts are limited per account and per client address (429 + Retry-After).
import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { enrollMfa, PASSWORD, passwordUser, startAuthApp } from '../helpers/auth.ts';

let t0: TestApp;
test.before(async () => {
  // Behind a trusted proxy, so tests can speak from several client addresses.
  t0 = await startAuthApp({ SEXTANT_TRUST_PROXY: 'true' });
});
test.after.always(() => t0.stop());

async function post(path: string, body: unknown, ip: string) {
  const res = await t0.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
}

test.serial('failed passwords from one address slow that address down, and the owner still signs in from theirs', async (t) => {
  // Issue 23: ten wrong passwords used to lock the account for everyone for 15 minutes.
  const user = await passwordUser(t0);
  for (let i = 0; i < 5; i++) t.is((await post('/api/auth/token', { email: user.email, password: `wrong-${i}-password` }, '10.0.0.1')).status, 401);
  t.is((await post('/api/auth/token', { email: user.email, password: 'wrong-5-password' }, '10.0.0.1')).status, 429);
  t.is((await post('/api/auth/token', { email: user.email, password: PASSWORD }, '10.0.1.1')).status, 200);
  t0.clock.advance(15 * 60_000 + 1000);
});

test.serial('failures from one address across many accounts lock that address only', async (t) => {
  for (let i = 0; i < 50; i++) {
    t.is((await post('/api/auth/magic_link/consume', { email: `nobody${i}@example.com`, code: '12345678' }, '10.9.9.9')).status, 400);
  }
  const limited = await post('/api/auth/magic_link/consume', { email: 'someone-else@example.com', code: '12345678' }, '10.9.9.9');
  t.is(limited.status, 429);
  t.truthy(limited.retryAfter);
  t.is((await post('/api/auth/magic_link/consume', { email: 'someone-else@example.com', code: '12345678' }, '10.9.9.10')).status, 400);
  t0.clock.advance(15 * 60_000 + 1000);
});

test.serial('wrong MFA codes are slowed down per account and address too', async (t) => {
  const user = await passwordUser(t0);
  await enrollMfa(t0, t0.session(user));
  const mfaToken = (await post('/api/auth/token', { email: user.email, password: PASSWORD }, '10.1.0.1')).body['mfa_token'];
  for (let i = 0; i < 5; i++) t.is((await post('/api/auth/token/mfa', { mfa_token: mfaToken, code: '000000' }, '10.2.0.1')).status, 401);
  const res = await post('/api/auth/token/mfa', { mfa_token: mfaToken, code: '000000' }, '10.2.0.1');
  t.is(res.status, 429);
  t.truthy(res.retryAfter);
  t.is((await post('/api/auth/token/mfa', { mfa_token: mfaToken, code: '000000' }, '10.3.0.1')).status, 401);
});
