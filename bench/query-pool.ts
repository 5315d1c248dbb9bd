// Respawn churn of the query-process pool under bursts (issue 20): rounds of N parallel SQLite
// sessions (an evaluation run, a busy dashboard) with a short pause between them, run against pools
// keeping 0, 2 and 4 processes idle (SEXTANT_QUERY_IDLE_PROCESSES). The figures are the processes
// started per session and the session time (median, p95): each start costs more CPU than the small
// session it serves.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openProcessDriver } from '../src/data/drivers/process/process-driver.ts';
import { QueryProcessPool } from '../src/data/drivers/process/query-process-pool.ts';

const MAX = 4;
const ROUNDS = 8;
const PARALLEL = 4;
const PAUSE_MS = 200;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;

async function session(pool: QueryProcessPool, path: string): Promise<number> {
  const started = performance.now();
  const driver = await openProcessDriver('sqlite', { path }, { queryProcesses: pool });
  try {
    const { batches } = await driver.stream('SELECT count(*) FROM t');
    for await (const rows of batches) void rows;
  } finally {
    await driver.close();
  }
  return performance.now() - started;
}

/** Prints the figures. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-bench-pool-'));
  const path = join(dir, 'wh.sqlite');
  const db = new Database(path);
  db.exec('CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)');
  db.close();
  try {
    for (const maxIdle of [0, 2, 4]) {
      // A long memory of the peak is the default; a 1 ms one shows the idle limit alone.
      for (const peakMs of maxIdle === 0 ? [30_000] : [1, 30_000]) {
        const pool = new QueryProcessPool({ max: MAX, maxIdle, peakMs, memoryMb: 512, perOwner: MAX });
        const times: number[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          times.push(...(await Promise.all(Array.from({ length: PARALLEL }, () => session(pool, path)))));
          await delay(PAUSE_MS);
        }
        const spawned = pool.spawned;
        await pool.close();
        const sessions = ROUNDS * PARALLEL;
        console.log(
          `idle ${maxIdle}, peak memory ${peakMs} ms: ${spawned} processes started for ${sessions} sessions (${(spawned / sessions).toFixed(2)} per session); session median ${pct(times, 0.5).toFixed(0)} ms, p95 ${pct(times, 0.95).toFixed(0)} ms`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
