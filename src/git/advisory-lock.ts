// The shared write lock as a PostgreSQL advisory lock, for installations whose processes share a
// database: one key per repository, held by a session on a client of a small pool of its own (an
// advisory lock belongs to the session that took it). A holder that dies loses its connection, and the
// server ends the session and its locks at once: no staleness to wait out.
import { createHash } from 'node:crypto';
import type { SharedLock } from './lock.ts';

/** The advisory lock key of a repository: 64 bits of a hash of its registry key. */
export function advisoryKey(key: string): string {
  return createHash('sha256').update(`sextant:knowledge:${key}`).digest().readBigInt64BE(0).toString();
}

/** Opens the lock's pool on `url` (connected lazily; a connection's set-up bounded by `connectTimeoutMs`, 0: none); `close` ends it. */
export async function openAdvisoryLock({ url, max = 4, connectTimeoutMs = 10_000 }: { url: string; max?: number; connectTimeoutMs?: number }): Promise<SharedLock & { close(): Promise<void> }> {
  // Loaded on first use: a gateway without PostgreSQL never loads pg.
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: connectTimeoutMs });
  // An idle client that loses its server emits 'error' on the pool; unhandled, it would end the process.
  pool.on('error', () => {});
  return {
    async acquire({ key }) {
      const id = advisoryKey(key);
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1::bigint)', [id]);
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
      return async () => {
        try {
          await client.query('SELECT pg_advisory_unlock($1::bigint)', [id]);
          client.release();
        } catch (err) {
          // The connection is destroyed: its session ends, and the lock with it.
          client.release(err as Error);
        }
      };
    },
    close: () => pool.end(),
  };
}
