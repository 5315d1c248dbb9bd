// Mail flooding, as an attacker would try it on every route that sends account mail: a mailbox gets
// at most N account mails an hour and a client may ask for at most M, answered 429 with Retry-After
// beyond; known and unknown addresses are limited exactly alike, so the limiter tells nothing either.
import test from 'ava';
import { listOutbox } from '../../src/mail/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { enrollMfa, PASSWORD, passwordUser, startAuthApp } from '../helpers/auth.ts';

let t0: TestApp;
test.before(async () => {
  // Behind a trusted proxy, so tests speak from many client addresses; the documented defaults.
  t0 = await startAuthApp({ SEXTANT_TRUST_PROXY: 'true' });
});
test.after.always(() => t0.stop());

let ipCounter = 0;
const freshIp = () => `10.${Math.floor(++ipCounter / 250) % 250}.${ipCounter % 250}.7`;

async function post(path: string, body: unknown, ip = freshIp()) {
  const res = await t0.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
}

/** The mail-sending routes that take an address, each as the body it sends for one address. */
const ROUTES: [string, string, (email: string) => unknown][] = [
  ['sign-in link', '/api/auth/magic_link/request', (email) => ({ email })],
  ['password reset', '/api/auth/reset_password', (email) => ({ email })],
  ['verification', '/api/auth/resend_verification_mail', (email) => ({ email })],
  ['registration', '/api/auth/register', (email) => ({ email, password: 'a long enough passphrase 1' })],
];

const mailsTo = async (email: string) => (await listOutbox(t0.app.services.executor, 10_000)).filter((m) => m.to === email).length;

for (const [name, path, body] of ROUTES) {
  test.serial(`${name}: a sixth request for one address within the hour answers 429, for a known and an unknown address alike`, async (t) => {
    const known = t0.user();
    t0.app.services.store.sqlite!.prepare('UPDATE users SET email_verified_at = NULL WHERE id = ?').run(known.id);
    const unknown = known.email.replace('@', 'zz@');
    const answers: Record<string, { status: number; retryAfter: string | null; body: Record<string, unknown> }[]> = { known: [], unknown: [] };
    for (const [side, email] of [['known', known.email], ['unknown', unknown]] as const) {
      for (let i = 0; i < 6; i++) answers[side]!.push(await post(path, body(email)));
    }
    t.deepEqual(answers['known']!.map((a) => a.status), [...Array(5).fill(name === 'password reset' ? 200 : 202), 429]);
    t.deepEqual(answers['known'], answers['unknown'], 'the answers, Retry-After included, do not tell the addresses apart');
    const refused = answers['known']![5]!;
    t.is(refused.body['code'], 'RATE_LIMITED');
    t.true(Number(refused.retryAfter) > 0 && Number(refused.retryAfter) <= 3600);
    await t0.app.services.accountMail.idle();
    t.true((await mailsTo(known.email)) <= 5);
    // The next hour the address may be mailed again.
    t0.clock.advance(3600_000);
    t.not((await post(path, body(known.email))).status, 429);
    await t0.app.services.accountMail.idle();
  });
}

test.serial('the hourly budget of an address is shared by every kind of account mail', async (t) => {
  const user = t0.user();
  const statuses = [];
  for (const [, path, body] of [...ROUTES, ...ROUTES]) statuses.push((await post(path, body(user.email))).status);
  t.deepEqual(statuses.slice(5), [429, 429, 429]);
  t0.clock.advance(3600_000);
});

test.serial('one client address may ask for 30 account mails an hour, to any addresses; then 429 until the hour ends', async (t) => {
  const ip = '10.251.0.1';
  for (let i = 0; i < 30; i++) {
    const [, path, body] = ROUTES[i % ROUTES.length]!;
    t.not((await post(path, body(`victim${i}@flood.example`), ip)).status, 429, `request ${i + 1}`);
  }
  const [, path, body] = ROUTES[0]!;
  const refused = await post(path, body('victim-last@flood.example'), ip);
  t.is(refused.status, 429);
  t.truthy(refused.retryAfter);
  // Another client is not affected; the same client is served again after the hour.
  t.is((await post(path, body('victim-last@flood.example'), '10.251.0.2')).status, 202);
  t0.clock.advance(3600_000);
  t.is((await post(path, body('victim-next@flood.example'), ip)).status, 202);
  await t0.app.services.accountMail.idle();
});

test.serial('MFA recovery mail (to the user and every admin) is flood-limited like the rest', async (t) => {
  const user = await passwordUser(t0);
  t0.user({ role: 'admin' });
  await enrollMfa(t0, t0.session(user));
  const pending = (await post('/api/auth/token', { email: user.email, password: PASSWORD })).body['mfa_token'];
  const statuses = [];
  for (let i = 0; i < 6; i++) statuses.push((await post('/api/auth/mfa/recovery/request', { mfa_token: pending, password: PASSWORD })).status);
  t.deepEqual(statuses, [202, 202, 202, 202, 202, 429]);
  t.is((await listOutbox(t0.app.services.executor, 10_000)).filter((m) => m.to === user.email && /Recover access/.test(m.subject)).length, 5);
  t0.clock.advance(3600_000);
});

test('a request answers without waiting for a mail server that hangs, and its mail waits in the outbox', async (t) => {
  const stuck = await startTestApp({}, { mailer: { send: () => new Promise<void>(() => {}) } });
  try {
    const user = stuck.user();
    const res = await stuck.fetch('/api/auth/magic_link/request', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email }) });
    t.is(res.status, 202);
    await stuck.app.services.accountMail.idle();
    const queued = (await listOutbox(stuck.app.services.executor)).filter((m) => m.to === user.email);
    t.is(queued.length, 1);
    t.is(queued[0]?.sent_at, null);
  } finally {
    await stuck.stop();
  }
});
