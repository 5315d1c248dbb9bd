import test from 'ava';
import { QueryRefused } from '../../../src/data/errors.ts';
import { guardSql, openDuckDbSql, type DuckDbSql } from '../../../src/data/guard/index.ts';
import type { SqlDialect } from '../../../src/data/types.ts';

let duckdb: DuckDbSql;
test.before(async () => {
  duckdb = await openDuckDbSql();
});
test.after.always(() => duckdb.close());

// Hostile statements every dialect must refuse.
const COMMON = [
  'DELETE FROM orders',
  'UPDATE orders SET total_amount = 0',
  "INSERT INTO orders VALUES (1, 2, 'x', 3, '2024-01-01')",
  'INSERT INTO orders SELECT * FROM orders',
  'DROP TABLE orders',
  'CREATE TABLE x AS SELECT * FROM orders',
  'ALTER TABLE orders ADD COLUMN x INT',
  'TRUNCATE orders',
  'SELECT 1; DELETE FROM orders',
  'SELECT 1; SELECT 2',
  'GRANT SELECT ON orders TO public',
  'CREATE VIEW v AS SELECT 1',
  'CREATE INDEX i ON orders(order_id)',
  '',
  '   ;  ',
  'SELEC * FROM orders',
];

const CORPUS: Record<SqlDialect, string[]> = {
  postgresql: [
    ...COMMON,
    'WITH d AS (DELETE FROM orders RETURNING *) SELECT * FROM d',
    'WITH u AS (UPDATE orders SET total_amount = 0 RETURNING *) SELECT 1',
    "COPY orders TO '/tmp/out.csv'",
    "COPY (SELECT 1) TO PROGRAM 'id'",
    'SET statement_timeout = 0',
    'SET TRANSACTION READ WRITE',
    'CALL do_things()',
    'SELECT * INTO stolen FROM orders',
    'SELECT * FROM orders FOR UPDATE',
    "SELECT pg_read_file('/etc/passwd')",
    "SELECT * FROM pg_read_file('/etc/passwd')",
    'SELECT pg_sleep(100)',
    "SELECT query_to_xml('select * from orders', true, false, '')",
    "SELECT * FROM dblink('host=x', 'select 1') AS t(a int)",
    "SELECT set_config('default_transaction_read_only', 'off', false)",
    "SELECT nextval('orders_seq')",
    'SELECT lo_import(\'/etc/passwd\')',
    'SELECT pg_terminate_backend(1)',
    'SELECT * FROM generate_series(1, 10)',
    'SELECT usename, passwd FROM pg_catalog.pg_shadow',
    'SELECT * FROM pg_authid',
    'EXPLAIN ANALYZE DELETE FROM orders',
    'VACUUM orders',
    'LOCK TABLE orders',
    "PREPARE p AS DELETE FROM orders",
    'DO $$ BEGIN DELETE FROM orders; END $$',
    'SELECT 1 /* ; */ ; DROP TABLE orders',
    "SELECT current_setting('data_directory')",
    'LISTEN x',
    "NOTIFY x, 'y'",
  ],
  mysql: [
    ...COMMON,
    "SELECT LOAD_FILE('/etc/passwd')",
    "SELECT * FROM orders INTO OUTFILE '/tmp/x'",
    'SELECT SLEEP(100)',
    "SELECT BENCHMARK(100000000, MD5('a'))",
    "SELECT GET_LOCK('x', 10)",
    'SELECT * FROM orders FOR UPDATE',
    'SELECT * FROM orders LOCK IN SHARE MODE',
    'SELECT user, authentication_string FROM mysql.user',
    'SELECT * FROM performance_schema.threads',
    "LOAD DATA INFILE '/etc/passwd' INTO TABLE orders",
    'SET GLOBAL read_only = 0',
    'CALL p()',
    "REPLACE INTO orders VALUES (1, 1, 'x', 1, '2024-01-01')",
    'HANDLER orders OPEN',
    'SELECT 1; SELECT SLEEP(1)',
    'RENAME TABLE orders TO o2',
    'DO SLEEP(5)',
    'SHOW GRANTS',
  ],
  sqlite: [
    ...COMMON,
    "ATTACH DATABASE '/tmp/x.db' AS x",
    'DETACH DATABASE main',
    'PRAGMA writable_schema = 1',
    'PRAGMA table_info(orders)',
    "SELECT load_extension('/tmp/evil.so')",
    "SELECT readfile('/etc/passwd')",
    "SELECT writefile('/tmp/x', 'y')",
    'SELECT * FROM sqlite_master',
    'VACUUM',
    "VACUUM INTO '/tmp/copy.db'",
    'REINDEX',
    'WITH x AS (SELECT 1) DELETE FROM orders',
    "SELECT fts3_tokenizer('simple')",
    'SELECT * FROM pragma_table_info(\'orders\')',
  ],
  duckdb: [
    ...COMMON,
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM read_csv_auto('https://example.com/x.csv')",
    "SELECT * FROM read_parquet('s3://bucket/x.parquet')",
    "SELECT * FROM read_text('/etc/passwd')",
    "SELECT * FROM '/etc/passwd'",
    "SELECT * FROM 'data.csv'",
    "FROM 'https://example.com/x.parquet'",
    "SELECT * FROM glob('/*')",
    "SELECT * FROM query('DELETE FROM orders')",
    "SELECT * FROM query_table('orders')",
    "SELECT getenv('HOME')",
    "ATTACH '/tmp/x.duckdb' AS x",
    'DETACH wh',
    "COPY orders TO '/tmp/out.csv'",
    "COPY (SELECT 1) TO '/tmp/out.parquet' (FORMAT parquet)",
    'INSTALL httpfs',
    'LOAD httpfs',
    'SET enable_external_access = true',
    'RESET lock_configuration',
    'PRAGMA version',
    "CALL pragma_table_info('orders')",
    'SHOW TABLES',
    'DESCRIBE orders',
    'SUMMARIZE orders',
    'EXPORT DATABASE \'/tmp/x\'',
    'CHECKPOINT',
    'SELECT * FROM duckdb_settings()',
    "CREATE SECRET (TYPE s3, KEY_ID 'x', SECRET 'y')",
    'PIVOT orders ON country USING sum(total_amount)',
    'SELECT * FROM range(10)',
    "SELECT * FROM other_db.main.orders",
    'SELECT * FROM system.main.duckdb_tables',
    'SELECT * FROM orders AS o, LATERAL read_csv(o.country)',
    "SELECT (SELECT count(*) FROM read_csv('/etc/passwd'))",
    "SELECT * FROM sniff_csv('/etc/passwd')",
    'EXPLAIN SELECT 1',
    'USE memory',
  ],
};

