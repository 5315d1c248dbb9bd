// The installations bench/replicas.ts compares, each as `node dist/main.js` processes
// (bench/gateway-process.ts): SQLite in a data folder of its own; PostgreSQL on a fresh database; two
// PostgreSQL replicas on another fresh database with one Redis (a key prefix of their own) and one
// shared data folder. Everything made here is removed by `cleanup`: processes, databases, Redis keys,
// folders.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPgDatabase } from '../test/helpers/pg-database.ts';
import { cpuMsOf, freePort, startGateway, treeCpuMsOf } from './gateway-process.ts';

// The tests' local Redis (test/helpers/redis.ts, which cannot be imported outside AVA).
const REDIS_URL = 'redis://127.0.0.1:6379/0';

export type SetupName = 'sqlite' | 'postgres' | 'replicas';

export interface Setup {
  name: SetupName;
  label: string;
  /** Base URLs of its processes; requests go to them in turn. */
  urls: string[];
  /** CPU time (ms) its gateway processes (with their query processes) and, on PostgreSQL, the database's server processes have used so far. */
  cpuMs(): Promise<number>;
}

// The same secrets for every process: the replicas must accept each other's sessions.
const COMMON = {
  SEXTANT_DEMO_WAREHOUSE_ORDERS: '1000',
  SEXTANT_LOG_LEVEL: 'warn',
  SEXTANT_JWT_SECRET: 'bench-jwt-secret-bench-jwt-secret-0123456789',
  SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
  SEXTANT_COOKIE_KEYS: 'bench-cookie-key',
  // Fewer warehouse query processes than the default: four gateways share the machine.
  SEXTANT_QUERY_PROCESSES: '2',
  SEXTANT_QUERY_IDLE_PROCESSES: '1',
};

const gatewayCpu = (pids: number[]) => pids.reduce((sum, pid) => sum + treeCpuMsOf(pid), 0);

/** CPU time of the PostgreSQL server processes connected to `database` now (each reads its own /proc entry). */
async function pgBackendCpu(database: string): Promise<number> {
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
    let ms = 0;
    for (const { pid } of rows) {
      try {
        const { user, system } = cpuMsOf(pid);
        ms += user + system;
      } catch {
        // The connection closed between the query and the read: its time is lost to this count.
      }
    }
    return ms;
  } finally {
    await client.end();
  }
}

/** Deletes the keys the replicas wrote under `prefix`. */
async function dropRedisKeys(prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

type Cleanups = (() => Promise<void> | void)[];

async function gateway(env: Record<string, string>, cleanups: Cleanups) {
  const g = await startGateway({ ...COMMON, ...env, SEXTANT_PORT: String(await freePort()) });
  cleanups.push(() => g.stop());
  return g;
}

function folder(cleanups: Cleanups): string {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-replicas-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function pgDatabase(cleanups: Cleanups) {
  const db = await createPgDatabase();
  if (!db) throw new Error('PostgreSQL is not reachable on 127.0.0.1:5432 (user postgres)');
  cleanups.push(db.drop);
  return db;
}

async function sqliteSetup(cleanups: Cleanups): Promise<Setup> {
  const g = await gateway({ SEXTANT_DATA_DIR: folder(cleanups) }, cleanups);
  return { name: 'sqlite', label: 'SQLite, 1 process', urls: [g.url], cpuMs: async () => gatewayCpu([g.pid]) };
}

async function postgresSetup(cleanups: Cleanups): Promise<Setup> {
  const db = await pgDatabase(cleanups);
  const g = await gateway({ SEXTANT_DATA_DIR: folder(cleanups), SEXTANT_DATABASE_URL: db.url }, cleanups);
  return { name: 'postgres', label: 'PostgreSQL, 1 process', urls: [g.url], cpuMs: async () => gatewayCpu([g.pid]) + (await pgBackendCpu(db.name)) };
}

async function replicasSetup(cleanups: Cleanups): Promise<Setup> {
  const db = await pgDatabase(cleanups);
  const prefix = `sextant-bench-${randomBytes(4).toString('hex')}`;
  cleanups.push(() => dropRedisKeys(prefix));
  const env = { SEXTANT_DATA_DIR: folder(cleanups), SEXTANT_DATABASE_URL: db.url, SEXTANT_REDIS_URL: REDIS_URL, SEXTANT_REDIS_PREFIX: prefix };
  // One after the other: the first migrates the database and seeds the demo, the second finds them.
  const a = await gateway(env, cleanups);
  const b = await gateway(env, cleanups);
  return { name: 'replicas', label: 'PostgreSQL, 2 replicas + Redis', urls: [a.url, b.url], cpuMs: async () => gatewayCpu([a.pid, b.pid]) + (await pgBackendCpu(db.name)) };
}

const STARTERS: Record<SetupName, (c: Cleanups) => Promise<Setup>> = { sqlite: sqliteSetup, postgres: postgresSetup, replicas: replicasSetup };

/** Starts the named installations, in that order in the result; `cleanup` removes all of them, also after a failed start. */
export async function startSetups(names: SetupName[]): Promise<{ setups: Setup[]; cleanup(): Promise<void> }> {
  const cleanups: Cleanups = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await Promise.resolve(c()).catch((err: unknown) => console.error(`cleanup: ${(err as Error).message}`));
  };
  // The installations start side by side; each removes what it made, even when another failed.
  const started = await Promise.allSettled(names.map((name) => STARTERS[name](cleanups)));
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await cleanup();
    throw failed.reason;
  }
  return { setups: started.map((r) => (r as PromiseFulfilledResult<Setup>).value), cleanup };
}
