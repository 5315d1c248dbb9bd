import test from 'ava';
import { columnLineage, NotASingleSelect, schemaLookupFrom, SqlParseFailed, tablesOf, type LineageDialect, type LineageResult } from '../../../src/data/lineage/index.ts';
import { loadCorpus } from '../corpus/corpus-warehouse.ts';

const demo = schemaLookupFrom({
  'main.customers': ['customer_id', 'name', 'email', 'country', 'city', 'segment', 'signup_date'],
  'main.orders': ['order_id', 'customer_id', 'order_date', 'status', 'channel', 'total_amount'],
  'main.order_items': ['order_item_id', 'order_id', 'product_id', 'quantity', 'unit_price', 'discount'],
  'main.products': ['product_id', 'name', 'category', 'subcategory', 'unit_price', 'cost'],
});

/** `{ output: ['table.column', ...] }`, sorted, for compact assertions. */
function flat(r: LineageResult): Record<string, string[]> {
  return Object.fromEntries(r.columns.map((c) => [c.name, c.sources.map((s) => `${s.table}.${s.column}`).sort()]));
}

const lineage = (sql: string, dialect: LineageDialect = 'postgresql', lookup = demo) => columnLineage(sql, dialect, lookup);

test('a renamed column traces to its source and is not marked transformed', async (t) => {
  const r = await lineage('SELECT o.order_id AS id, status FROM orders o');
  t.deepEqual(flat(r), { id: ['orders.order_id'], status: ['orders.status'] });
  t.deepEqual(r.columns.map((c) => c.transformed), [false, false]);
  t.deepEqual(r.columns.map((c) => c.index), [0, 1]);
});

test('an expression traces to every column it uses and is marked transformed', async (t) => {
  const r = await lineage('SELECT SUM(oi.quantity * oi.unit_price * (1 - oi.discount)) AS revenue FROM order_items oi');
  t.deepEqual(flat(r), { revenue: ['order_items.discount', 'order_items.quantity', 'order_items.unit_price'] });
  t.true(r.columns[0]!.transformed);
});

test('unqualified columns in a join are attributed through the schema lookup', async (t) => {
  const r = await lineage('SELECT country, order_date, total_amount FROM main.orders o JOIN main.customers c ON c.customer_id = o.customer_id');
  t.deepEqual(flat(r), {
    country: ['main.customers.country'],
    order_date: ['main.orders.order_date'],
    total_amount: ['main.orders.total_amount'],
  });
});

test('without a schema an ambiguous unqualified column names every candidate table', async (t) => {
  const r = await columnLineage('SELECT country FROM a JOIN b ON a.id = b.id', 'postgresql');
  t.deepEqual(flat(r), { country: ['a.country', 'b.country'] });
});

test('lineage follows chained CTEs, their column lists and aliases', async (t) => {
  const sql = `
    WITH per_customer(cid, spent) AS (
      SELECT customer_id, SUM(total_amount) FROM orders GROUP BY customer_id
    ), ranked AS (
      SELECT p.cid, p.spent, c.country AS nation FROM per_customer p JOIN customers c ON c.customer_id = p.cid
    )
    SELECT nation, spent AS lifetime_value, cid FROM ranked`;
  const r = await lineage(sql);
  t.deepEqual(flat(r), { nation: ['customers.country'], lifetime_value: ['orders.total_amount'], cid: ['orders.customer_id'] });
  t.deepEqual(r.columns.map((c) => c.transformed), [false, true, false]);
  t.deepEqual(r.tables.sort(), ['customers', 'orders']);
});

test('lineage follows subqueries in FROM, scalar subqueries and correlated references', async (t) => {
  const sql = `
    SELECT s.cat, s.n,
      (SELECT MAX(p2.unit_price) FROM products p2 WHERE p2.category = s.cat) AS top_price
    FROM (SELECT category AS cat, COUNT(*) AS n FROM products GROUP BY category) s`;
  const r = await lineage(sql);
  t.deepEqual(flat(r), { cat: ['products.category'], n: [], top_price: ['products.unit_price'] });
  t.false(r.columns[0]!.transformed);
});

test('a set operation unions the sources position by position, named by the first branch', async (t) => {
  const r = await lineage('SELECT name, email FROM customers UNION ALL SELECT name, category FROM products EXCEPT SELECT city, NULL FROM customers');
  t.deepEqual(flat(r), {
    name: ['customers.city', 'customers.name', 'products.name'],
    email: ['customers.email', 'products.category'],
  });
});