const LEGIT: Record<SqlDialect, string[]> = {
  postgresql: [
    'SELECT 1',
    'SELECT * FROM orders',
    'SELECT country, count(*) AS n, sum(total_amount) FROM orders GROUP BY country HAVING count(*) > 1 ORDER BY n DESC LIMIT 10',
    'WITH t AS (SELECT customer_id, sum(total_amount) AS s FROM orders GROUP BY customer_id) SELECT c.name, t.s FROM t JOIN customers c ON c.customer_id = t.customer_id',
    "SELECT date_trunc('month', order_date) AS m, avg(total_amount) FROM public.orders WHERE order_date >= DATE '2024-01-01' GROUP BY 1",
    'SELECT country FROM orders UNION SELECT country FROM customers',
    'SELECT country FROM orders INTERSECT SELECT country FROM customers',
    'SELECT customer_id, total_amount, rank() OVER (PARTITION BY customer_id ORDER BY total_amount DESC) FROM orders',
    'SELECT * FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id)',
    'SELECT CASE WHEN total_amount > 10 THEN \'big\' ELSE \'small\' END AS size, coalesce(country, \'?\') FROM orders',
    'SELECT column_name FROM information_schema.columns WHERE table_name = \'orders\'',
    'SELECT lower(name), length(name), round(12.345, 1) FROM customers',
  ],
  mysql: [
    'SELECT 1',
    'SELECT country, COUNT(*) AS n FROM orders GROUP BY country ORDER BY n DESC LIMIT 5',
    'SELECT `o`.`country`, SUM(o.total_amount) FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY `o`.`country`',
    "SELECT DATE_FORMAT(order_date, '%Y-%m') AS m, AVG(total_amount) FROM orders GROUP BY m",
    'WITH t AS (SELECT customer_id FROM orders) SELECT * FROM t',
    'SELECT country FROM orders UNION ALL SELECT country FROM customers',
    'SELECT * FROM customers WHERE customer_id IN (SELECT customer_id FROM orders WHERE total_amount > 10)',
    'SELECT IF(total_amount > 10, 1, 0), IFNULL(country, \'x\') FROM orders',
  ],
  sqlite: [
    'SELECT 1',
    'SELECT country, count(*) FROM orders GROUP BY country',
    "SELECT strftime('%Y', order_date) AS y, sum(total_amount) FROM orders GROUP BY y",
    'WITH t AS (SELECT * FROM orders) SELECT * FROM t WHERE total_amount > 5',
    'SELECT c.name, o.total_amount FROM customers c LEFT JOIN orders o ON o.customer_id = c.customer_id',
    'SELECT country FROM orders UNION SELECT country FROM customers',
    'SELECT * FROM main.orders ORDER BY order_id LIMIT 2 OFFSET 1',
  ],
  duckdb: [
    'SELECT 1',
    'FROM orders',
    'SELECT * EXCLUDE (country) FROM orders',
    'SELECT country, sum(total_amount) FROM orders GROUP BY ALL ORDER BY ALL',
    'SELECT *, row_number() OVER (PARTITION BY country ORDER BY total_amount) AS rn FROM orders QUALIFY rn = 1',
    "SELECT date_trunc('month', order_date) AS m, count(*) FROM main.orders GROUP BY 1",
    'WITH t AS (SELECT customer_id, sum(total_amount) s FROM orders GROUP BY 1) SELECT * FROM t JOIN customers USING (customer_id)',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r',
    'SELECT country FROM orders UNION BY NAME SELECT country FROM customers',
    'SELECT [1, 2, 3] AS l, {\'a\': 1} AS s',
    'SELECT * FROM (VALUES (1, \'a\'), (2, \'b\')) v(id, name)',
    'SELECT median(total_amount), quantile_cont(total_amount, 0.9) FROM orders',
    'SELECT * FROM orders WHERE customer_id IN (SELECT customer_id FROM customers WHERE country = \'Germany\')',
  ],
};

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
