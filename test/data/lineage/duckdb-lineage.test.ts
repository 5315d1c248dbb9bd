import { DuckDBInstance } from '@duckdb/node-api';
import test from 'ava';
import { columnLineage, schemaLookupFrom, tablesOf, type LineageResult } from '../../../src/data/lineage/index.ts';

const demo = schemaLookupFrom({
  'main.customers': ['customer_id', 'name', 'email', 'country', 'city', 'segment', 'signup_date'],
  'main.orders': ['order_id', 'customer_id', 'order_date', 'status', 'channel', 'total_amount'],
});

function flat(r: LineageResult): Record<string, string[]> {
  return Object.fromEntries(r.columns.map((c) => [c.name, c.sources.map((s) => `${s.table}.${s.column}`).sort()]));
}

const lineage = (sql: string) => columnLineage(sql, 'duckdb', demo);

test('DuckDB star EXCLUDE and REPLACE are expanded with the schema lookup', async (t) => {
  const r = await lineage("SELECT * EXCLUDE (email, city) REPLACE (upper(name) AS name, signup_date + 1 AS signup_date) FROM customers");
  t.deepEqual(r.columns.map((c) => c.name), ['customer_id', 'name', 'country', 'segment', 'signup_date']);
  t.deepEqual(flat(r)['name'], ['customers.name']);
  t.true(r.columns[1]!.transformed);
  t.false(r.columns[0]!.transformed);
});

test('DuckDB FROM-first queries, QUALIFY and GROUP BY ALL are traced', async (t) => {
  const r = await lineage(`
    FROM main.orders o JOIN main.customers c USING (customer_id)
    SELECT c.country, sum(o.total_amount) AS revenue, max(o.order_date) AS last_order
    GROUP BY ALL
    QUALIFY row_number() OVER (ORDER BY revenue DESC) <= 3`);
  t.deepEqual(flat(r), {
    country: ['main.customers.country'],
    revenue: ['main.orders.total_amount'],
    last_order: ['main.orders.order_date'],
  });
  t.deepEqual(r.unresolved, []);
});

test('DuckDB lambda parameters are not mistaken for columns', async (t) => {
  const r = await columnLineage('SELECT list_transform(t.tags, lambda x: x || t.suffix) AS tagged FROM t', 'duckdb');
  t.deepEqual(flat(r), { tagged: ['t.suffix', 't.tags'] });
  t.deepEqual(r.unresolved, []);
});

test('DuckDB table functions are not source tables, and fully qualified columns resolve', async (t) => {
  const sql = "SELECT f.a, main.orders.status FROM read_csv('data.csv') f, main.orders";
  const r = await lineage(sql);
  t.deepEqual(flat(r), { a: [], status: ['main.orders.status'] });
  t.deepEqual(await tablesOf(sql, 'duckdb'), ['main.orders']);
});

test('DuckDB struct field access traces to the struct column', async (t) => {
  const r = await columnLineage('SELECT e.payload.user.id AS uid FROM events e', 'duckdb');
  t.deepEqual(flat(r), { uid: ['events.payload'] });
  t.true(r.columns[0]!.transformed);
});

test('DuckDB CTEs, recursive CTEs, set operations and PIVOT sources are listed', async (t) => {
  const sql = `
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3),
    x AS (SELECT * FROM sales PIVOT (sum(amount) FOR quarter IN ('q1', 'q2')))
    SELECT i FROM n UNION SELECT 1 FROM x UNION SELECT order_id FROM orders`;
  t.deepEqual((await tablesOf(sql, 'duckdb')).sort(), ['orders', 'sales']);
  const r = await lineage(sql);
  t.deepEqual(flat(r), { i: ['orders.order_id'] });
});

test('a caller-supplied DuckDB connection is used for parsing', async (t) => {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    const r = await columnLineage('SELECT o.total_amount * 2 AS double FROM orders o', 'duckdb', undefined, { duckdb: conn });
    t.deepEqual(flat(r), { double: ['orders.total_amount'] });
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
});
