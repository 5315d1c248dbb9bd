import { DuckDBInstance } from '@duckdb/node-api';
import test from 'ava';
import ExcelJS from 'exceljs';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { queryUploads, UploadQueryFailed, UploadQueryRefused, type UploadQueryOptions } from '../../../src/data/uploads/index.ts';
import { DEFAULT_QUERY_MEMORY_MB } from '../../../src/data/drivers/driver.ts';
import { HANG_MS } from '../../helpers/patience.ts';
import { QueryProcessPool } from '../../../src/data/drivers/process/query-process-pool.ts';
import type { QueryCancelled, QueryTimedOut } from '../../../src/data/errors.ts';

let root: string;
// The gateway runs upload queries on its pool of query processes (each query a DuckDB session of its
// own); so do these tests, where a process started per query (~1 s of CPU each, ~35 of them) was most
// of the file's time. Not the tests of a process's own limits and leftovers, which bring their own.
let pool: QueryProcessPool;
/** queryUploads on the file's pool; a lease waits as long as a busy machine takes (patience.ts). */
const onPool = (sessionDir: string, sql: string, options: UploadQueryOptions = {}) => queryUploads(sessionDir, sql, { processes: pool, timeoutMs: HANG_MS, ...options });
let dir: string;
let sibling: string;

test.before(async () => {
  pool = new QueryProcessPool({ max: 2, perOwner: 2, memoryMb: DEFAULT_QUERY_MEMORY_MB });
  root = mkdtempSync(join(tmpdir(), 'sextant-q-'));
  dir = join(root, 'uploads', 'acme', 'u1__c1');
  sibling = join(root, 'uploads', 'acme', 'u1__c1x');
  mkdirSync(join(dir, 'archive', 'sales'), { recursive: true });
  mkdirSync(sibling, { recursive: true });
  writeFileSync(join(sibling, 'secret.csv'), 'secret\nhunter2\n');
  writeFileSync(join(root, 'outside.csv'), 'secret\nhunter2\n');
  writeFileSync(join(dir, 'orders.csv'), 'id,amount,day\n1,10.5,2024-01-01\n2,20,2024-01-02\n3,30,2024-01-03\n');
  writeFileSync(join(dir, 'people.tsv'), 'name\tage\nada\t36\nalan\t41\n');
  writeFileSync(join(dir, 'events.json'), '[{"kind":"click","n":3},{"kind":"view","n":5}]');
  writeFileSync(join(dir, 'archive', 'sales', 'q1.csv'), 'region,amount\nnorth,10\n');
  writeFileSync(join(dir, 'notes.txt'), 'not a table');
  writeFileSync(join(dir, 'broken.json'), '{not json');
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await conn.run(`COPY (SELECT range AS k, range * 2 AS v FROM range(100)) TO '${join(dir, 'metrics.parquet')}' (FORMAT parquet)`);
  conn.closeSync();
  instance.closeSync();
  const wb = new ExcelJS.Workbook();
  const first = wb.addWorksheet('Budget');
  first.addRow(['team', 'amount', 'approved', 'since']);
  first.addRow(['data', 1200.5, true, new Date('2024-03-01T00:00:00Z')]);
  first.addRow(['ops', { formula: 'B2*2', result: 2401 }, false, new Date('2024-04-01T00:00:00Z')]);
  const second = wb.addWorksheet('Notes');
  second.addRow(['note', 'note']);
  second.addRow([{ richText: [{ text: 'rich ' }, { text: 'text' }] }, 'dup header']);
  await wb.xlsx.writeFile(join(dir, 'Plan 2024.xlsx'));
});

test.after.always(async () => {
  await pool.close();
  rmSync(root, { recursive: true, force: true });
});