test('a star is expanded with the schema lookup and left as table.* without it', async (t) => {
  const known = await lineage('SELECT p.*, o.* FROM products p CROSS JOIN (SELECT order_id FROM orders) o');
  t.deepEqual(
    known.columns.map((c) => c.name),
    ['product_id', 'name', 'category', 'subcategory', 'unit_price', 'cost', 'order_id'],
  );
  t.deepEqual(known.columns[1]!.sources, [{ table: 'products', column: 'name' }]);
  const unknown = await columnLineage('SELECT * FROM warehouse.sales s', 'postgresql');
  t.deepEqual(flat(unknown), { '*': ['warehouse.sales.*'] });
});

test('a star over a USING join shows the join column once, from both tables', async (t) => {
  for (const dialect of ['postgresql', 'mysql', 'duckdb'] as const) {
    const r = await columnLineage('SELECT * FROM main.orders JOIN main.customers USING (customer_id)', dialect, demo);
    t.is(r.columns.filter((c) => c.name === 'customer_id').length, 1, dialect);
    t.deepEqual(flat(r)['customer_id'], ['main.customers.customer_id', 'main.orders.customer_id'], dialect);
    t.is(r.columns.length, 6 + 7 - 1, dialect);
  }
});

test('CASE, CAST, COALESCE and window functions keep every column they read', async (t) => {
  const sql = `
    SELECT CASE WHEN o.status = 'completed' THEN o.total_amount ELSE 0 END AS paid,
           CAST(o.order_date AS text) AS day,
           COALESCE(c.city, c.country)::text AS place,
           SUM(o.total_amount) OVER (PARTITION BY o.channel ORDER BY o.order_date) AS running
    FROM orders o LEFT JOIN customers c USING (customer_id)`;
  const r = await lineage(sql);
  t.deepEqual(flat(r), {
    paid: ['orders.status', 'orders.total_amount'],
    day: ['orders.order_date'],
    place: ['customers.city', 'customers.country'],
    running: ['orders.channel', 'orders.order_date', 'orders.total_amount'],
  });
  t.true(r.columns.every((c) => c.transformed));
});

test('a recursive CTE traces through its anchor', async (t) => {
  const sql = `
    WITH RECURSIVE days(d) AS (
      SELECT MIN(order_date) FROM orders
      UNION ALL SELECT d + 1 FROM days WHERE d < DATE '2022-02-01'
    ) SELECT d AS day FROM days`;
  const r = await lineage(sql);
  t.deepEqual(flat(r), { day: ['orders.order_date'] });
  t.deepEqual(r.tables, ['orders']);
});

test('a CTE shadows a table of the same name and is not listed as a table', async (t) => {
  const sql = 'WITH orders AS (SELECT customer_id AS who FROM main.orders) SELECT who FROM orders';
  const r = await lineage(sql);
  t.deepEqual(flat(r), { who: ['main.orders.customer_id'] });
  t.deepEqual(await tablesOf(sql, 'postgresql'), ['main.orders']);
});

test('tablesOf lists tables read in WHERE subqueries, EXISTS, joins and unused CTEs', async (t) => {
  const sql = `
    WITH unused AS (SELECT 1 FROM audit.secrets)
    SELECT o.order_id FROM sales.orders o JOIN customers c ON c.customer_id = o.customer_id
    WHERE o.customer_id IN (SELECT customer_id FROM vip)
      AND EXISTS (SELECT 1 FROM returns r WHERE r.order_id = o.order_id)`;
  t.deepEqual((await tablesOf(sql, 'postgresql')).sort(), ['audit.secrets', 'customers', 'returns', 'sales.orders', 'vip']);
});

test('tables inside parenthesized joins are found (PostgreSQL and MySQL; the SQLite grammar has none)', async (t) => {
  for (const dialect of ['postgresql', 'mysql'] as const) {
    const sql = 'SELECT t1.a, t2.b FROM (t1 JOIN t2 ON t1.id = t2.id) JOIN t3 ON t3.id = t1.id';
    t.deepEqual((await tablesOf(sql, dialect)).sort(), ['t1', 't2', 't3'], dialect);
    t.deepEqual(flat(await columnLineage(sql, dialect)), { a: ['t1.a'], b: ['t2.b'] }, dialect);
  }
  t.deepEqual((await tablesOf('SELECT 1 FROM ((t3))', 'postgresql')), ['t3']);
});

test('the parser\'s own table list backs up the walk, minus CTE names', async (t) => {
  // CTE names never leak into the table list, however deeply the CTE is nested.
  const sql = 'SELECT * FROM (WITH inner_cte AS (SELECT 1 AS x FROM real_table) SELECT x FROM inner_cte) s';
  t.deepEqual(await tablesOf(sql, 'postgresql'), ['real_table']);
});

test('VALUES lists with column aliases and table functions are not source tables', async (t) => {
  const r = await columnLineage("SELECT v.p, g.i FROM (VALUES (1, 'a')) v(p, q), generate_series(1, 3) g(i)", 'postgresql');
  t.deepEqual(flat(r), { p: [], i: [] });
  t.deepEqual(r.tables, []);
});

