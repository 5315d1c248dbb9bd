// DuckDB spills into a folder of the session's own: a query process serves one organization after
// another, and no session may find a folder (or the files) an earlier one used.
import test from 'ava';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { processEntry } from '../../../../src/data/drivers/process/process-entry.ts';
import { QueryProcess } from '../../../../src/data/drivers/process/query-process.ts';
import { openProcessDriver } from '../../../../src/data/drivers/process/process-driver.ts';
import { QueryProcessPool } from '../../../../src/data/drivers/process/query-process-pool.ts';
import { duckdbFixture } from '../../warehouses.ts';

async function tempOf(pool: QueryProcessPool, path: string, owner: string): Promise<{ dir: string; close: () => Promise<void> }> {
  const driver = await openProcessDriver('duckdb', { path }, { queryProcesses: pool, owner });
  const { batches } = await driver.stream("SELECT current_setting('temp_directory') AS d");
  const rows: unknown[][] = [];
  for await (const b of batches) rows.push(...b);
  return { dir: String(rows[0]![0]), close: () => driver.close() };
}

test('two organizations served by the same query process never share a temp folder, and each is removed when its session closes', async (t) => {
  const pool = new QueryProcessPool({ max: 1, maxIdle: 1, memoryMb: 512 });
  t.teardown(() => pool.close());
  const first = (await duckdbFixture()).path!;
  const second = (await duckdbFixture()).path!;
  const a = await tempOf(pool, first, 'org-a-user');
  t.true(existsSync(a.dir), a.dir);
  t.true(a.dir.startsWith(tmpdir()) && /sextant-query-[^/]+\/session-[^/]+$/.test(a.dir), a.dir);
  await a.close();
  t.false(existsSync(a.dir), 'the first session left its folder behind');
  const b = await tempOf(pool, second, 'org-b-user');
  t.not(b.dir, a.dir);
  t.true(existsSync(b.dir));
  await b.close();
  t.false(existsSync(b.dir));
  // One process served both (the pool holds at most one): the isolation is the session's, not the process's.
  t.is(pool.spawned, 1);
});

test('a session killed mid-query leaves no temp folder behind', async (t) => {
  const proc = new QueryProcess({ entry: await processEntry(), memoryMb: 512 });
  t.teardown(() => proc.kill());
  const path = (await duckdbFixture()).path!;
  await proc.call({ op: 'open', engine: 'duckdb', path });
  await proc.call({ op: 'query', sql: "SELECT current_setting('temp_directory') AS d", batchSize: 10 });
  const dir = String((JSON.parse((await proc.call({ op: 'next' })).rows) as unknown[][])[0]![0]);
  t.true(existsSync(dir));
  const running = proc.call({ op: 'query', sql: 'SELECT count(*) FROM range(1000000) a, range(1000000) b', batchSize: 10 });
  proc.kill();
  await t.throwsAsync(running);
  await proc.exited;
  t.false(existsSync(dir), dir);
});
