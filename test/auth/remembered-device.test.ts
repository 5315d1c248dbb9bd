// Issue 33 §5: a stranger spraying wrong passwords from many addresses fills the per-account ceiling,
// yet the owner keeps signing in on every device that signed in before (a signed device cookie bound
// to them), from any address; a new device, or a forged or borrowed cookie, stays limited.
import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { enrollMfa, PASSWORD, startAuthApp, totp } from '../helpers/auth.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { hashPassword } from '../../src/security/index.ts';
import type { UserRow } from '../../src/auth/index.ts';

let t0: TestApp;
let smtp: TestSmtp;
let cheapHash: Promise<string>;
test.before(async () => {
  smtp = await startTestSmtp();
  // Behind a trusted proxy, so the attacker can speak from many client addresses.
  t0 = await startAuthApp({ SEXTANT_TRUST_PROXY: 'true', SEXTANT_SMTP_URL: smtp.url });
  cheapHash = hashPassword(PASSWORD, 4);
});
test.after.always(async () => {
  await t0.stop();
  await smtp.stop();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
  /** The remembered-device cookie the answer set, if any (value and attributes). */
  device?: { value: string; attributes: string };
}

async function post(path: string, body: unknown, ip: string, device?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': ip };
  if (device !== undefined) headers['cookie'] = `sextant_device=${device}`;
  const res = await t0.fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  const line = res.headers.getSetCookie().find((c) => c.startsWith('sextant_device='));
  const answer: Answer = { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
  if (line) answer.device = { value: line.slice('sextant_device='.length).split(';')[0]!, attributes: line };
  return answer;
}

const signIn = (email: string, ip: string, device?: string, password = PASSWORD) => post('/api/auth/token', { email, password }, ip, device);

/** A member whose password is cheap to check, so that a few hundred guesses stay quick. */
async function member(): Promise<UserRow> {
  return t0.user({ orgId: t0.org(), passwordHash: await cheapHash });
}

/** Signs in from `ip` (no cookie) and returns the device cookie the answer set. */
async function rememberedDevice(t: { is(a: unknown, b: unknown): void }, email: string, ip: string, device?: string): Promise<string> {
  const res = await signIn(email, ip, device);
  t.is(res.status, 200);
  if (!res.device) throw new Error('no device cookie was set');
  return res.device.value;
}

/** 205 wrong passwords on the account, each from an address of its own (`net` keeps tests apart); their statuses. */
async function spray(email: string, net: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 205; i++) statuses.push((await signIn(email, `10.${net}.${Math.floor(i / 200)}.${(i % 200) + 1}`, undefined, `wrong-${i}-password`)).status);
  return statuses;
}

test.serial('after 205 wrong passwords from 205 addresses the owner still signs in on a device that signed in before, from its usual address and a new one', async (t) => {
  const owner = await member();
  const first = await signIn(owner.email, '198.51.100.1');
  t.is(first.status, 200);
  t.regex(first.device?.attributes ?? '', /httponly/i);
  t.regex(first.device?.attributes ?? '', /path=\/api\/auth/i);
  const device = first.device!.value;
  const statuses = await spray(owner.email, 40);
  // The ceiling still stops the spray: 200 guesses, then 429.
  t.deepEqual(statuses.slice(0, 200), Array<number>(200).fill(401));
  t.deepEqual(statuses.slice(200), Array<number>(5).fill(429));
  const usual = await signIn(owner.email, '198.51.100.1', device);
  t.is(usual.status, 200);
  t.truthy(usual.device);
  t.is((await signIn(owner.email, '192.0.2.77', usual.device!.value)).status, 200);
  // A device that never signed in is refused, even with the right password, before and after the owner's successes.
  const fresh = await signIn(owner.email, '192.0.2.78');
  t.is(fresh.status, 429);
  t.true(Number(fresh.retryAfter) >= 1);
  t.is(fresh.device, undefined);
  t.is((await signIn(owner.email, '198.51.100.1')).status, 429);
});

test.serial("a forged, tampered or another user's device cookie gives no exemption; a browser shared by two keeps both", async (t) => {
  const owner = await member();
  const other = await member();
  const ownerDevice = await rememberedDevice(t, owner.email, '198.51.100.2');
  // The other user signs in on the owner's browser: the cookie now remembers both.
  const shared = await rememberedDevice(t, other.email, '198.51.100.2', ownerDevice);
  const otherOnly = await rememberedDevice(t, other.email, '198.51.100.3');
  await spray(owner.email, 41);
  const [body, signature] = ownerDevice.split('.') as [string, string];
  const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { u: string; d: string; e: number };
  const resigned = `${Buffer.from(JSON.stringify({ ...payload, d: 'attacker-device' })).toString('base64url')}.${signature}`;
  const otherBody = otherOnly.split('.')[0]!;
  const claimed = `${Buffer.from(JSON.stringify({ ...(JSON.parse(Buffer.from(otherBody, 'base64url').toString()) as object), u: owner.id })).toString('base64url')}.${otherOnly.split('.')[1]!}`;
  for (const cookie of ['garbage', `${body}.AAAA`, resigned, claimed, otherOnly, `${otherOnly}~${body}`, 'x'.repeat(5000)]) {
    t.is((await signIn(owner.email, '198.51.100.9', cookie)).status, 429, cookie.slice(0, 40));
  }
  t.is((await signIn(owner.email, '198.51.100.9', shared)).status, 200);
  t.is((await signIn(other.email, '198.51.100.9', shared)).status, 200);
});

test.serial("a remembered device is slowed down on its own after five wrong passwords; the owner's other device is not", async (t) => {
  const owner = await member();
  const laptop = await rememberedDevice(t, owner.email, '198.51.100.4');
  const phone = await rememberedDevice(t, owner.email, '198.51.100.5');
  t.not(laptop.split('.')[0], phone.split('.')[0]);
  for (let i = 0; i < 5; i++) t.is((await signIn(owner.email, `198.51.101.${i}`, laptop, `wrong-${i}-password`)).status, 401);
  const limited = await signIn(owner.email, '198.51.101.9', laptop);
  t.is(limited.status, 429);
  t.true(Number(limited.retryAfter) >= 1);
  t.is((await signIn(owner.email, '198.51.100.5', phone)).status, 200);
  t0.clock.advance(Number(limited.retryAfter) * 1000);
  t.is((await signIn(owner.email, '198.51.101.9', laptop)).status, 200);
});

test.serial('the MFA step and the sign-in code honour the remembered device too; without it they stay limited', async (t) => {
  const owner = await member();
  const { secret } = await enrollMfa(t0, t0.session(owner));
  const step = await signIn(owner.email, '198.51.100.6');
  const signedIn = await post('/api/auth/token/mfa', { mfa_token: step.body['mfa_token'], code: totp(t0, secret) }, '198.51.100.6');
  t.is(signedIn.status, 200);
  const device = signedIn.device!.value;
  t0.clock.advance(30_000);
  await spray(owner.email, 42);
  t.is((await signIn(owner.email, '198.51.100.6')).status, 429);
  const pending = await signIn(owner.email, '198.51.100.6', device);
  t.is(pending.status, 200);
  t.is(pending.body['mfa_required'], true);
  t.is((await post('/api/auth/token/mfa', { mfa_token: pending.body['mfa_token'], code: totp(t0, secret) }, '198.51.100.6')).status, 429);
  t.is((await post('/api/auth/token/mfa', { mfa_token: pending.body['mfa_token'], code: totp(t0, secret) }, '198.51.100.6', device)).status, 200);
  t.is((await post('/api/auth/magic_link/request', { email: owner.email }, '198.51.100.6')).status, 202);
  const code = /enter this code: (\d{8})/.exec((await smtp.next(owner.email, /sign-in link/)).text)![1]!;
  t.is((await post('/api/auth/magic_link/consume', { email: owner.email, code }, '198.51.100.6')).status, 429);
  const viaCode = await post('/api/auth/magic_link/consume', { email: owner.email, code }, '198.51.100.6', device);
  t.is(viaCode.status, 200);
  t.is(viaCode.body['mfa_required'], true);
});
