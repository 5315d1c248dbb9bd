// A query process keeps its DuckDB instance between sessions over the same warehouse file: each
// session gets a fresh connection, and nothing one session did is seen by the next (temp objects,
// variables, settings, attached databases), while a replaced file is seen at once.
import test from 'ava';
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import type { Driver } from '../../../../src/data/drivers/driver.ts';
import { openProcessDriver } from '../../../../src/data/drivers/process/process-driver.ts';
import { QueryProcessPool } from '../../../../src/data/drivers/process/query-process-pool.ts';
import { duckdbFixture } from '../../warehouses.ts';

/** Runs `sql` in the driver's session: its rows, or the error's message. */
async function run(driver: Driver, sql: string): Promise<unknown[][] | string> {
  try {
    const { batches } = await driver.stream(sql);
    const rows: unknown[][] = [];
    for await (const b of batches) rows.push(...b);
    return rows;
  } catch (err) {
    return (err as Error).message;
  }
}

/** One process, kept between sessions: every session below runs in it. */
function onePool(t: { teardown(fn: () => Promise<void>): void }): QueryProcessPool {
  const pool = new QueryProcessPool({ max: 1, maxIdle: 1, memoryMb: 512 });
  t.teardown(() => pool.close());
  return pool;
}

/** Opens a session, runs `statements` in it, and returns what each gave; the temp folder tells the instance. */
async function session(pool: QueryProcessPool, path: string, statements: string[]): Promise<{ instance: unknown; results: (unknown[][] | string)[] }> {
  const driver = await openProcessDriver('duckdb', { path }, { queryProcesses: pool, owner: 'u' });
  try {
    const instance = ((await run(driver, "SELECT current_setting('temp_directory')")) as unknown[][])[0]![0];
    const results = [];
    for (const s of statements) results.push(await run(driver, s));
    return { instance, results };
  } finally {
    await driver.close();
  }
}

