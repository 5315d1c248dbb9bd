// Brute-force and flood protection on rate-limiter-flexible. Password and second-factor guesses are
// counted per (account, client address) pair, which is slowed down progressively, plus a high
// per-account ceiling and a per-address limit: a stranger guessing at a known address slows down only
// themselves, and the owner, signing in from their own address, is not locked out. An attempt from a
// device that signed in to the account before (device-token.ts) is counted per device instead of per
// pair and under no per-account ceiling, so a spray from many addresses cannot lock the owner out of
// a device they used before. Counters live in this
// process's memory, or in Redis when the service has one (shared by replicas, see shareRateLimits).
// Windows are numbered from the service's clock and the number is part of the key, so the clock (a fake
// one in tests) decides when a window ends; the store only forgets a counter some time after its window.
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Clock } from '../../clock.ts';
import { RateLimited } from '../../errors.ts';
import type { Executor } from '../../store/index.ts';

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
/** Failed attempts from one remembered device on its account: slowed down like a pair. */
export const DEVICE_LIMIT: Limit = PAIR_LIMIT;

/** The keys and limits of one attempt; a key scoped to an account is renewed by an admin's unlock. */
export type LimitKeys = [key: string, limit: Limit, account?: string][];

/** Unlock generations live longer than any pair counter (two pair windows), so an old pair never comes back. */
const GENERATION: Limit = { max: Number.MAX_SAFE_INTEGER, windowMs: 7 * 24 * 3600_000 };
/** When a backed-off key last failed (the counter's points hold the time in ms). */
const LAST_FAILURE: Limit = { max: Number.MAX_SAFE_INTEGER, windowMs: 2 * PAIR_LIMIT.windowMs };

interface Backend {
  redis?: { client: Redis; prefix: string };
  limiters: Map<string, RateLimiterAbstract>;
}

// The counters of each service, found by its store (the executor, made once per service): the one
// thing every caller already holds, on either dialect.
const backends = new WeakMap<Executor, Backend>();

/** Keeps the counters of the service using `store` in Redis, under `prefix`, instead of this process's memory. */
export function shareRateLimits(store: Executor, client: Redis, prefix: string): void {
  backends.set(store, { redis: { client, prefix }, limiters: new Map() });
}

