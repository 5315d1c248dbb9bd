// With SEXTANT_REDIS_URL the rate-limit counters live in Redis: two services on one Redis (replicas)
// count the same failures, and the window still ends by the service's clock.
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const REDIS = 'redis://127.0.0.1:6379/0';

async function post(app: TestApp, path: string, body: unknown, ip: string) {
  const res = await app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
}

test('failures counted through one replica slow the same address down on the other, and the wait follows the service clock', async (t) => {
  // A prefix of its own: counters of earlier runs (same fake clock, same addresses) stay out of sight.
  const env = { SEXTANT_REDIS_URL: REDIS, SEXTANT_REDIS_PREFIX: `test-${randomUUID()}`, SEXTANT_TRUST_PROXY: 'true' };
  const [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
  t.teardown(() => Promise.all([a.stop(), b.stop()]));
  const email = 'nobody-here@example.com';
  // Five failures of one (account, address) pair are free, spread over both replicas.
  for (let i = 0; i < 5; i++) t.is((await post(i % 2 ? a : b, '/api/auth/token', { email, password: `wrong-${i}-password` }, '10.0.0.1')).status, 401);
  for (const app of [a, b]) {
    const slowed = await post(app, '/api/auth/token', { email, password: 'another-wrong-password' }, '10.0.0.1');
    t.is(slowed.status, 429);
    t.is(slowed.body['code'], 'RATE_LIMITED');
    t.true(Number(slowed.retryAfter) > 0 && Number(slowed.retryAfter) <= 900);
  }
  a.clock.advance(1000);
  t.is((await post(a, '/api/auth/token', { email, password: 'wrong-again-password' }, '10.0.0.1')).status, 401);
  t.is((await post(b, '/api/auth/token', { email, password: 'wrong-again-password' }, '10.0.0.1')).status, 429, 'the other replica sees the doubled wait that failure started');
});

test('the hourly mail limit of an address is shared by the replicas: one atomic count for parallel requests', async (t) => {
  const env = { SEXTANT_REDIS_URL: REDIS, SEXTANT_REDIS_PREFIX: `test-${randomUUID()}`, SEXTANT_TRUST_PROXY: 'true', SEXTANT_MAIL_PER_ADDRESS_PER_HOUR: '5' };
  const [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
  t.teardown(() => Promise.all([a.stop(), b.stop()]));
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i % 2 ? a : b, '/api/auth/magic_link/request', { email: 'victim@example.com' }, `10.5.0.${i + 1}`)));
  t.is(results.filter((r) => r.status === 202).length, 5);
  t.is(results.filter((r) => r.status === 429).length, 15);
});