test('the next session on a kept instance sees no temp table, macro, view, variable, prepared statement or search path of the previous one', async (t) => {
  const pool = onePool(t);
  const { path } = await duckdbFixture();
  const first = await session(pool, path!, [
    'CREATE TEMP TABLE leak_t AS SELECT 42 AS secret',
    'CREATE TEMP MACRO leak_m(a) AS a + 42',
    'CREATE TEMP VIEW leak_v AS SELECT 42 AS secret',
    'SET VARIABLE leak_var = 42',
    'PREPARE leak_p AS SELECT 42',
    "SET search_path = 'temp.main'",
    'SELECT * FROM leak_t',
  ]);
  t.deepEqual(first.results.at(-1), [[42]], 'the first session could use its own temp table');
  const second = await session(pool, path!, ['SELECT * FROM leak_t', 'SELECT leak_m(1)', 'SELECT * FROM leak_v', "SELECT getvariable('leak_var')", 'EXECUTE leak_p', 'SELECT count(*) FROM orders']);
  t.is(second.instance, first.instance, 'the instance was not reused: this test would prove nothing');
  t.false(existsSync(String(first.instance)), 'the spill folder is removed between sessions, as with an instance per session');
  t.regex(String(second.results[0]), /leak_t does not exist/);
  t.regex(String(second.results[1]), /leak_m does not exist/);
  t.regex(String(second.results[2]), /leak_v does not exist/);
  t.deepEqual(second.results[3], [[null]]);
  t.regex(String(second.results[4]), /leak_p" does not exist/);
  t.deepEqual(second.results[5], [['5']], 'unqualified names resolve in the warehouse again');
  t.is(pool.spawned, 1);
});

test('settings stay locked on a kept instance: a SET is refused and the next session finds the lock-down as it was', async (t) => {
  const pool = onePool(t);
  const { path } = await duckdbFixture();
  const first = await session(pool, path!, ['SET threads = 1', 'SET enable_external_access = true', 'RESET lock_configuration', "SET memory_limit = '64GB'"]);
  for (const r of first.results) t.regex(String(r), /configuration has been locked/);
  const settings = "SELECT current_setting('threads'), current_setting('enable_external_access'), current_setting('lock_configuration')";
  const second = await session(pool, path!, [settings, "SELECT count(*) FROM read_csv('/etc/passwd')"]);
  t.is(second.instance, first.instance);
  t.deepEqual(second.results[0], [['2', false, true]]);
  t.regex(String(second.results[1]), /disabled by configuration/);
});

test('a session that attaches or detaches a database does not pass its instance on: the next one gets a fresh instance with the warehouse', async (t) => {
  const pool = onePool(t);
  const { path } = await duckdbFixture();
  const first = await session(pool, path!, ["ATTACH ':memory:' AS leak_db", 'CREATE TABLE leak_db.main.t AS SELECT 42 AS secret', "ATTACH '/etc/passwd' AS other"]);
  t.deepEqual(first.results[1], [['1']], 'an in-memory database can be attached: the check after the session matters');
  t.regex(String(first.results[2]), /disabled by configuration/);
  const second = await session(pool, path!, ['SELECT database_name FROM duckdb_databases() ORDER BY 1', 'SELECT * FROM leak_db.main.t']);
  t.not(second.instance, first.instance);
  t.deepEqual(second.results[0], [['system'], ['temp'], ['wh']]);
  t.regex(String(second.results[1]), /leak_db/);
  // A forged warehouse in place of the real one is caught the same way.
  const forged = await session(pool, path!, ["ATTACH ':memory:' AS x", 'USE x', 'DETACH wh', "ATTACH ':memory:' AS wh", 'CREATE TABLE wh.main.orders AS SELECT 1 AS forged', 'SELECT * FROM wh.main.orders']);
  t.deepEqual(forged.results.at(-1), [[1]], 'the forgery worked within its own session');
  const third = await session(pool, path!, ['SELECT count(*) FROM orders']);
  t.deepEqual(third.results[0], [['5']]);
});

test('a session that turns on DuckDB logging (which gets past the configuration lock) does not pass its instance on, so no later SQL is recorded', async (t) => {
  const pool = onePool(t);
  const { path } = await duckdbFixture();
  const logging = await session(pool, path!, ['SELECT * FROM enable_logging()', "SELECT 'first session secret' AS s", 'SELECT count(*) > 0 FROM duckdb_logs()']);
  t.deepEqual(logging.results[2], [[true]], 'logging came on within the session: the check after it matters');
  const next = await session(pool, path!, ["SELECT count(*) FROM duckdb_logs()", "SELECT current_setting('enable_logging')::BOOLEAN"]);
  t.not(next.instance, logging.instance);
  t.deepEqual(next.results, [[['0']], [[false]]]);
  // Turned off again before the end, the log it kept still closes the instance.
  const offAgain = await session(pool, path!, ['CALL enable_logging()', "SELECT 'secret' AS s", 'CALL disable_logging()']);
  const after = await session(pool, path!, ['SELECT count(*) FROM duckdb_logs()']);
  t.not(after.instance, offAgain.instance);
  t.deepEqual(after.results, [[['0']]]);
});

test('no table made in one session outlives it: the instance has no writable catalog of its own', async (t) => {
  const pool = onePool(t);
  const { path } = await duckdbFixture();
  const first = await session(pool, path!, ['CREATE TABLE memory.main.leak AS SELECT 42 AS secret', 'CREATE TABLE leak AS SELECT 42 AS secret', 'CREATE MACRO memory.main.leak_m() AS 42']);
  t.regex(String(first.results[0]), /memory/);
  t.regex(String(first.results[1]), /read-only/);
  t.regex(String(first.results[2]), /memory/);
});

test('a warehouse file replaced on disk is seen by the next session, not the kept instance', async (t) => {
  const pool = onePool(t);
  const { path } = await duckdbFixture();
  const first = await session(pool, path!, ['SELECT count(*) FROM orders']);
  t.deepEqual(first.results[0], [['5']]);
  // A new version written beside the file and renamed over it, as a re-upload or a re-sync does.
  const next = `${path!}.next`;
  copyFileSync(path!, next);
  const inst = await DuckDBInstance.create(next);
  const c = await inst.connect();
  await c.run("INSERT INTO orders VALUES (6, 1, 'Germany', 1.00, '2024-06-07')");
  await c.run('CREATE TABLE uploaded AS SELECT 7 AS n');
  c.closeSync();
  inst.closeSync();
  renameSync(next, path!);
  const second = await session(pool, path!, ['SELECT count(*) FROM orders', 'SELECT n FROM uploaded']);
  t.not(second.instance, first.instance);
  t.deepEqual(second.results, [[['6']], [[7]]]);
});

test('a session goes to the idle process that last opened its warehouse file, whose instance is still open', async (t) => {
  const pool = new QueryProcessPool({ max: 2, maxIdle: 2, memoryMb: 512 });
  t.teardown(() => pool.close());
  const a = (await duckdbFixture()).path!;
  const b = (await duckdbFixture()).path!;
  const open = (path: string) => openProcessDriver('duckdb', { path }, { queryProcesses: pool, owner: path });
  const folder = async (d: Driver) => ((await run(d, "SELECT current_setting('temp_directory')")) as unknown[][])[0]![0];
  // Both at once: each warehouse in a process of its own.
  const [da, db] = await Promise.all([open(a), open(b)]);
  const firstA = await folder(da);
  const firstB = await folder(db);
  await da.close();
  await db.close();
  for (const [path, first] of [[b, firstB], [a, firstA]] as const) {
    const d = await open(path);
    t.is(await folder(d), first, 'the session did not find its open instance');
    await d.close();
  }
});

test("each session on a kept instance counts recursion steps against its own cap, not the previous session's", async (t) => {
  const pool = onePool(t);
  const { path } = await duckdbFixture();
  const steps = 'SELECT count(*) FROM range(100) WHERE system.main.sextant_step()';
  const capped = async (maxRecursion: number) => {
    const driver = await openProcessDriver('duckdb', { path: path! }, { queryProcesses: pool, owner: 'u', maxRecursion });
    try {
      const folder = ((await run(driver, "SELECT current_setting('temp_directory')")) as unknown[][])[0]![0];
      return { folder, first: await run(driver, steps), second: await run(driver, steps) };
    } finally {
      await driver.close();
    }
  };
  const small = await capped(50);
  const large = await capped(1000);
  t.is(large.folder, small.folder, 'the instance was not reused: this test would prove nothing');
  t.regex(String(small.first), /recursi/i);
  t.deepEqual(large.first, [['100']]);
  t.deepEqual(large.second, [['100']], 'the count starts again with each statement');
});