test('each data file is a table named after it, in every accepted format', async (t) => {
  const r = await onPool(dir, 'SELECT 1');
  t.deepEqual(
    r.tables.filter((x) => !x.error).map((x) => [x.name, x.file, x.kind]),
    [
      ['plan_2024', 'Plan 2024.xlsx', 'xlsx'],
      ['plan_2024_notes', 'Plan 2024.xlsx', 'xlsx'],
      ['q1', 'archive/sales/q1.csv', 'csv'],
      ['events', 'events.json', 'json'],
      ['metrics', 'metrics.parquet', 'parquet'],
      ['orders', 'orders.csv', 'csv'],
      ['people', 'people.tsv', 'tsv'],
    ],
  );
  t.is(r.tables.find((x) => x.file === 'broken.json')?.name, '');
  t.truthy(r.tables.find((x) => x.file === 'broken.json')?.error);
  const q = await onPool(dir, 'SELECT (SELECT sum(amount) FROM orders) AS o, (SELECT max(age) FROM people) AS p, (SELECT sum(n) FROM events) AS e, (SELECT sum(v) FROM metrics) AS m, (SELECT amount FROM q1) AS q');
  t.deepEqual(q.columns.map((c) => c.name), ['o', 'p', 'e', 'm', 'q']);
  t.deepEqual(q.rows, [[60.5, 41n, 8n, 9900n, 10n]]);
});

test('spreadsheet sheets keep numbers, booleans, dates, formula results and rich text', async (t) => {
  const r = await onPool(dir, 'SELECT * FROM plan_2024 ORDER BY team');
  t.deepEqual(r.columns, [
    { name: 'team', type: 'VARCHAR' },
    { name: 'amount', type: 'DOUBLE' },
    { name: 'approved', type: 'BOOLEAN' },
    { name: 'since', type: 'TIMESTAMP' },
  ]);
  t.deepEqual(r.rows, [
    ['data', 1200.5, true, new Date('2024-03-01T00:00:00Z')],
    ['ops', 2401, false, new Date('2024-04-01T00:00:00Z')],
  ]);
  const notes = await onPool(dir, 'SELECT * FROM plan_2024_notes');
  t.deepEqual(notes.columns.map((c) => c.name), ['note', 'note_2']);
  t.deepEqual(notes.rows, [['rich text', 'dup header']]);
});

test('workbooks above the size cap are listed with a reason instead of being loaded', async (t) => {
  const r = await onPool(dir, 'SELECT 1', { maxXlsxBytes: 100 });
  const plan = r.tables.find((x) => x.file === 'Plan 2024.xlsx');
  t.is(plan?.name, '');
  t.regex(plan?.error ?? '', /larger than 100 bytes/);
});

test('results are capped at maxRows and say so', async (t) => {
  const r = await onPool(dir, 'SELECT * FROM metrics', { maxRows: 10 });
  t.is(r.rowCount, 10);
  t.true(r.truncated);
  t.false((await onPool(dir, 'SELECT * FROM metrics', { maxRows: 100 })).truncated);
});

const refused = [
  "COPY orders TO '/tmp/x.csv'",
  'CREATE TABLE t AS SELECT 1',
  'INSERT INTO orders VALUES (1, 1, NULL)',
  "ATTACH '/tmp/x.duckdb' AS x",
  'DETACH memory',
  "SET allowed_directories = ['/']",
  'SET enable_external_access = true',
  'INSTALL excel',
  'LOAD httpfs',
  'CALL pragma_version()',
  'SELECT 1; SELECT 2',
  "SELECT 1; COPY orders TO '/tmp/y.csv'",
  'DROP VIEW orders',
  "EXPORT DATABASE '/tmp/x'",
];

for (const sql of refused) {
  test(`refuses a statement that is not one SELECT: ${sql}`, async (t) => {
    const err = await t.throwsAsync(onPool(dir, sql), { instanceOf: UploadQueryRefused });
    t.is(err?.code, 'QUERY_REFUSED');
  });
}

test('files outside the session folder cannot be read, not even a sibling folder sharing its prefix', async (t) => {
  for (const path of [join(root, 'outside.csv'), join(sibling, 'secret.csv'), `${dir}/../u1__c1x/secret.csv`, '/etc/passwd', '../outside.csv']) {
    const err = await t.throwsAsync(onPool(dir, `SELECT * FROM read_csv('${path}')`), { instanceOf: UploadQueryFailed }, path);
    t.is(err?.code, 'QUERY_FAILED');
  }
  await t.throwsAsync(onPool(dir, "SELECT * FROM read_text('/etc/hostname')"), { instanceOf: UploadQueryFailed });
  await t.throwsAsync(onPool(dir, "SELECT * FROM read_csv('https://example.com/x.csv')"), { instanceOf: UploadQueryFailed });
});

