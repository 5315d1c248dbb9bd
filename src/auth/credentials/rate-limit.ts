// Brute-force and flood protection on rate-limiter-flexible: failed attempts counted per key in fixed
// windows ('account:<id>', 'ip:<address>'); once a key reaches its limit, attempts are refused with
// 429 until the window ends. Counters live in this process's memory, or in Redis when the service has
// one (shared by replicas, see shareRateLimits). Windows are numbered from the service's clock and the
// number is part of the key, so the clock (a fake one in tests) decides when a window ends; the store
// only forgets a counter some time after its window is over.
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Clock } from '../../clock.ts';
import { RateLimited } from '../../errors.ts';
import type { Db } from '../../store/index.ts';

export interface Limit {
  max: number;
  windowMs: number;
}

/** Failed sign-in, MFA and recovery attempts: per account, and (looser) per client address. */
export const ACCOUNT_LIMIT: Limit = { max: 10, windowMs: 15 * 60_000 };
export const ADDRESS_LIMIT: Limit = { max: 50, windowMs: 15 * 60_000 };

/** The keys and limits of one attempt. */
export type LimitKeys = [key: string, limit: Limit][];

interface Backend {
  redis?: { client: Redis; prefix: string };
  limiters: Map<string, RateLimiterAbstract>;
}

// The counters of each service, found by its database handle: the one thing every caller already holds.
const backends = new WeakMap<Db, Backend>();

/** Keeps the counters of the service using `db` in Redis, under `prefix`, instead of this process's memory. */
export function shareRateLimits(db: Db, client: Redis, prefix: string): void {
  backends.set(db, { redis: { client, prefix }, limiters: new Map() });
}

function limiterFor(db: Db, limit: Limit): RateLimiterAbstract {
  let backend = backends.get(db);
  if (!backend) backends.set(db, (backend = { limiters: new Map() }));
  const id = `${limit.max}/${limit.windowMs}`;
  let limiter = backend.limiters.get(id);
  if (!limiter) {
    // Counters outlive their window by one more, so a clock a little ahead of the store's still finds them.
    const options = { points: limit.max, duration: Math.ceil((2 * limit.windowMs) / 1000), keyPrefix: `rl${id}` };
    const redis = backend.redis;
    limiter = redis
      ? // While Redis is away, the limits hold per process rather than not at all.
        new RateLimiterRedis({ ...options, keyPrefix: `${redis.prefix}:${options.keyPrefix}`, storeClient: redis.client, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
    backend.limiters.set(id, limiter);
  }
  return limiter;
}

const windowOf = (limit: Limit, now: number) => Math.floor(now / limit.windowMs);
const windowKey = (key: string, limit: Limit, now: number) => `${key}@${windowOf(limit, now)}`;
const secondsLeft = (limit: Limit, now: number) => Math.max(1, Math.ceil(((windowOf(limit, now) + 1) * limit.windowMs - now) / 1000));

/** Keys of an attempt on an account (or an email, when no account matched) from an address. */
export function attemptKeys(account: string, ip: string): LimitKeys {
  return [
    [`account:${account}`, ACCOUNT_LIMIT],
    [`ip:${ip}`, ADDRESS_LIMIT],
  ];
}

/** Throws RateLimited (with the seconds until the window ends) when any key is over its limit. */
export async function assertNotLimited(db: Db, clock: Clock, keys: LimitKeys): Promise<void> {
  const now = clock.now();
  const counts = await Promise.all(keys.map(([key, limit]) => limiterFor(db, limit).get(windowKey(key, limit, now))));
  keys.forEach(([, limit], i) => {
    if ((counts[i]?.consumedPoints ?? 0) >= limit.max) throw new RateLimited(secondsLeft(limit, now));
  });
}

/** Counts one failed attempt against every key. */
export async function recordFailure(db: Db, clock: Clock, keys: LimitKeys): Promise<void> {
  const now = clock.now();
  await Promise.all(keys.map(([key, limit]) => limiterFor(db, limit).penalty(windowKey(key, limit, now), 1)));
}

/** Forgets the account's failures after a success (the address keeps its count). */
export async function clearAccountFailures(db: Db, clock: Clock, account: string): Promise<void> {
  await limiterFor(db, ACCOUNT_LIMIT).delete(windowKey(`account:${account}`, ACCOUNT_LIMIT, clock.now()));
}

/** Runs an attempt under the limits: refused when limited, counted when it fails (throws). */
export async function limited<T>(db: Db, clock: Clock, keys: LimitKeys, attempt: () => Promise<T>): Promise<T> {
  await assertNotLimited(db, clock, keys);
  try {
    return await attempt();
  } catch (err) {
    await recordFailure(db, clock, keys);
    throw err;
  }
}

/**
 * Counts one account mail (sign-in link, reset, verification, recovery) against the address it goes
 * to and the client asking, per hour; 429 once either is spent. Every address counts alike, known or
 * not, so the limiter reveals no more than the answer does.
 */
export async function consumeMailQuota(
  db: Db,
  clock: Clock,
  { email, ip }: { email: string; ip: string },
  limits: { perAddressPerHour: number; perClientPerHour: number },
): Promise<void> {
  const keys: LimitKeys = [
    [`mail:${email.trim().toLowerCase()}`, { max: limits.perAddressPerHour, windowMs: 3600_000 }],
    [`mail-ip:${ip}`, { max: limits.perClientPerHour, windowMs: 3600_000 }],
  ];
  await consumeAll(db, clock, keys);
}

/** Counts one use against a quota (e.g. help questions per user per hour); 429 once it is spent. */
export async function consumeQuota(db: Db, clock: Clock, key: string, limit: Limit): Promise<void> {
  await consumeAll(db, clock, [[key, limit]]);
}

/** Counts one use against every key at once (one atomic increment each); 429 when any went over. */
async function consumeAll(db: Db, clock: Clock, keys: LimitKeys): Promise<void> {
  const now = clock.now();
  // consume() rejects with the counter (not an Error) when it went over the limit.
  const counts = await Promise.all(
    keys.map(([key, limit]) =>
      limiterFor(db, limit)
        .consume(windowKey(key, limit, now), 1)
        .catch((res: unknown) => {
          if (res instanceof Error) throw res;
          return res as RateLimiterRes;
        }),
    ),
  );
  keys.forEach(([, limit], i) => {
    if (counts[i]!.consumedPoints > limit.max) throw new RateLimited(secondsLeft(limit, now));
  });
}
