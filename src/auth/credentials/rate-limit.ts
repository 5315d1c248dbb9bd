// Brute-force protection: failed attempts counted per key in fixed windows ('account:<id>',
// 'ip:<address>'); once a key reaches its limit, attempts are refused with 429 until the window ends.
import type { Clock } from '../../clock.ts';
import { RateLimited } from '../../errors.ts';
import { statement, type Db } from '../../store/index.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

/** Failed sign-in, MFA and recovery attempts: per account, and (looser) per client address. */
export const ACCOUNT_LIMIT: Limit = { max: 10, windowMs: 15 * 60_000 };
export const ADDRESS_LIMIT: Limit = { max: 50, windowMs: 15 * 60_000 };

/** The keys and limits of one attempt. */
export type LimitKeys = [key: string, limit: Limit][];

/** Keys of an attempt on an account (or an email, when no account matched) from an address. */
export function attemptKeys(account: string, ip: string): LimitKeys {
  return [
    [`account:${account}`, ACCOUNT_LIMIT],
    [`ip:${ip}`, ADDRESS_LIMIT],
  ];
}

/** Throws RateLimited (with the seconds until the window ends) when any key is over its limit. */
export function assertNotLimited(db: Db, clock: Clock, keys: LimitKeys): void {
  const now = clock.now();
  for (const [key, limit] of keys) {
    const row = statement(db, 'SELECT window_start, failures FROM rate_limits WHERE key = ?').get(key) as { window_start: number; failures: number } | undefined;
    if (row && row.window_start + limit.windowMs > now && row.failures >= limit.max) {
      throw new RateLimited(Math.max(1, Math.ceil((row.window_start + limit.windowMs - now) / 1000)));
    }
  }
}

/** Counts one failed attempt against every key. */
export function recordFailure(db: Db, clock: Clock, keys: LimitKeys): void {
  const now = clock.now();
  const upsert = statement(
    db,
    `INSERT INTO rate_limits (key, window_start, failures) VALUES (?, ?, 1)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN window_start + ? <= ? THEN 1 ELSE failures + 1 END,
       window_start = CASE WHEN window_start + ? <= ? THEN ? ELSE window_start END`,
  );
  for (const [key, limit] of keys) upsert.run(key, now, limit.windowMs, now, limit.windowMs, now, now);
  // Keep the table small: drop counters whose window ended long ago (about one call in a hundred).
  if (Math.random() < 0.01) db.prepare('DELETE FROM rate_limits WHERE window_start < ?').run(now - 24 * 3600_000);
}

/** Forgets the account's failures after a success (the address keeps its count). */
export function clearAccountFailures(db: Db, account: string): void {
  db.prepare('DELETE FROM rate_limits WHERE key = ?').run(`account:${account}`);
}

/** Runs an attempt under the limits: refused when limited, counted when it fails (throws). */
export async function limited<T>(db: Db, clock: Clock, keys: LimitKeys, attempt: () => Promise<T>): Promise<T> {
  assertNotLimited(db, clock, keys);
  try {
    return await attempt();
  } catch (err) {
    recordFailure(db, clock, keys);
    throw err;
  }
}

/**
 * Counts one account mail (sign-in link, reset, verification, recovery) against the address it goes
 * to and the client asking, per hour; 429 once either is spent. Every address counts alike, known or
 * not, so the limiter reveals no more than the answer does.
 */
export function consumeMailQuota(
  db: Db,
  clock: Clock,
  { email, ip }: { email: string; ip: string },
  limits: { perAddressPerHour: number; perClientPerHour: number },
): void {
  const keys: LimitKeys = [
    [`mail:${email.trim().toLowerCase()}`, { max: limits.perAddressPerHour, windowMs: 3600_000 }],
    [`mail-ip:${ip}`, { max: limits.perClientPerHour, windowMs: 3600_000 }],
  ];
  assertNotLimited(db, clock, keys);
  recordFailure(db, clock, keys);
}

/** Counts one use against a quota (e.g. help questions per user per hour); 429 once it is spent. */
export function consumeQuota(db: Db, clock: Clock, key: string, limit: Limit): void {
  const keys: LimitKeys = [[key, limit]];
  assertNotLimited(db, clock, keys);
  recordFailure(db, clock, keys);
}
