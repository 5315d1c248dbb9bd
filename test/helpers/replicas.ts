// Gateway replicas as production runs them: the built server (`node dist/main.js`, the image's
// command) in processes of their own, on one PostgreSQL database, one Redis (a key prefix per test)
// and one data folder, sharing their secrets. Skipped with a message when PostgreSQL or Redis is
// absent, except under CI=true.
import type { ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TEST_BCRYPT_COST } from './bcrypt-cost.ts';
import { startGatewayProcess, writeDemoProductionDirectly, type GatewayProcess } from './gateway-process.ts';
import { freshPgDatabase, PG_TEST_CONNECT_TIMEOUT_MS } from './pg-database.ts';
import { REDIS_URL } from './redis.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
let built: Promise<void> | undefined;

/**
 * Builds the server into dist unless it was built from the sources as they are: test files run in
 * parallel processes that each need the build (the production-build test too). flock(1) makes them take
 * turns, and a build is skipped when no file of src, web or the package files is newer than the stamp
 * the last build left (touched when it began), so a suite builds once: building again rewrote dist/main.js
 * and emptied dist/web while another file's gateway was starting from them.
 */
export function buildServer(): Promise<void> {
  const script = `stamp=dist/.built-for-tests
if [ -f "$stamp" ] && [ -z "$(find src web package.json package-lock.json -newer "$stamp" -print -quit)" ]; then exit 0; fi
started=$(mktemp) && npm run --silent build && touch -r "$started" "$stamp"; status=$?; rm -f "$started"; exit $status`;
  built ??= promisify(execFile)('flock', [join(tmpdir(), 'sextant-dist-build.lock'), 'sh', '-c', script], { cwd: ROOT }).then(() => undefined);
  return built;
}

export interface Replica extends GatewayProcess {
  /** SIGKILL: no shutdown step runs. */
  kill(): Promise<void>;
  /** SIGTERM, and wait for the exit. */
  stop(): Promise<void>;
}

export interface Replicas {
  databaseUrl: string;
  dataDir: string;
  redisPrefix: string;
  /** What every replica of the set is started with. */
  env: Record<string, string>;
  /** Starts one more replica of the set (after a kill, the same command again). */
  start(): Promise<Replica>;
}

/** Where a set's teardown goes: a test's (stopped at its end), or a file's that shares the set among tests. */
export type Scope = Pick<ExecutionContext, 'teardown'>;

/** A set of replicas for one scope (stopped at its end), or undefined when PostgreSQL is absent and CI is not set. */
export async function replicaSet(t: Scope, extraEnv: Record<string, string> = {}): Promise<Replicas | undefined> {
  const databaseUrl = await freshPgDatabase(t);
  if (!databaseUrl) return undefined;
  await buildServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-replicas-'));
  const redisPrefix = `test-${randomUUID()}`;
  const env: Record<string, string> = {
    SEXTANT_DATABASE_URL: databaseUrl,
    SEXTANT_REDIS_URL: REDIS_URL,
    SEXTANT_REDIS_PREFIX: redisPrefix,
    SEXTANT_DATA_DIR: dataDir,
    SEXTANT_HOST: '127.0.0.1',
    SEXTANT_LOG_LEVEL: 'info',
    SEXTANT_DEMO_WAREHOUSE_ORDERS: '500',
    SEXTANT_SHUTDOWN_GRACE_MS: '1000',
    SEXTANT_DATABASE_CONNECT_TIMEOUT_MS: String(PG_TEST_CONNECT_TIMEOUT_MS),
    // Each password sign-in of a trial checked a hash at the production default: ~90 ms of a
    // replica's CPU, a hundred times over in the TOTP race.
    SEXTANT_BCRYPT_COST: String(TEST_BCRYPT_COST),
    // Replicas must agree on what they sign and seal.
    SEXTANT_JWT_SECRET: randomBytes(32).toString('hex'),
    SEXTANT_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SEXTANT_COOKIE_KEYS: randomBytes(24).toString('hex'),
    ...extraEnv,
  };
  const running = new Set<Replica>();
  // Replicas first (they hold the database and the folder), then the folder; the database goes with freshPgDatabase's teardown.
  t.teardown(async () => {
    await Promise.all([...running].map((r) => r.kill()));
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = async (): Promise<Replica> => {
    const p = await startGatewayProcess(['dist/main.js'], env);
    await writeDemoProductionDirectly(p.url);
    const replica: Replica = {
      ...p,
      async kill() {
        if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGKILL');
        await p.exited;
        running.delete(replica);
      },
      async stop() {
        if (p.proc.exitCode === null && p.proc.signalCode === null) p.proc.kill('SIGTERM');
        await p.exited;
        running.delete(replica);
      },
    };
    running.add(replica);
    return replica;
  };
  return { databaseUrl, dataDir, redisPrefix, env, start };
}

/** Two replicas started at once on the empty database (as `docker compose up` starts them). */
export async function twoReplicas(t: Scope, extraEnv: Record<string, string> = {}): Promise<{ set: Replicas; a: Replica; b: Replica } | undefined> {
  const set = await replicaSet(t, extraEnv);
  if (!set) return undefined;
  const [a, b] = await Promise.all([set.start(), set.start()]);
  return { set, a, b };
}

/** A JSON request to a replica; the body is parsed when there is one. */
export async function call(base: string, method: string, path: string, { token, body }: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((err: Error & { cause?: { code?: string; message?: string } }) => {
    // undici says only "fetch failed"; its cause (a reset, a refused or timed-out connect) is what tells a crash from a race.
    throw new Error(`${method} ${path} on ${base}: ${err.message} (${err.cause?.code ?? ''} ${err.cause?.message ?? ''})`, { cause: err });
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Signs in a demo user through `base` with their password; the session token. */
export async function signIn(base: string, username: string, password: string): Promise<string> {
  const res = await call(base, 'POST', '/api/auth/token', { body: { username, password } });
  if (res.status !== 200 || typeof res.body['access_token'] !== 'string') throw new Error(`sign-in of ${username} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body['access_token'];
}
