// The COPY paths of CSV exports (PostgreSQL's and DuckDB's) run the governed statement: the guard, the
// caller's row filters and the query log hold on them as on the row writer's path.
import test from 'ava';
import { Writable } from 'node:stream';
import { sqliteExecutor } from '../../../src/store/index.ts';
import { getUser, principalFor, type UserRow } from '../../../src/auth/index.ts';
import { QueryRefused } from '../../../src/data/errors.ts';
import { copyQueryCsv } from '../../../src/data/query/index.ts';
import { setUserAttributes } from '../../../src/data/rls/index.ts';
import { createMemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import { startTestApp } from '../../helpers/app.ts';
import { duckdbFixture, placeOrgFile, postgresFixture, SKIP_PG, tempDir } from '../warehouses.ts';

class Collect extends Writable {
  chunks: Buffer[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.chunks.push(chunk);
    cb();
  }
}

test('a PostgreSQL CSV export through COPY keeps the guard, the row filters and the query log', async (t) => {
  const f = await postgresFixture();
  if (!f) return t.pass(SKIP_PG);
  const docs = createMemoryTableDocs();
  const app = await startTestApp({}, { tableDocs: docs });
  const org = app.org();
  try {
    const admin = app.user({ orgId: org, role: 'admin' });
    const user = app.user({ orgId: org });
    await setUserAttributes(app.app.services.executor, org, user.id, { country: 'France' });
    const auth = { authorization: `Bearer ${app.session(admin)}`, 'content-type': 'application/json' };
    t.is((await app.fetch('/api/connections', { method: 'POST', headers: auth, body: JSON.stringify({ id: 'wh', name: 'wh', type: 'postgresql', settings: f.settings }) })).status, 201);
    docs.setTables(org, undefined, [{ connection: 'wh', schema: 'public', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] }]);
    const db = app.app.services.store.sqlite!;
    const as = async (who: UserRow) => (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), who.id))!, org, 'session', []))!;
    const args = async (who: UserRow, sql: string) => ({ principal: await as(who), environmentId: undefined, connectionId: 'wh', sql, source: 'download_csv' });

    const copy = await copyQueryCsv(app.app.services.data, await args(user, 'SELECT order_id, country, total_amount FROM orders ORDER BY order_id'));
    t.truthy(copy, 'COPY takes this result');
    t.regex(copy!.executedSql, /'France'/);
    const out = new Collect();
    t.is((await copy!.write(out)).rows, 2);
    t.is(Buffer.concat(out.chunks).toString(), 'order_id,country,total_amount\r\n2,France,20.00\r\n5,France,5.00\r\n');
    const logged = db.prepare("SELECT status, row_count FROM query_log WHERE user_id = ? AND source = 'download_csv' ORDER BY rowid DESC LIMIT 1").get(user.id);
    t.deepEqual(logged, { status: 'ok', row_count: 2 });

    // A table that is not a governed source is refused before anything runs, as on every path.
    await t.throwsAsync(copyQueryCsv(app.app.services.data, await args(user, 'SELECT * FROM customers')), { instanceOf: QueryRefused });
    // A result COPY would write differently goes back to the row writer: nothing logged for it here.
    t.is(await copyQueryCsv(app.app.services.data, await args(admin, 'SELECT 1.5::float8 AS f')), undefined);
  } finally {
    await app.stop();
    await f.drop();
  }
});

/** 300,000 rows: three of DuckDB's row groups, so the export's two threads scan in parallel. */
const BIG = [
  `CREATE TABLE big AS SELECT i AS id, CASE WHEN i % 3 = 0 THEN 'France' ELSE 'Germany' END AS country,
     ['=1+1', '+x', '-x', '@x', chr(9) || 'x', chr(13) || 'x', 'plain', ''][i % 8 + 1] AS note FROM range(300000) t(i)`,
  "CREATE TYPE mood AS ENUM ('=sad', 'ok')",
  `CREATE TABLE typed (t VARCHAR, m mood, j JSON, n INTEGER, d DECIMAL(6, 2), b BOOLEAN, day DATE, u VARCHAR)`,
  `INSERT INTO typed VALUES ('-1', '=sad', '-1', -5, -1.50, true, DATE '2024-01-02', 'éa'), ('@a', 'ok', '[1]', 3, 2.00, false, NULL, NULL)`,
];