test('references that match no relation are reported as unresolved', async (t) => {
  const r = await lineage('SELECT x.nope, o.order_id FROM orders o');
  t.deepEqual(r.unresolved, ['x.nope']);
  t.deepEqual(flat(r), { nope: [], order_id: ['orders.order_id'] });
});

test('MySQL backtick identifiers and MariaDB queries are understood', async (t) => {
  const r = await columnLineage('SELECT `o`.`total_amount` AS `amt`, DATE_FORMAT(o.order_date, "%Y") AS yr FROM `shop`.`orders` `o`', 'mysql');
  t.deepEqual(flat(r), { amt: ['shop.orders.total_amount'], yr: ['shop.orders.order_date'] });
  const m = await columnLineage('SELECT c.city FROM customers c WHERE c.segment = "consumer"', 'mariadb');
  t.deepEqual(flat(m), { city: ['customers.city'] });
});

test('SQLite queries are understood', async (t) => {
  const r = await columnLineage("SELECT strftime('%Y', signup_date) AS yr, COUNT(*) AS n FROM customers GROUP BY 1", 'sqlite');
  t.deepEqual(flat(r), { yr: ['customers.signup_date'], n: [] });
});

test('statements other than one SELECT are refused with a typed error', async (t) => {
  await t.throwsAsync(columnLineage('DELETE FROM orders', 'postgresql'), { instanceOf: NotASingleSelect });
  await t.throwsAsync(columnLineage('SELECT 1; SELECT 2', 'postgresql'), { instanceOf: NotASingleSelect });
  await t.throwsAsync(columnLineage('SELEC 1', 'postgresql'), { instanceOf: SqlParseFailed });
  await t.throwsAsync(columnLineage('DELETE FROM orders', 'duckdb'), { instanceOf: NotASingleSelect });
  await t.throwsAsync(columnLineage('SELECT 1; SELECT 2', 'duckdb'), { instanceOf: NotASingleSelect });
  const err = await t.throwsAsync(columnLineage('SELEC 1', 'duckdb'), { instanceOf: SqlParseFailed });
  t.is(err?.code, 'SQL_PARSE_FAILED');
});

test('schemaLookupFrom matches qualified and bare names, and refuses to guess between two schemas', (t) => {
  const lookup = schemaLookupFrom({ 'main.orders': ['a'], 'sales.orders': ['b'], 'main.customers': ['c'] });
  t.deepEqual(lookup('main.orders'), ['a']);
  t.deepEqual(lookup('MAIN.ORDERS'), ['a']);
  t.deepEqual(lookup('customers'), ['c']);
  t.deepEqual(lookup('db.main.customers'), ['c']);
  t.is(lookup('orders'), undefined);
  t.is(lookup('nothing'), undefined);
});

test('every valid SQLite and PostgreSQL query of the corpus gets lineage: column-level where node-sql-parser reads it, else the guard\'s table list', async (t) => {
  for (const dialect of ['sqlite', 'postgresql'] as const) {
    let tableLevel = 0;
    for (const e of loadCorpus('valid', dialect)) {
      const r = await columnLineage(e.sql, dialect).catch((err: Error) => err);
      if (r instanceof Error) {
        t.fail(`${dialect} ${e.id}: ${r.message}`);
        continue;
      }
      if (r.tableLevelOnly) tableLevel++;
    }
    t.pass(`${dialect}: every valid query has lineage`);
    t.log(`${dialect}: ${tableLevel} queries with table-level lineage only`);
  }
});

test('a query outside node-sql-parser\'s SQLite grammar lists the tables the guard verified, without columns', async (t) => {
  const r = await columnLineage('SELECT o.id, row_number() OVER (ORDER BY o.id) AS rn FROM [orders] o JOIN main.customers c ON c.id = o.customer_id', 'sqlite');
  t.true(r.tableLevelOnly);
  t.deepEqual(r.columns, []);
  t.deepEqual([...r.tables].sort(), ['main.customers', 'orders']);
  t.deepEqual(await tablesOf('SELECT id FROM orders INTERSECT SELECT id FROM refunds', 'sqlite'), ['orders', 'refunds']);
});

test('a query neither parser reads, or one the guard refuses, still fails with SQL_PARSE_FAILED', async (t) => {
  await t.throwsAsync(columnLineage('SELEC nope', 'sqlite'), { instanceOf: SqlParseFailed });
  await t.throwsAsync(columnLineage('SELECT * FROM [orders] INTERSECT SELECT load_extension(\'x\')', 'sqlite'), { instanceOf: SqlParseFailed });
});
