// A query process makes a spare DuckDB instance once a session ends (duckdb-instances.ts), so that
// the next open after the kept instance closed only attaches and locks down. The spare serves that
// open as a fresh instance would: in its own spill folder, locked down, with the warehouse attached.
// Run in this process (one request at a time, as a query process runs them), not through the pool.
import test from 'ava';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { leaseDuckDb, prepareSpare } from '../../../../src/data/drivers/process/duckdb-instances.ts';
import type { SessionLimits } from '../../../../src/data/drivers/process/engine-session.ts';
import type { OpenRequest } from '../../../../src/data/drivers/process/protocol.ts';
import { duckdbFixture, tempDir } from '../../warehouses.ts';

const MB = 1024 * 1024;

function limitsFor(t: { teardown(fn: () => void): void }): SessionLimits {
  const tempParent = tempDir();
  t.teardown(() => rmSync(tempParent, { recursive: true, force: true }));
  return { engineBytes: 256 * MB, tempParent, tempBytes: 1024 * MB };
}

const openOf = (path: string, threads?: number): OpenRequest => ({ op: 'open', engine: 'duckdb', path, ...(threads ? { threads } : {}) });

async function rows(conn: Awaited<ReturnType<typeof leaseDuckDb>>['conn'], sql: string): Promise<unknown[][] | string> {
  try {
    return (await conn.runAndReadAll(sql)).getRows();
  } catch (err) {
    return (err as Error).message;
  }
}

// Tests in this file share the module's spare: one at a time.
test.serial('a session ended makes a spare; the next open on another warehouse takes it, locked down like a new instance', async (t) => {
  const limits = limitsFor(t);
  const a = (await duckdbFixture()).path!;
  const b = (await duckdbFixture(['CREATE TABLE only_b AS SELECT 1 AS n'])).path!;
  const first = await leaseDuckDb(openOf(a), limits);
  await first.close();
  // The spare is on its way once the session ended: waiting for it makes no second one.
  await prepareSpare(limits);
  const folders = readdirSync(limits.tempParent);
  t.is(folders.length, 1, 'the kept instance spills nowhere between sessions: the one folder is the spare\'s');
  const next = await leaseDuckDb(openOf(b), limits);
  t.teardown(() => next.close());
  t.deepEqual(await rows(next.conn, "SELECT current_setting('temp_directory')"), [[join(limits.tempParent, folders[0]!)]]);
  t.deepEqual(await rows(next.conn, 'SELECT n FROM only_b'), [[1]], 'the spare attached the warehouse it was asked for');
  t.deepEqual(await rows(next.conn, 'SELECT database_name FROM duckdb_databases() ORDER BY 1'), [['system'], ['temp'], ['wh']]);
  t.regex(String(await rows(next.conn, 'SET enable_external_access = true')), /configuration has been locked/);
  t.regex(String(await rows(next.conn, "SELECT count(*) FROM read_csv('/etc/passwd')")), /disabled by configuration/);
  t.regex(String(await rows(next.conn, 'CREATE TABLE leak AS SELECT 1')), /read-only/);
});

test.serial('a spare made for another thread count is not used: the session gets the threads it asked for', async (t) => {
  const limits = limitsFor(t);
  const path = (await duckdbFixture()).path!;
  await prepareSpare(limits, 1);
  const spareFolder = readdirSync(limits.tempParent)[0]!;
  const lease = await leaseDuckDb(openOf(path, 2), limits);
  t.teardown(() => lease.close());
  t.deepEqual(await rows(lease.conn, "SELECT current_setting('threads')"), [[2n]]);
  t.notDeepEqual(await rows(lease.conn, "SELECT current_setting('temp_directory')"), [[join(limits.tempParent, spareFolder)]]);
});