function limiterFor(store: Executor, limit: Limit): RateLimiterAbstract {
  let backend = backends.get(store);
  if (!backend) backends.set(store, (backend = { limiters: new Map() }));
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

/**
 * Keys of an attempt on an account (or an email, when no account matched) from an address; with the
 * id of a device remembered for that account, the device's own key replaces the pair and the ceiling.
 */
export function attemptKeys(account: string, ip: string, device?: string): LimitKeys {
  if (device !== undefined) return [[`device:${account}|${device}`, DEVICE_LIMIT, account], [`ip:${ip}`, ADDRESS_LIMIT]];
  return [
    [`pair:${account}|${ip}`, PAIR_LIMIT, account],
    [`account:${account}`, ACCOUNT_LIMIT],
    [`ip:${ip}`, ADDRESS_LIMIT],
  ];
}

const pointsOf = (res: RateLimiterRes | null | undefined) => res?.consumedPoints ?? 0;

/** The key as stored: account-scoped keys carry the account's unlock generation. */
async function storedKey(store: Executor, [key, , account]: LimitKeys[number]): Promise<string> {
  if (account === undefined) return key;
  return `${key}#${pointsOf(await limiterFor(store, GENERATION).get(`generation:${account}`))}`;
}

/** When a key may be tried again (ms), or undefined when it may be tried now. */
async function retryAt(store: Executor, entry: LimitKeys[number], now: number): Promise<number | undefined> {
  const [, limit] = entry;
  const key = await storedKey(store, entry);
  const failures = pointsOf(await limiterFor(store, limit).get(windowKey(key, limit, now)));
  if (failures < limit.max) return undefined;
  if (!limit.backoff) return (windowOf(limit, now) + 1) * limit.windowMs;
  const wait = Math.min(limit.backoff.baseMs * 2 ** (failures - limit.max), limit.backoff.maxMs);
  const at = pointsOf(await limiterFor(store, LAST_FAILURE).get(key)) + wait;
  return at > now ? at : undefined;
}

/** Throws RateLimited (with the seconds until it may try again) when any key is over its limit. */
export async function assertNotLimited(store: Executor, clock: Clock, keys: LimitKeys): Promise<void> {
  const now = clock.now();
  for (const entry of keys) {
    const at = await retryAt(store, entry, now);
    if (at !== undefined) throw new RateLimited(Math.max(1, Math.ceil((at - now) / 1000)));
  }
}

/** Counts one failed attempt against every key. */
export async function recordFailure(store: Executor, clock: Clock, keys: LimitKeys): Promise<void> {
  const now = clock.now();
  await Promise.all(
    keys.map(async (entry) => {
      const [, limit] = entry;
      const key = await storedKey(store, entry);
      await limiterFor(store, limit).penalty(windowKey(key, limit, now), 1);
      if (limit.backoff) await limiterFor(store, LAST_FAILURE).set(key, now, Math.ceil(LAST_FAILURE.windowMs / 1000));
    }),
  );
}

/**
 * Forgets the account's failures after a success from `ip` (the address keeps its count against other
 * accounts). A success from a remembered device forgets that device's failures only: the ceiling keeps
 * counting a spray from elsewhere, or the owner's every sign-in would grant it a fresh allowance.
 */
export async function clearAccountFailures(store: Executor, clock: Clock, account: string, ip: string, device?: string): Promise<void> {
  const now = clock.now();
  const [pair] = attemptKeys(account, ip, device);
  if (device !== undefined) {
    await limiterFor(store, DEVICE_LIMIT).delete(windowKey(await storedKey(store, pair!), DEVICE_LIMIT, now));
    return;
  }
  await Promise.all([
    limiterFor(store, ACCOUNT_LIMIT).delete(windowKey(`account:${account}`, ACCOUNT_LIMIT, now)),
    limiterFor(store, PAIR_LIMIT).delete(windowKey(await storedKey(store, pair!), PAIR_LIMIT, now)),
  ]);
}

/**
 * Forgets every failure counted against an account, from every address (an admin's unlock): the
 * account's counter goes, and its unlock generation moves on, so every pair key of it starts afresh.
 * Answers how many failures the account had in its current window.
 */
export async function clearAllAccountFailures(store: Executor, clock: Clock, account: string): Promise<number> {
  const key = windowKey(`account:${account}`, ACCOUNT_LIMIT, clock.now());
  const cleared = pointsOf(await limiterFor(store, ACCOUNT_LIMIT).get(key));
  await limiterFor(store, ACCOUNT_LIMIT).delete(key);
  await limiterFor(store, GENERATION).penalty(`generation:${account}`, 1);
  return cleared;
}

/** Runs an attempt under the limits: refused when limited, counted when it fails (throws). */
export async function limited<T>(store: Executor, clock: Clock, keys: LimitKeys, attempt: () => Promise<T>): Promise<T> {
  await assertNotLimited(store, clock, keys);
  try {
    return await attempt();
  } catch (err) {
    await recordFailure(store, clock, keys);
    throw err;
  }
}

/**
 * Counts one account mail (sign-in link, reset, verification, recovery) against the address it goes
 * to and the client asking, per hour; 429 once either is spent. Every address counts alike, known or
 * not, so the limiter reveals no more than the answer does.
 */
export async function consumeMailQuota(
  store: Executor,
  clock: Clock,
  { email, ip }: { email: string; ip: string },
  limits: { perAddressPerHour: number; perClientPerHour: number },
): Promise<void> {
  const keys: LimitKeys = [
    [`mail:${email.trim().toLowerCase()}`, { max: limits.perAddressPerHour, windowMs: 3600_000 }],
    [`mail-ip:${ip}`, { max: limits.perClientPerHour, windowMs: 3600_000 }],
  ];
  await consumeAll(store, clock, keys);
}

/** Counts one use against a quota (e.g. help questions per user per hour); 429 once it is spent. */
export async function consumeQuota(deps: { store: Executor; clock: Clock }, key: string, limit: Limit): Promise<void> {
  await consumeAll(deps.store, deps.clock, [[key, limit]]);
}

/** Counts one use against every key at once (one atomic increment each); 429 when any went over. */
async function consumeAll(store: Executor, clock: Clock, keys: LimitKeys): Promise<void> {
  const now = clock.now();
  // consume() rejects with the counter (not an Error) when it went over the limit.
  const counts = await Promise.all(
    keys.map(([key, limit]) =>
      limiterFor(store, limit)
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
