// Row-level security must not break legitimate queries: every accepted analytical query still runs
// after its protected tables are rewritten into filtered subqueries.
import test from 'ava';
import type { Driver } from '../../../src/data/drivers/driver.ts';
import { DRIVERS } from '../../../src/data/drivers/registry.ts';
import { guardSql, openDuckDbSql, type DuckDbSql } from '../../../src/data/guard/index.ts';
import { applyRowFilters } from '../../../src/data/rls/index.ts';
import type { SqlDialect, TableDoc } from '../../../src/data/types.ts';
import { LEGIT } from '../guard/corpus.ts';
import { duckdbFixture, mysqlFixture, postgresFixture, sqliteFixture, SKIP_MYSQL, SKIP_PG } from '../warehouses.ts';

let duckdb: DuckDbSql;
test.before(async () => {
  duckdb = await openDuckDbSql();
});
test.after.always(() => duckdb.close());

const engines: { dialect: SqlDialect; skip: string; open: () => Promise<{ driver: Driver; schema: string; drop?: () => Promise<void> } | undefined> }[] = [
  { dialect: 'duckdb', skip: '', open: async () => ({ driver: await DRIVERS.duckdb.open(await duckdbFixture(), {}), schema: 'main' }) },
  { dialect: 'sqlite', skip: '', open: async () => ({ driver: await DRIVERS.sqlite.open(sqliteFixture(), {}), schema: 'main' }) },
  {
    dialect: 'postgresql',
    skip: SKIP_PG,
    open: async () => {
      const f = await postgresFixture();
      return f && { driver: await DRIVERS.postgresql.open(f.settings, {}), schema: 'public', drop: f.drop };
    },
  },
  {
    dialect: 'mysql',
    skip: SKIP_MYSQL,
    open: async () => {
      const f = await mysqlFixture();
      return f && { driver: await DRIVERS.mysql.open(f.settings, {}), schema: f.settings.database!, drop: f.drop };
    },
  },
];

for (const e of engines) {
  test.serial(`${e.dialect}: legitimate queries still run after row filters are applied`, async (t) => {
    const opened = await e.open();
    if (!opened) {
      t.log(e.skip);
      t.pass();
      return;
    }
    const { driver, schema } = opened;
    const docs: TableDoc[] = ['orders', 'customers'].map((name) => ({ connection: 'wh', schema, name, row_filters: [{ filter: "country <> 'Japan'" }] }));
    const user = { id: 'u', email: 'u@x.io', role: 'user' as const, attributes: {}, groups: [] };
    try {
      for (const sql of LEGIT[e.dialect]) {
        if (/information_schema/.test(sql)) continue;
        const query = await guardSql({ sql, dialect: e.dialect, tools: { duckdb } });
        const rewritten = await applyRowFilters({ query, docs, connectionId: 'wh', user, defaultSchema: driver.defaultSchema, tools: { duckdb } });
        await guardSql({ sql: rewritten, dialect: e.dialect, tools: { duckdb }, rewritten: true });
        const s = await driver.stream(rewritten);
        const rows: unknown[][] = [];
        for await (const b of s.batches) rows.push(...b);
        t.false(JSON.stringify(rows).includes('Japan'), sql);
        t.pass(sql);
      }
    } catch (err) {
      t.fail(String((err as Error).message));
    } finally {
      await driver.close();
      await opened.drop?.();
    }
  });
}

test('PostgreSQL: unquoted mixed-case names of unprotected tables still resolve after a rewrite', async (t) => {
  const f = await postgresFixture(['CREATE TABLE "Audit" (id int)', 'INSERT INTO "Audit" VALUES (7)']);
  if (!f) {
    t.log(SKIP_PG);
    t.pass();
    return;
  }
  const driver = await DRIVERS.postgresql.open(f.settings, {});
  try {
    const docs: TableDoc[] = [{ connection: 'wh', schema: 'public', name: 'orders', row_filters: [{ filter: "country = 'France'" }] }];
    const user = { id: 'u', email: 'u@x.io', role: 'user' as const, attributes: {}, groups: [] };
    const sql = 'SELECT count(*), (SELECT max(id) FROM "Audit") FROM Customers C JOIN Orders O ON O.customer_id = C.customer_id';
    const query = await guardSql({ sql, dialect: 'postgresql', tools: {} });
    const rewritten = await applyRowFilters({ query, docs, connectionId: 'wh', user, defaultSchema: 'public', tools: {} });
    const s = await driver.stream(rewritten);
    const rows: unknown[][] = [];
    for await (const b of s.batches) rows.push(...b);
    t.deepEqual(rows, [['2', 7]]);
  } finally {
    await driver.close();
    await f.drop();
  }
});

test('DuckDB: USING SAMPLE and TABLESAMPLE under a row filter sample the filtered rows instead of failing', async (t) => {
  const driver = await DRIVERS.duckdb.open(await duckdbFixture(), {});
  try {
    const docs: TableDoc[] = [{ connection: 'wh', schema: 'main', name: 'orders', row_filters: [{ filter: "country = 'France'" }] }];
    const user = { id: 'u', email: 'u@x.io', role: 'user' as const, attributes: {}, groups: [] };
    for (const sql of ['SELECT country FROM orders USING SAMPLE 100%', 'SELECT o.country FROM orders o TABLESAMPLE 100%', 'SELECT country FROM orders USING SAMPLE 100 PERCENT (bernoulli, 7)']) {
      const query = await guardSql({ sql, dialect: 'duckdb', tools: { duckdb } });
      const rewritten = await applyRowFilters({ query, docs, connectionId: 'wh', user, defaultSchema: 'main', tools: { duckdb } });
      const rows: unknown[][] = [];
      for await (const b of (await driver.stream(rewritten)).batches) rows.push(...b);
      t.deepEqual(rows, [['France'], ['France']], sql);
    }
  } finally {
    await driver.close();
  }
});
