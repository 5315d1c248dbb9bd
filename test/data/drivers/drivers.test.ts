import test from 'ava';
import type { Driver } from '../../../src/data/drivers/driver.ts';
import { DRIVERS } from '../../../src/data/drivers/registry.ts';
import { duckdbFixture, mysqlFixture, postgresFixture, sqliteFixture, SKIP_MYSQL, SKIP_PG } from '../warehouses.ts';

async function collect(d: Driver, sql: string, batchSize = 2) {
  const s = await d.stream(sql, { batchSize });
  const batches: unknown[][][] = [];
  for await (const b of s.batches) batches.push(b);
  return { columns: s.columns, batches, rows: batches.flat() };
}

type Case = { name: string; sleep?: string; open: () => Promise<{ driver: Driver; drop?: () => Promise<void> } | undefined>; skip: string };
const cases: Case[] = [
  { name: 'DuckDB', skip: '', open: async () => ({ driver: await DRIVERS.duckdb.open(await duckdbFixture(), {}) }) },
  { name: 'SQLite', skip: '', open: async () => ({ driver: await DRIVERS.sqlite.open(sqliteFixture(), {}) }) },
  {
    name: 'PostgreSQL',
    skip: SKIP_PG,
    sleep: 'SELECT pg_sleep(5)',
    open: async () => {
      const f = await postgresFixture();
      return f && { driver: await DRIVERS.postgresql.open(f.settings, {}), drop: f.drop };
    },
  },
  {
    name: 'MariaDB',
    skip: SKIP_MYSQL,
    sleep: 'SELECT SLEEP(5) AS s FROM orders',
    open: async () => {
      const f = await mysqlFixture();
      return f && { driver: await DRIVERS.mysql.open(f.settings, {}), drop: f.drop };
    },
  },
];

for (const c of cases) {
  test.serial(`${c.name}: rows stream in batches with column metadata, writes are refused, and introspection lists tables`, async (t) => {
    const opened = await c.open();
    if (!opened) {
      t.log(c.skip);
      t.pass();
      return;
    }
    const { driver } = opened;
    try {
      const r = await collect(driver, 'SELECT order_id, country, total_amount, order_date FROM orders ORDER BY order_id');
      t.deepEqual(r.columns.map((x) => x.name), ['order_id', 'country', 'total_amount', 'order_date']);
      t.true(r.columns.every((x) => typeof x.type === 'string'));
      t.deepEqual(r.batches.map((b) => b.length), [2, 2, 1]);
      t.is(r.rows.length, 5);
      t.is(String(r.rows[0]![0]), '1');
      t.is(r.rows[0]![1], 'Germany');
      t.is(Number(r.rows[0]![2]), 10.5);
      t.regex(String(r.rows[0]![3]), /^2024-01-02/);
      // The second wall: the session itself refuses writes even if the guard were bypassed.
      await t.throwsAsync(collect(driver, 'DELETE FROM orders'));
      await t.throwsAsync(collect(driver, 'SELECT 1; DELETE FROM orders'));
      const after = await collect(driver, 'SELECT count(*) AS n FROM orders');
      t.is(String(after.rows[0]![0]), '5');
      const empty = await collect(driver, 'SELECT order_id FROM orders WHERE 1 = 0');
      t.deepEqual(empty.rows, []);
      t.deepEqual(empty.columns.map((x) => x.name), ['order_id']);
      const tables = await driver.introspect();
      const orders = tables.find((x) => x.name === 'orders');
      t.truthy(orders);
      t.deepEqual(orders!.columns.map((x) => x.name), ['order_id', 'customer_id', 'country', 'total_amount', 'order_date']);
      t.is(orders!.schema, driver.defaultSchema);
      await driver.ping();
      if (c.sleep) {
        // The server-side statement timeout ends a slow query, and the session stays usable.
        const started = Date.now();
        await t.throwsAsync(driver.stream(c.sleep, { timeoutMs: 300 }).then(async (s) => { for await (const b of s.batches) void b; }));
        t.true(Date.now() - started < 4000);
        t.is(String((await collect(driver, 'SELECT 1')).rows[0]![0]), '1');
      }
    } finally {
      await driver.close();
      await opened.drop?.();
    }
  });
}

test('DuckDB is locked down: no file reads, no ATTACH, no configuration changes, the warehouse is read-only', async (t) => {
  const driver = await DRIVERS.duckdb.open(await duckdbFixture(), {});
  try {
    for (const sql of [
      "SELECT * FROM read_csv('/etc/passwd')",
      "ATTACH '/tmp/x.duckdb' AS x",
      'SET enable_external_access = true',
      'SET lock_configuration = false',
      'INSERT INTO orders VALUES (9, 1, \'x\', 1, \'2024-01-01\')',
      "COPY orders TO '/tmp/sextant-leak.csv'",
      'INSTALL httpfs',
    ]) {
      await t.throwsAsync(collect(driver, sql), undefined, sql);
    }
  } finally {
    await driver.close();
  }
});

test('a timeout interrupts a long DuckDB query', async (t) => {
  const driver = await DRIVERS.duckdb.open(await duckdbFixture(), {});
  try {
    await t.throwsAsync(driver.stream('SELECT count(*) FROM range(10000000000) a', { timeoutMs: 200 }).then(async (s) => { for await (const b of s.batches) void b; }).then(() => undefined), undefined);
    void (await Promise.resolve());
  } finally {
    await driver.close();
  }
});
