// Brute-force protection: failed attempts counted per key in fixed windows. Password and second-factor
// guesses are counted per (account, client address) pair, which is slowed down progressively, plus a
// high per-account ceiling and a per-address limit. A stranger guessing at a known address therefore
// slows down only themselves: the owner, signing in from their own address, is not locked out.
import type { Clock } from '../clock.ts';
import { RateLimited } from '../errors.ts';
import { statement, type Db } from '../store/index.ts';

export interface Limit {
  max: number;
  windowMs: number;
  /**
   * Past `max` failures, wait `baseMs` after the last failure, doubling with each further failure up
   * to `maxMs`, instead of refusing until the window ends.
   */
  backoff?: { baseMs: number; maxMs: number };
}

/** Failed attempts from one client address on one account: five free, then 1 s, 2 s, 4 s ... up to 15 minutes. */
export const PAIR_LIMIT: Limit = { max: 5, windowMs: 24 * 3600_000, backoff: { baseMs: 1000, maxMs: 15 * 60_000 } };
/**
 * Failed attempts on one account from every address together. High, so that strangers cannot lock the
 * owner out with a handful of guesses; it bounds a distributed guessing attack (200 per 15 minutes).
 */
export const ACCOUNT_LIMIT: Limit = { max: 200, windowMs: 15 * 60_000 };
export const ADDRESS_LIMIT: Limit = { max: 50, windowMs: 15 * 60_000 };

/** The keys and limits of one attempt. */
export type LimitKeys = [key: string, limit: Limit][];

const pairKey = (account: string, ip: string) => `pair:${account}|${ip}`;

/** Keys of an attempt on an account (or an email, when no account matched) from an address. */
export function attemptKeys(account: string, ip: string): LimitKeys {
  return [
    [pairKey(account, ip), PAIR_LIMIT],
    [`account:${account}`, ACCOUNT_LIMIT],
    [`ip:${ip}`, ADDRESS_LIMIT],
  ];
}

interface CounterRow {
  window_start: number;
  failures: number;
  last_failure_at: number | null;
}

/** When a key may be tried again (ms), or undefined when it may be tried now. */
function retryAt(row: CounterRow | undefined, limit: Limit, now: number): number | undefined {
  if (!row || row.window_start + limit.windowMs <= now || row.failures < limit.max) return undefined;
  if (!limit.backoff) return row.window_start + limit.windowMs;
  const wait = Math.min(limit.backoff.baseMs * 2 ** (row.failures - limit.max), limit.backoff.maxMs);
  const at = (row.last_failure_at ?? row.window_start) + wait;
  return at > now ? at : undefined;
}

/** Throws RateLimited (with the seconds until the window ends) when any key is over its limit. */
export function assertNotLimited(db: Db, clock: Clock, keys: LimitKeys): void {
  const now = clock.now();
  for (const [key, limit] of keys) {
    const row = statement(db, 'SELECT window_start, failures, last_failure_at FROM rate_limits WHERE key = ?').get(key) as CounterRow | undefined;
    const at = retryAt(row, limit, now);
    if (at !== undefined) throw new RateLimited(Math.max(1, Math.ceil((at - now) / 1000)));
  }
}

/** Counts one failed attempt against every key. */
export function recordFailure(db: Db, clock: Clock, keys: LimitKeys): void {
  const now = clock.now();
  const upsert = statement(
    db,
    `INSERT INTO rate_limits (key, window_start, failures, last_failure_at) VALUES (@key, @now, 1, @now)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN window_start + @window <= @now THEN 1 ELSE failures + 1 END,
       window_start = CASE WHEN window_start + @window <= @now THEN @now ELSE window_start END,
       last_failure_at = @now`,
  );
  for (const [key, limit] of keys) upsert.run({ key, now, window: limit.windowMs });
  // Keep the table small: drop counters whose window ended long ago (about one call in a hundred).
  if (Math.random() < 0.01) db.prepare('DELETE FROM rate_limits WHERE window_start < ?').run(now - 24 * 3600_000);
}

/** Forgets the account's failures after a success from `ip` (the address keeps its count against other accounts). */
export function clearAccountFailures(db: Db, account: string, ip: string): void {
  db.prepare('DELETE FROM rate_limits WHERE key IN (?, ?)').run(`account:${account}`, pairKey(account, ip));
}

/** Forgets every failure counted against an account, from every address (an admin's unlock). */
export function clearAllAccountFailures(db: Db, account: string): number {
  const pairs = pairKey(account, '');
  return db
    .prepare('DELETE FROM rate_limits WHERE key = ? OR substr(key, 1, length(?)) = ?')
    .run(`account:${account}`, pairs, pairs).changes;
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
