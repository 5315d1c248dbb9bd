// Every driver stops its statement in the warehouse: at its time budget, when the caller's signal
// aborts, and when the reader stops early; the budget counts the warehouse's time, not the reader's.
import test from 'ava';
import { setTimeout as delay } from 'node:timers/promises';
import type { Driver } from '../../../src/data/drivers/driver.ts';
import { QueryProcessPool } from '../../../src/data/drivers/process/query-process-pool.ts';
import { DRIVERS } from '../../../src/data/drivers/registry.ts';
import { duckdbFixture, mysqlFixture, postgresFixture, sqliteFixture, SKIP_MYSQL, SKIP_PG } from '../warehouses.ts';

const EVENTS = ['CREATE TABLE events (id INTEGER)', `INSERT INTO events VALUES ${Array.from({ length: 2000 }, (_, i) => `(${i})`).join(', ')}`];
const CROSS = 'SELECT count(*) AS n FROM events a, events b, events c, events d';
const RECURSIVE = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) AS n FROM r';
const MANY_ROWS = 'SELECT a.id, b.id FROM events a, events b';

let pool: QueryProcessPool;
test.before(() => {
  pool = new QueryProcessPool({ max: 4, memoryMb: 512 });
});
test.after.always(() => pool.close());

type Opened = { driver: Driver; drop?: () => Promise<void> } | undefined;
const engines: { name: string; skip: string; recursion: string; open: () => Promise<Opened> }[] = [
  { name: 'SQLite', skip: '', recursion: 'QUERY_TIMEOUT', open: async () => ({ driver: await DRIVERS.sqlite.open(sqliteFixture(EVENTS), { queryProcesses: pool }) }) },
  { name: 'DuckDB', skip: '', recursion: 'QUERY_TIMEOUT', open: async () => ({ driver: await DRIVERS.duckdb.open(await duckdbFixture(EVENTS), { queryProcesses: pool }) }) },
  {
    name: 'PostgreSQL',
    skip: SKIP_PG,
    recursion: 'QUERY_TIMEOUT',
    open: async () => {
      const f = await postgresFixture(EVENTS);
      return f && { driver: await DRIVERS.postgresql.open(f.settings, {}), drop: f.drop };
    },
  },
  {
    name: 'MariaDB',
    skip: SKIP_MYSQL,
    // The server caps the recursion itself, long before the budget runs out.
    recursion: 'QUERY_RECURSION_LIMIT',
    open: async () => {
      const f = await mysqlFixture(EVENTS);
      return f && { driver: await DRIVERS.mariadb.open(f.settings, { maxRecursion: 1000 }), drop: f.drop };
    },
  },
];

async function drain(driver: Driver, sql: string, opts: { timeoutMs?: number; signal?: AbortSignal; batchSize?: number } = {}) {
  const s = await driver.stream(sql, opts);
  let rows = 0;
  for await (const b of s.batches) rows += b.length;
  return rows;
}

async function timed<T>(work: Promise<T>): Promise<{ ms: number; error: { code?: string } | undefined }> {
  const started = performance.now();
  let error: { code?: string } | undefined;
  await work.catch((err: { code?: string }) => (error = err));
  return { ms: performance.now() - started, error };
}

