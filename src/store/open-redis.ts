// The Redis that replicas share (SEXTANT_REDIS_URL). ioredis loads only when Redis is configured: a
// single-process installation never pays for it.
import type { Redis } from 'ioredis';

export type { Redis };

/** Connects to Redis; rejects when it cannot be reached within `timeoutMs`, naming the URL without its password. */
export async function openRedis(url: string, timeoutMs = 5000): Promise<Redis> {
  const { Redis: Client } = await import('ioredis');
  // No offline queue: a command while Redis is away fails at once (rate limits then answer from the
  // memory fallback) instead of piling up in the process.
  const redis = new Client(url, { enableOfflineQueue: false, connectTimeout: timeoutMs, maxRetriesPerRequest: 1, lazyConnect: true });
  // Errors of a lost connection are reported by the commands that fail; ioredis reconnects by itself.
  redis.on('error', () => {});
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    const safe = new URL(url);
    safe.password = '';
    throw new Error(`Redis at ${safe.toString()} is unreachable: ${(err as Error).message}`);
  }
  return redis;
}
