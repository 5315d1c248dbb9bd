// Remembered devices (OWASP's "device cookie"): each successful sign-in gives the browser a token,
// signed with the service secret and bound to the user, naming a random device id. A sign-in attempt
// that presents a valid one for the account it is on is throttled per device instead of under the
// per-account ceiling, which strangers fill from many addresses: the owner is never locked out on a
// device that signed in before, and a spray from new devices stays limited. The cookie holds the
// tokens of the last few users of the browser, so a shared computer keeps each one's device.
import { createHmac } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import { constantTimeEqual, newId } from '../../security/index.ts';

/** How long a device stays remembered after its last successful sign-in. */
export const DEVICE_TTL_MS = 365 * 24 * 3600_000;
/** Users remembered per browser (most recent first). */
const MAX_USERS = 5;
/** Longer cookie values are not read at all (five tokens fit well below it). */
const MAX_COOKIE_LENGTH = 2048;

export interface DeviceDeps {
  jwtKey: string;
  clock: Clock;
}

interface Payload {
  /** User id the token is bound to. */
  u: string;
  /** Device id, random, stable across the device's sign-ins. */
  d: string;
  /** Expiry, ms. */
  e: number;
}

function mac(key: string, payload: string): string {
  // A derived key keeps these MACs apart from JWTs and CSRF tokens signed with the same secret.
  const derived = createHmac('sha256', key).update('sextant-device-v1').digest();
  return createHmac('sha256', derived).update(payload).digest('base64url');
}

function sign(key: string, payload: Payload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(key, body)}`;
}

/** The payload of one token if its signature holds and it has not expired. */
function verify(deps: DeviceDeps, token: string): Payload | undefined {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined || !constantTimeEqual(signature, mac(deps.jwtKey, body))) return undefined;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<Payload>;
    if (typeof p.u !== 'string' || typeof p.d !== 'string' || typeof p.e !== 'number' || p.e <= deps.clock.now()) return undefined;
    return { u: p.u, d: p.d, e: p.e };
  } catch {
    return undefined;
  }
}

/** The valid tokens of a cookie value, in its order. */
function tokensOf(deps: DeviceDeps, cookie: string | undefined): Payload[] {
  if (!cookie || cookie.length > MAX_COOKIE_LENGTH) return [];
  return cookie
    .split('~')
    .slice(0, MAX_USERS)
    .map((token) => verify(deps, token))
    .filter((p): p is Payload => p !== undefined);
}

/** The device id the cookie remembers for this account, or undefined (none, forged, expired, another user's). */
export function rememberedDevice(deps: DeviceDeps, account: string, cookie: string | undefined): string | undefined {
  return tokensOf(deps, cookie).find((p) => p.u === account)?.d;
}

/**
 * The cookie value after a successful sign-in of `userId`: their token renewed (same device id, or a
 * new one) in front, the other users' valid tokens after it.
 */
export function rememberDevice(deps: DeviceDeps, userId: string, cookie: string | undefined): { value: string; maxAgeMs: number } {
  const held = tokensOf(deps, cookie);
  const device = held.find((p) => p.u === userId)?.d ?? newId(16);
  const fresh: Payload = { u: userId, d: device, e: deps.clock.now() + DEVICE_TTL_MS };
  const others = held.filter((p) => p.u !== userId).slice(0, MAX_USERS - 1);
  return { value: [fresh, ...others].map((p) => sign(deps.jwtKey, p)).join('~'), maxAgeMs: DEVICE_TTL_MS };
}