for (const e of engines) {
  test.serial(`${e.name}: a cartesian product and a recursive CTE stop at the budget (or the server's cap), within a second`, async (t) => {
    const opened = await e.open();
    if (!opened) return void t.pass(e.skip);
    try {
      const cross = await timed(drain(opened.driver, CROSS, { timeoutMs: 300 }));
      t.is(cross.error?.code, 'QUERY_TIMEOUT');
      t.true(cross.ms < 1300, `${Math.round(cross.ms)} ms`);
    } finally {
      await opened.driver.close();
    }
    // File warehouses lose their process at a stop: the next query opens a new session, as the gateway does.
    const again = (await e.open())!;
    try {
      const rec = await timed(drain(again.driver, RECURSIVE, { timeoutMs: 300 }));
      t.is(rec.error?.code, e.recursion);
      t.true(rec.ms < 1300, `${Math.round(rec.ms)} ms`);
    } finally {
      await again.driver.close();
      await again.drop?.();
      await opened.drop?.();
    }
  });

  test.serial(`${e.name}: an aborted signal stops the statement in the warehouse at once`, async (t) => {
    const opened = await e.open();
    if (!opened) return void t.pass(e.skip);
    try {
      const abort = new AbortController();
      const running = timed(drain(opened.driver, CROSS, { timeoutMs: 30_000, signal: abort.signal }));
      await delay(200);
      abort.abort();
      const r = await running;
      t.is(r.error?.code, 'QUERY_CANCELLED');
      t.true(r.ms < 1200, `${Math.round(r.ms)} ms`);
    } finally {
      await opened.driver.close();
      await opened.drop?.();
    }
  });

  test.serial(`${e.name}: a reader that stops early frees the session, and a slow reader is not cut by the budget`, async (t) => {
    const opened = await e.open();
    if (!opened) return void t.pass(e.skip);
    try {
      const s = await opened.driver.stream(MANY_ROWS, { batchSize: 100 });
      for await (const b of s.batches) {
        t.is(b.length, 100);
        break;
      }
      // The session answers at once: nothing of the 4M-row result is still on its way.
      const started = performance.now();
      t.is(await drain(opened.driver, 'SELECT id FROM events WHERE id < 10'), 10);
      t.true(performance.now() - started < 500);
      // 4 batches read 300 ms apart: 1.2 s of reading against a 600 ms budget of warehouse time.
      const slow = await opened.driver.stream('SELECT id FROM events WHERE id < 400 ORDER BY id', { batchSize: 100, timeoutMs: 600 });
      let rows = 0;
      for await (const b of slow.batches) {
        rows += b.length;
        await delay(300);
      }
      t.is(rows, 400);
    } finally {
      await opened.driver.close();
      await opened.drop?.();
    }
  });
}

test.serial('file warehouses hand their process back after a query that ended well, and lose it after a stop', async (t) => {
  const f = sqliteFixture(EVENTS);
  const own = new QueryProcessPool({ max: 1, memoryMb: 512 });
  t.teardown(() => own.close());
  let d = await DRIVERS.sqlite.open(f, { queryProcesses: own });
  t.is(await drain(d, 'SELECT id FROM events'), 2000);
  await d.close();
  t.deepEqual(own.size, { busy: 0, idle: 1 });
  d = await DRIVERS.sqlite.open(f, { queryProcesses: own });
  t.deepEqual(own.size, { busy: 1, idle: 0 });
  await t.throwsAsync(drain(d, CROSS, { timeoutMs: 100 }), { code: 'QUERY_TIMEOUT' });
  await t.throwsAsync(drain(d, 'SELECT 1'), { code: 'QUERY_FAILED', message: /stopped/ }, 'a stopped session refuses further work');
  await d.close();
  // The stopped process is gone; a spare took its place, so the next query does not wait for a start.
  t.deepEqual(own.size, { busy: 0, idle: 1 });
});

test.serial('a file that cannot be opened fails clearly and leaves its process to the next query', async (t) => {
  const own = new QueryProcessPool({ max: 1, memoryMb: 512 });
  t.teardown(() => own.close());
  await t.throwsAsync(DRIVERS.sqlite.open({ path: '/nonexistent/wh.sqlite' }, { queryProcesses: own }), { code: 'WAREHOUSE_UNAVAILABLE' });
  t.deepEqual(own.size, { busy: 0, idle: 1 });
  const d = await DRIVERS.sqlite.open(sqliteFixture(EVENTS), { queryProcesses: own });
  // Values JSON would lose keep their text; the others stay as they are.
  const s = await d.stream("SELECT 9007199254740993 AS big, -9007199254740993 AS neg, 42 AS small, 1.5 AS real, 1e999 AS inf, -1e999 AS ninf, 'x' AS txt");
  const rows: unknown[][] = [];
  for await (const b of s.batches) rows.push(...b);
  t.deepEqual(rows, [['9007199254740993', '-9007199254740993', 42, 1.5, 'Infinity', '-Infinity', 'x']]);
  await d.close();
});
