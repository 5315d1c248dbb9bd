import test from 'ava';
import { QueryRefused } from '../../../src/data/errors.ts';
import { guardSql, openDuckDbSql, type DuckDbSql } from '../../../src/data/guard/index.ts';
import type { SqlDialect } from '../../../src/data/types.ts';
import { CORPUS, LEGIT } from './corpus.ts';

let duckdb: DuckDbSql;
test.before(async () => {
  duckdb = await openDuckDbSql();
});
test.after.always(() => duckdb.close());

const dialects = Object.keys(CORPUS) as SqlDialect[];

test('the hostile corpus holds at least 60 statements across dialects', (t) => {
  t.true(dialects.reduce((n, d) => n + CORPUS[d].length, 0) >= 60);
});

for (const dialect of dialects) {
  test(`${dialect}: every hostile statement is refused with a typed reason`, async (t) => {
    for (const sql of CORPUS[dialect]) {
      const err = await t.throwsAsync(guardSql({ sql, dialect, tools: { duckdb } }), { instanceOf: QueryRefused }, `${dialect}: ${sql}`);
      t.is(err?.code, 'QUERY_REFUSED');
      t.truthy(err?.reason);
    }
  });

  test(`${dialect}: legitimate analytical queries are accepted`, async (t) => {
    for (const sql of LEGIT[dialect]) {
      await t.notThrowsAsync(guardSql({ sql, dialect, tools: { duckdb } }), `${dialect}: ${sql}`);
    }
  });
}

test('the guard lists the base tables a query reads, without CTE names', async (t) => {
  const q = await guardSql({
    dialect: 'postgresql',
    sql: 'WITH t AS (SELECT * FROM public.orders) SELECT * FROM t JOIN customers c ON true WHERE c.customer_id IN (SELECT customer_id FROM "Archive")',
    tools: {},
  });
  t.deepEqual(q.tables.map((x) => `${x.schema ?? ''}.${x.name}`).sort(), ['.Archive', '.customers', 'public.orders']);
  const d = await guardSql({ dialect: 'duckdb', sql: 'WITH t AS (FROM main.orders) SELECT * FROM t, customers', tools: { duckdb } });
  t.deepEqual(d.tables.map((x) => `${x.schema ?? ''}.${x.name}`).sort(), ['.customers', 'main.orders']);
});

test('refusals name the reason the agent can act on', async (t) => {
  const reasons = async (dialect: SqlDialect, sql: string) => ((await t.throwsAsync(guardSql({ sql, dialect, tools: { duckdb } }))) as QueryRefused).reason;
  t.is(await reasons('postgresql', 'SELECT 1; SELECT 2'), 'multiple_statements');
  t.is(await reasons('duckdb', 'SELECT 1; SELECT 2'), 'multiple_statements');
  t.is(await reasons('postgresql', 'DELETE FROM orders'), 'not_select');
  t.is(await reasons('duckdb', 'DELETE FROM orders'), 'not_select');
  t.is(await reasons('duckdb', "SELECT * FROM read_csv('x')"), 'table_function');
  t.is(await reasons('postgresql', "SELECT pg_read_file('x')"), 'forbidden_function');
  t.is(await reasons('mysql', 'SELECT * FROM mysql.user'), 'system_catalog');
});

// DuckDB parses on a thread of libuv's pool: closing the instance under a parse crashed the gateway
// with SIGSEGV when SIGTERM came while a request was being guarded (shutdown-during-query.test.ts).
test('closing the parse-only session waits for a parse under way, then refuses new work', async (t) => {
  const session = await openDuckDbSql();
  await session.count('SELECT 1');
  const parsing = session.count('SELECT 1' + ' UNION ALL SELECT 1'.repeat(5_000));
  await session.close();
  t.is(await parsing, 1);
  await t.throwsAsync(() => session.count('SELECT 1'), { message: /closed/ });
});
