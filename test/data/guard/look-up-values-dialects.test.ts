// The value lookup's one statement (src/agent/tools/look-up-values.ts) on each engine: the guard takes
// it (a read-only SELECT whose tables it lists, so row filters apply to each), and the engine answers
// the values equal to the phrases case aside, an apostrophe in a phrase staying inside its literal.
import test from 'ava';
import { lookUpSql } from '../../../src/agent/tools/look-up-values.ts';
import type { Driver } from '../../../src/data/drivers/driver.ts';
import { DRIVERS } from '../../../src/data/drivers/registry.ts';
import { guardSql, openDuckDbSql, type DuckDbSql } from '../../../src/data/guard/index.ts';
import type { SqlDialect } from '../../../src/data/types.ts';
import { duckdbFixture, mysqlFixture, postgresFixture, sqliteFixture, SKIP_MYSQL, SKIP_PG } from '../warehouses.ts';

// FIXTURE_SQL's customers (Ann, Bob, Cid, Dee in Germany, France, Japan) and one of an apostrophe's.
const EXTRA = ["INSERT INTO customers VALUES (5, 'O''Brien', 'Ireland')"];
const PHRASES = ['germany', 'ann', "o'brien", 'in germany', 'atlantis'];

let duckdb: DuckDbSql;
test.before(async () => {
  duckdb = await openDuckDbSql();
});
test.after.always(() => duckdb.close());

const engines: { dialect: SqlDialect; skip: string; open: () => Promise<{ driver: Driver; schema: string; drop?: () => Promise<void> } | undefined> }[] = [
  { dialect: 'duckdb', skip: '', open: async () => ({ driver: await DRIVERS.duckdb.open(await duckdbFixture(EXTRA), {}), schema: 'main' }) },
  { dialect: 'sqlite', skip: '', open: async () => ({ driver: await DRIVERS.sqlite.open(sqliteFixture(EXTRA), {}), schema: 'main' }) },
  { dialect: 'postgresql', skip: SKIP_PG, open: async () => { const f = await postgresFixture(EXTRA); return f && { driver: await DRIVERS.postgresql.open(f.settings, {}), schema: 'public', drop: f.drop }; } },
  { dialect: 'mysql', skip: SKIP_MYSQL, open: async () => { const f = await mysqlFixture(EXTRA); return f && { driver: await DRIVERS.mysql.open(f.settings, {}), schema: String(f.settings['database']), drop: f.drop }; } },
];

for (const e of engines) {
  test.serial(`${e.dialect}: the lookup is guarded as one read of its tables and finds the values, case aside`, async (t) => {
    const opened = await e.open();
    if (!opened) return t.log(e.skip), t.pass();
    try {
      const sql = lookUpSql([{ schema: opened.schema, table: 'customers', column: 'name' }, { schema: opened.schema, table: 'orders', column: 'country' }], PHRASES);
      const guarded = await guardSql({ sql, dialect: e.dialect, tools: { duckdb } });
      t.deepEqual([...new Set(guarded.tables.map((x) => x.name))].sort(), ['customers', 'orders']);
      const rows: unknown[][] = [];
      for await (const b of (await opened.driver.stream(sql)).batches) rows.push(...b);
      const found = rows.map((r) => `${String(r[1])}.${String(r[2])}=${String(r[3])}`).sort();
      t.deepEqual(found, ["customers.name=Ann", "customers.name=O'Brien", 'orders.country=Germany']);
    } finally {
      await opened.driver.close();
      await opened.drop?.();
    }
  });
}