test('a DuckDB CSV export keeps the row filters, the fence before them, ORDER BY and the query log', async (t) => {
  const root = tempDir();
  const docs = createMemoryTableDocs();
  const app = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  const org = app.org();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture(BIG)).path!);
  try {
    const admin = app.user({ orgId: org, role: 'admin' });
    const user = app.user({ orgId: org });
    await setUserAttributes(app.app.services.executor, org, user.id, { country: 'France' });
    const auth = { authorization: `Bearer ${app.session(admin)}`, 'content-type': 'application/json' };
    t.is((await app.fetch('/api/connections', { method: 'POST', headers: auth, body: JSON.stringify({ id: 'wh', name: 'wh', type: 'duckdb', settings: { path: 'wh.duckdb' } }) })).status, 201);
    docs.setTables(org, undefined, [
      { connection: 'wh', schema: 'main', name: 'big', active: true, row_filters: [{ filter: 'country = {{user.country}}' }] },
      { connection: 'wh', schema: 'main', name: 'typed', active: true },
    ]);
    const db = app.app.services.store.sqlite!;
    const principal = (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), user.id))!, org, 'session', []))!;
    const exported = async (sql: string) => {
      const copy = await copyQueryCsv(app.app.services.data, { principal, environmentId: undefined, connectionId: 'wh', sql, source: 'download_csv' });
      t.truthy(copy, 'COPY takes this result');
      const out = new Collect();
      const { rows } = await copy!.write(out);
      const lines = Buffer.concat(out.chunks).toString().split('\r\n');
      t.is(lines.pop(), '');
      return { rows, header: lines[0], lines: lines.slice(1) };
    };
    const france = Array.from({ length: 100_000 }, (_, k) => 300_000 - 3 - 3 * k);

    // ORDER BY holds over three row groups, sorted on two threads (export-threads.ts): the rows come out in its order, and only the caller's.
    const ordered = await exported('SELECT id, country FROM big ORDER BY id DESC');
    t.is(ordered.header, 'id,country');
    t.is(ordered.rows, 100_000);
    t.deepEqual(ordered.lines.map((l) => Number(l.split(',')[0])), france);
    t.true(ordered.lines.every((l) => l.endsWith(',France')));

    // Without ORDER BY the rows come in the table's order, as the result on screen shows them.
    const unordered = await exported('SELECT id FROM big');
    t.deepEqual(unordered.lines.map(Number), [...france].reverse());

    // The caller's predicate still runs above the row filter: a cast that fails on any hidden row never sees one.
    const fenced = await exported("SELECT count(*) AS n FROM big WHERE CAST(CASE WHEN country = 'France' THEN '1' ELSE 'x' END AS INTEGER) = 1");
    t.deepEqual(fenced.lines, ['100000']);

    // Text made inert for spreadsheets, a value per formula start, on every row.
    const notes = await exported('SELECT id, note FROM big WHERE id < 24 ORDER BY id');
    t.deepEqual(
      notes.lines.map((l) => l.split(',').slice(1).join(',')),
      // ids 0, 3, ..., 21: notes 0, 3, 6, 1, 4, 7, 2, 5 of the list (an empty text is DuckDB's quoted "").
      ["'=1+1", "'@x", 'plain', "'+x", "'\tx", '""', "'-x", '"\'\rx"'],
    );
    const logged = db.prepare("SELECT status, row_count FROM query_log WHERE user_id = ? AND source = 'download_csv' ORDER BY rowid DESC LIMIT 1").get(user.id);
    t.deepEqual(logged, { status: 'ok', row_count: 8 });

    // Per column type: VARCHAR, ENUM and JSON text is neutralised; numbers, dates, booleans and NULL are as DuckDB writes them.
    const typed = await exported('SELECT * FROM typed ORDER BY n');
    t.is(typed.header, 't,m,j,n,d,b,day,u');
    t.deepEqual(typed.lines, ["'-1,'=sad,'-1,-5,-1.50,true,2024-01-02,éa", "'@a,ok,[1],3,2.00,false,,"]);
  } finally {
    await app.stop();
  }
});