test("the engine's temporary folder is the query's own: DuckDB's shared default cannot be read, and the folder is gone afterwards", async (t) => {
  // `.tmp` in the working directory is where every other DuckDB session of the process spills.
  for (const sql of ["SELECT * FROM glob('.tmp/*')", `SELECT * FROM glob('${join(process.cwd(), '.tmp')}/*')`]) {
    await t.throwsAsync(queryUploads(dir, sql, { timeoutMs: HANG_MS }), { instanceOf: UploadQueryFailed }, sql);
  }
  // A process of its own, started per query: on a busy machine its start alone took over the default 30 s.
  const r = await queryUploads(dir, "SELECT current_setting('temp_directory')", { timeoutMs: HANG_MS });
  const spill = String(r.rows[0]![0]);
  // Inside the query process's own private folder, which goes with the process.
  t.regex(spill, /\/sextant-query-[^/]+\/uploads-[^/]+$/);
  t.true(spill.startsWith(tmpdir()), spill);
  t.false(existsSync(spill));
});

test.serial('a hostile upload query runs off the event loop and is stopped within its timeout + 1 s, the pool working on', async (t) => {
  const pool = new QueryProcessPool({ max: 2, memoryMb: 512 });
  t.teardown(() => pool.close());
  // The event loop's lag, sampled all along: a query on the gateway's thread would hold it for its whole time
  // (the 800 ms timeout at least). A loaded 2-core machine shows pauses of 100-150 ms of its own (GC, scheduling).
  let worstLagMs = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    worstLagMs = Math.max(worstLagMs, now - last - 10);
    last = now;
  }, 10);
  t.teardown(() => clearInterval(ticker));
  const bombs = ["SELECT max(length(repeat('x', 1000000) || a.id::VARCHAR)) FROM orders a, metrics b, metrics c, metrics d, metrics e", 'SELECT count(*) FROM metrics a, metrics b, metrics c, metrics d, metrics e, metrics f'];
  for (const sql of bombs) {
    // A warm process waits (a start is not the query's time), as in a running gateway.
    t.deepEqual((await queryUploads(dir, 'SELECT count(*) FROM orders', { processes: pool })).rows, [[3n]]);
    const started = performance.now();
    const err = await t.throwsAsync(queryUploads(dir, sql, { processes: pool, timeoutMs: 800 }));
    t.is((err as QueryTimedOut).code, 'QUERY_TIMEOUT', sql);
    t.true(performance.now() - started < 800 + 1000, `took ${performance.now() - started} ms`);
  }
  t.true(worstLagMs < 400, `event loop held ${worstLagMs} ms`);
  t.deepEqual((await queryUploads(dir, 'SELECT count(*) FROM orders', { processes: pool })).rows, [[3n]]);
});

test.serial('an upload query stops as soon as its caller goes away', async (t) => {
  const pool = new QueryProcessPool({ max: 1, memoryMb: 512 });
  t.teardown(() => pool.close());
  await queryUploads(dir, 'SELECT 1', { processes: pool });
  const abort = new AbortController();
  const running = queryUploads(dir, 'SELECT count(*) FROM metrics a, metrics b, metrics c, metrics d, metrics e, metrics f', { processes: pool, signal: abort.signal, timeoutMs: 30_000 });
  setTimeout(() => abort.abort(), 300);
  const started = performance.now();
  const err = await t.throwsAsync(running);
  t.is((err as QueryCancelled).code, 'QUERY_CANCELLED');
  t.true(performance.now() - started < 2000);
  t.deepEqual(pool.size.busy, 0);
});

test('files inside the session folder can be read by path too', async (t) => {
  const r = await onPool(dir, `SELECT count(*) FROM read_csv('${join(dir, 'orders.csv')}')`);
  t.deepEqual(r.rows, [[3n]]);
});

test('a session without uploads still answers queries that need no files', async (t) => {
  const r = await onPool(join(root, 'nothing-here'), 'SELECT 42 AS answer');
  t.deepEqual(r.rows, [[42]]);
  t.deepEqual(r.tables, []);
});

test('SQL errors come back as typed failures', async (t) => {
  await t.throwsAsync(onPool(dir, 'SELECT nope FROM orders'), { instanceOf: UploadQueryFailed });
  await t.throwsAsync(onPool(dir, 'SELEC 1'), { instanceOf: UploadQueryFailed });
});
