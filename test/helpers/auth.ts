// Helpers for account tests: users with a real password, TOTP codes at the fake clock's time, JSON calls.
import { generateSync } from 'otplib';
import type { UserRow } from '../../src/auth/index.ts';
import { hashPassword } from '../../src/security/index.ts';
import { startTestApp, type TestApp } from './app.ts';
import { TEST_BCRYPT_COST } from './bcrypt-cost.ts';

export const PASSWORD = 'correct horse battery staple';
let passwordHash: Promise<string> | undefined;

/** A test app with cheap bcrypt (recovery codes), plus extra settings. */
export function startAuthApp(env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({ SEXTANT_BCRYPT_COST: '4', ...env });
}

/** A member with the shared test password, hashed once per process at the test apps' cost (bcrypt-cost.ts). */
export async function passwordUser(t: TestApp, opts: Parameters<TestApp['user']>[0] = {}): Promise<UserRow> {
  passwordHash ??= hashPassword(PASSWORD, TEST_BCRYPT_COST);
  return t.user({ ...opts, passwordHash: await passwordHash });
}

/** The TOTP code of a secret at the app's fake time. */
export function totp(t: TestApp, secret: string): string {
  return generateSync({ secret, epoch: Math.floor(t.clock.now() / 1000) });
}

export interface Json {
  status: number;
  body: Record<string, unknown> & { detail?: unknown; code?: string };
  headers: Headers;
}

/** A JSON request with an optional bearer token. */
export async function call(t: TestApp, method: string, path: string, body?: unknown, bearer?: string): Promise<Json> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (bearer) headers['authorization'] = `Bearer ${bearer}`;
  const res = await t.fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json['body']) : {}, headers: res.headers };
}

/** Password sign-in; returns the JSON answer. */
export function signIn(t: TestApp, email: string, password = PASSWORD): Promise<Json> {
  return call(t, 'POST', '/api/auth/token', { email, password });
}

/** Enrolls MFA for a signed-in user and returns the secret and recovery codes. */
export async function enrollMfa(t: TestApp, bearer: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await call(t, 'POST', '/api/auth/mfa/setup', {}, bearer);
  const secret = setup.body['secret'] as string;
  const confirm = await call(t, 'POST', '/api/auth/mfa/confirm', { code: totp(t, secret) }, bearer);
  if (confirm.status !== 200) throw new Error(`confirm failed: ${JSON.stringify(confirm.body)}`);
  // The next code must come from a later time step.
  t.clock.advance(30_000);
  return { secret, recoveryCodes: confirm.body['recovery_codes'] as string[] };
}
