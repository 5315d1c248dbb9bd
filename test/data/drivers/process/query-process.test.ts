// A query process guards itself: past its memory it ends with a mark the gateway reads as
// QUERY_MEMORY_LIMIT, it ends when the gateway that started it is killed, and it gets nothing of
// the gateway's environment.
import test from 'ava';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openDuckDb } from '../../../../src/data/drivers/duckdb-driver.ts';
import { openSqlite } from '../../../../src/data/drivers/sqlite-driver.ts';
import { processEntry } from '../../../../src/data/drivers/process/process-entry.ts';
import { QueryProcess } from '../../../../src/data/drivers/process/query-process.ts';
import { QueryProcessPool } from '../../../../src/data/drivers/process/query-process-pool.ts';
import { sqliteFixture } from '../../warehouses.ts';

const ROOT = new URL('../../../../', import.meta.url).pathname;

async function drain(sql: string, open: (pool: QueryProcessPool) => ReturnType<typeof openDuckDb>) {
  const pool = new QueryProcessPool({ max: 1, memoryMb: 256 });
  const driver = await open(pool);
  try {
    const s = await driver.stream(sql, { timeoutMs: 20_000 });
    for await (const b of s.batches) void b;
  } finally {
    await driver.close();
    await pool.close();
  }
}

test('a DuckDB query that builds values past the process memory ends with QUERY_MEMORY_LIMIT, long before its timeout', async (t) => {
  const started = performance.now();
  // One vector of 1 MB strings: DuckDB's own memory limit does not see it.
  await t.throwsAsync(drain("SELECT max(length(repeat('x', 1000000) || i::VARCHAR)) FROM range(100000000) t(i)", (pool) => openDuckDb({}, { queryProcesses: pool })), {
    code: 'QUERY_MEMORY_LIMIT',
  });
  t.true(performance.now() - started < 10_000);
});

test('a SQLite query past the process memory ends with QUERY_MEMORY_LIMIT too', async (t) => {
  await t.throwsAsync(drain('SELECT length(randomblob(300000000)) AS n', (pool) => openSqlite(sqliteFixture(), { queryProcesses: pool })), { code: 'QUERY_MEMORY_LIMIT' });
});

test('a query process ends by itself when the gateway that started it is killed, and sees none of its environment', async (t) => {
  // A stand-in gateway: starts a query process, has it run a query that never ends, prints its pid.
  const script = `
    import { QueryProcess } from ${JSON.stringify(join(ROOT, 'src/data/drivers/process/query-process.ts'))};
    const p = new QueryProcess({ entry: ${JSON.stringify(await processEntry())}, memoryMb: 256 });
    await p.call({ op: 'open', engine: 'sqlite', path: ${JSON.stringify(sqliteFixture().path)} });
    await p.call({ op: 'query', sql: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r', batchSize: 10 });
    void p.call({ op: 'next' });
    console.log(p.pid);
  `;
  const gateway = spawn(process.execPath, ['--import=tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, SEXTANT_SECRET_PROBE: 'x' } });
  t.teardown(() => void gateway.kill('SIGKILL'));
  const pid = Number(await new Promise<string>((resolve) => gateway.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()))));
  t.true(pid > 0);
  const environ = join('/proc', String(pid), 'environ');
  if (existsSync(environ)) t.notRegex(readFileSync(environ, 'utf8'), /SEXTANT_SECRET_PROBE/);
  const cmdline = join('/proc', String(pid), 'cmdline');
  const temp = existsSync(cmdline) ? /--temp=([^\0]+)/.exec(readFileSync(cmdline, 'utf8'))?.[1] : undefined;
  gateway.kill('SIGKILL');
  let alive = true;
  for (let i = 0; i < 40 && alive; i++) {
    await delay(50);
    try {
      process.kill(pid, 0);
      // A zombie (ended, not yet reaped by its new parent) counts as gone.
      alive = !existsSync(join('/proc', String(pid), 'stat')) || !/\) Z /.test(readFileSync(join('/proc', String(pid), 'stat'), 'utf8'));
    } catch {
      alive = false;
    }
  }
  t.false(alive, 'the query process outlived its gateway');
  if (temp) t.false(existsSync(temp), 'its temporary folder is left behind');
});

test('a process refuses requests once it has ended', async (t) => {
  const p = new QueryProcess({ entry: await processEntry(), memoryMb: 256 });
  p.kill();
  await p.exited;
  await t.throwsAsync(p.call({ op: 'ping' }), { code: 'QUERY_FAILED' });
});
