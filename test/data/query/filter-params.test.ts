// A dashboard's filters reach every warehouse as bound parameters: the statement carries placeholders
// in the dialect's own form, the values travel beside it through guard, row security and driver (for
// DuckDB and SQLite across the query process's channel), and hostile values come back as data. A
// placeholder anywhere else (the saved statement, a row filter) is refused, with or without values.
import test from 'ava';
import type { Driver } from '../../../src/data/drivers/driver.ts';
import { DRIVERS } from '../../../src/data/drivers/registry.ts';
import { QueryRefused } from '../../../src/data/errors.ts';
import { guardSql, openDuckDbSql, type DuckDbSql } from '../../../src/data/guard/index.ts';
import { filterResultSql, resultColumnsSql, type ResultFilter } from '../../../src/data/query/index.ts';
import { applyRowFilters } from '../../../src/data/rls/index.ts';
import type { SqlDialect, SqlParam, TableDoc } from '../../../src/data/types.ts';
import { duckdbFixture, mysqlFixture, postgresFixture, sqliteFixture, SKIP_MYSQL, SKIP_PG } from '../warehouses.ts';

let duckdb: DuckDbSql;
test.before(async () => {
  duckdb = await openDuckDbSql();
});
test.after.always(() => duckdb.close());

/** Values a filter must bind as data: SQL, quotes, backslashes (MySQL reads them as escapes in literals), unicode. */
const HOSTILE = ["'); DROP TABLE orders; --", 'Fr\\ance', "back\\'slash", 'Zoë 東京 🚀', "x' OR '1'='1"];

/** A string literal as each dialect reads it, for the fixture only. */
const literal = (dialect: SqlDialect, v: string) => `'${(dialect === 'mysql' ? v.replaceAll('\\', '\\\\') : v).replaceAll("'", "''")}'`;
const hostileRows = (dialect: SqlDialect) =>
  HOSTILE.map((v, i) => `INSERT INTO orders VALUES (${10 + i}, 9, ${literal(dialect, v)}, 1.00, '2024-06-0${i + 1}')`);

interface Opened {
  driver: Driver;
  schema: string;
  drop?: () => Promise<void>;
}

const engines: { dialect: SqlDialect; skip: string; open: () => Promise<Opened | undefined> }[] = [
  { dialect: 'duckdb', skip: '', open: async () => ({ driver: await DRIVERS.duckdb.open(await duckdbFixture(hostileRows('duckdb')), {}), schema: 'main' }) },
  { dialect: 'sqlite', skip: '', open: async () => ({ driver: await DRIVERS.sqlite.open(sqliteFixture(hostileRows('sqlite')), {}), schema: 'main' }) },
  {
    dialect: 'postgresql',
    skip: SKIP_PG,
    open: async () => {
      const f = await postgresFixture(hostileRows('postgresql'));
      return f && { driver: await DRIVERS.postgresql.open(f.settings, {}), schema: 'public', drop: f.drop };
    },
  },
  {
    dialect: 'mysql',
    skip: SKIP_MYSQL,
    open: async () => {
      const f = await mysqlFixture(hostileRows('mysql'));
      return f && { driver: await DRIVERS.mysql.open(f.settings, {}), schema: f.settings.database!, drop: f.drop };
    },
  },
];

const user = { id: 'u', email: 'u@x.io', role: 'user' as const, attributes: {}, groups: [] };
const SAVED = 'SELECT order_id, country, order_date FROM orders ORDER BY order_id;';

/** Guard, row security, guard again and the driver, as the governed path runs a statement with values. */
async function governed(dialect: SqlDialect, o: Opened, sql: string, params: SqlParam[], rowFilter?: string): Promise<unknown[][]> {
  const tools = { duckdb };
  const docs: TableDoc[] = rowFilter ? [{ connection: 'wh', schema: o.schema, name: 'orders', row_filters: [{ filter: rowFilter }] }] : [];
  const query = await guardSql({ sql, dialect, tools, params });
  const executed = await applyRowFilters({ query, docs, connectionId: 'wh', user, defaultSchema: o.driver.defaultSchema, tools });
  await guardSql({ sql: executed, dialect, tools, rewritten: true, params });
  const s = await o.driver.stream(executed, { params });
  const rows: unknown[][] = [];
  for await (const b of s.batches) rows.push(...b);
  return rows;
}

const filtered = async (dialect: SqlDialect, o: Opened, filters: ResultFilter[], rowFilter?: string) => {
  const bound = filterResultSql(dialect, SAVED, filters);
  return governed(dialect, o, bound.sql, bound.params, rowFilter);
};
const ids = (rows: unknown[][]) => rows.map((r) => Number(r[0])).sort((a, b) => a - b);

for (const e of engines) {
  test.serial(`${e.dialect}: a row filter plus two filters bound as parameters give the right rows`, async (t) => {
    const o = await e.open();
    if (!o) return t.log(e.skip), t.pass();
    try {
      const bound = filterResultSql(e.dialect, SAVED, [{ field: 'order_date', from: '2024-01-01', before: '2024-05-01' }, { field: 'country', values: ['Germany', 'Japan'] }]);
      t.is(bound.params.length, 4);
      t.false(/Germany|2024/.test(bound.sql), 'no value is written into the text');
      t.regex(bound.sql, e.dialect === 'mysql' || e.dialect === 'sqlite' ? /IN \(\?, \?\)/ : /IN \(\$3, \$4\)/);
      // Dates 1..4, countries 1, 3, 4; the row filter takes Japan's order 4 away.
      t.deepEqual(ids(await governed(e.dialect, o, bound.sql, bound.params, "country <> 'Japan'")), [1, 3]);
      t.deepEqual(ids(await governed(e.dialect, o, bound.sql, bound.params)), [1, 3, 4]);
      // Numbers bind as numbers (a whole one equals an INTEGER column, a fraction matches nothing).
      t.deepEqual(ids(await filtered(e.dialect, o, [{ field: 'order_id', values: [2, 5, 2.5] }], "country <> 'Japan'")), [2, 5]);
    } finally {
      await o.driver.close();
      await o.drop?.();
    }
  });

  test.serial(`${e.dialect}: a values filter mixing text and numbers compares each value as the column's type`, async (t) => {
    const o = await e.open();
    if (!o) return t.log(e.skip), t.pass();
    try {
      // The column types as the dashboard's probe reads them from the warehouse.
      const probe = await o.driver.stream(resultColumnsSql(SAVED), {});
      for await (const b of probe.batches) t.fail(JSON.stringify(b));
      const typeOf = (field: string) => probe.columns.find((c) => c.name === field)!.type;
      const typed = (field: string, values: (string | number)[]): ResultFilter => ({ field, values, columnType: typeOf(field) });
      // A number against a text column is its text; text against a number column is a number, or matches nothing.
      t.deepEqual(ids(await filtered(e.dialect, o, [typed('country', ['France', 5])])), [2, 5]);
      t.deepEqual(ids(await filtered(e.dialect, o, [typed('order_id', [2, '5', ' 3 ', 'abc', '1e0', '0x4'])])), [1, 2, 3, 5]);
      t.deepEqual(ids(await filtered(e.dialect, o, [typed('order_id', ['abc'])])), [], 'no value can match: no row, no error');
      t.deepEqual(ids(await filtered(e.dialect, o, [typed('country', [12])])), []);
    } finally {
      await o.driver.close();
      await o.drop?.();
    }
  });

  test.serial(`${e.dialect}: a result whose column names collide (a join's, or differing in case) is filtered on the first of a name`, async (t) => {
    const o = await e.open();
    if (!o) return t.log(e.skip), t.pass();
    try {
      // Two columns named country (the customer's name first), and id against ID.
      const sql = 'SELECT o.order_id AS id, c.name AS country, o.country, o.order_date, c.customer_id AS ID FROM orders o JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id';
      const own = await o.driver.stream(sql, {});
      for await (const b of own.batches) t.true(b.length > 0);
      const columns = own.columns.map((c) => c.name);
      t.deepEqual(columns.map((c) => c.toLowerCase()), ['id', 'country', 'country', 'order_date', 'id']);
      const bound = filterResultSql(e.dialect, sql, [{ field: 'country', values: ['Ann', 'Bob'] }, { field: 'order_date', from: '2024-01-01', before: '2024-05-01' }, { field: 'ID', values: [1, 2, 4] }], columns);
      t.false(/Ann|2024/.test(bound.sql), 'no value is written into the text');
      // Ann's order 1 and Bob's orders 2 and 5; the dates leave 1 and 2; the row filter takes 1 away.
      const rows = await governed(e.dialect, o, bound.sql, bound.params, 'order_id <> 1');
      t.deepEqual(rows.map((r) => [Number(r[0]), r[1], r[2], Number(r[4])]), [[2, 'Bob', 'France', 2]]);
      // The wrapper gives the columns back in their order and number.
      t.is(rows[0]!.length, 5);
      // Without the names the wrapper is the derived table, whose duplicates MySQL and MariaDB refuse.
      const plain = filterResultSql(e.dialect, sql, [{ field: 'order_date', from: '2024-01-01' }]);
      if (e.dialect === 'mysql') await t.throwsAsync(governed(e.dialect, o, plain.sql, plain.params), { message: /Duplicate column/ });
      t.throws(() => filterResultSql(e.dialect, sql, [{ field: 'missing', values: [1] }], columns), { message: /no column of the result/ });
    } finally {
      await o.driver.close();
      await o.drop?.();
    }
  });

  test.serial(`${e.dialect}: hostile filter values come back as data, one list of any length, never executed`, async (t) => {
    const o = await e.open();
    if (!o) return t.log(e.skip), t.pass();
    try {
      for (const [i, v] of HOSTILE.entries()) {
        const rows = await filtered(e.dialect, o, [{ field: 'country', values: [v] }]);
        t.deepEqual(rows.map((r) => [Number(r[0]), r[1]]), [[10 + i, v]], v);
      }
      const many = Array.from({ length: 1000 }, (_, i) => `c${i}`);
      t.deepEqual(ids(await filtered(e.dialect, o, [{ field: 'country', values: [...many, ...HOSTILE, 'France'] }])), [2, 5, 10, 11, 12, 13, 14]);
      t.is((await filtered(e.dialect, o, [])).length, 10, 'the table is intact');
      // A NUL is refused before any warehouse sees it (PostgreSQL cannot hold one).
      const nul = filterResultSql(e.dialect, SAVED, [{ field: 'country', values: ['a\0b'] }]);
      await t.throwsAsync(governed(e.dialect, o, nul.sql, nul.params), { instanceOf: QueryRefused, message: /NUL/ });
      // The second wall: the warehouse itself refuses values that do not match its placeholders.
      const two = filterResultSql(e.dialect, SAVED, [{ field: 'country', values: ['France', 'Japan'] }]);
      for (const params of [two.params.slice(0, 1), [...two.params, { type: 'text', value: 'Peru' } as const]]) {
        await t.throwsAsync(async () => {
          for await (const b of (await o.driver.stream(two.sql, { params })).batches) t.fail(JSON.stringify(b));
        }, undefined, `${params.length} values`);
      }
    } finally {
      await o.driver.close();
      await o.drop?.();
    }
  });
}

const MARK: Record<SqlDialect, string> = { postgresql: '$1', duckdb: '$1', mysql: '?', sqlite: '?' };
const refusal = async (t: import('ava').ExecutionContext, p: Promise<unknown>) => ((await t.throwsAsync(p, { instanceOf: QueryRefused })) as QueryRefused).reason;

for (const dialect of ['postgresql', 'duckdb', 'mysql', 'sqlite'] as SqlDialect[]) {
  test(`${dialect}: a placeholder of a user's statement stays refused, and values passed do not let one in`, async (t) => {
    const tools = { duckdb };
    const mine = `SELECT order_id, country FROM orders WHERE country = ${MARK[dialect]}`;
    t.is(await refusal(t, guardSql({ sql: mine, dialect, tools })), 'parameter', 'as before: nothing binds it');
    // Wrapped by a filter, the statement's own placeholder makes one too many: refused, not bound to the filter's value.
    const wrapped = filterResultSql(dialect, mine, [{ field: 'country', values: ['France'] }]);
    t.is(await refusal(t, guardSql({ sql: wrapped.sql, dialect, tools, params: wrapped.params })), 'parameter');
    const twice = filterResultSql(dialect, mine, [{ field: 'country', values: ['France', 'Japan'] }]);
    t.is(await refusal(t, guardSql({ sql: twice.sql, dialect, tools, params: twice.params.slice(0, 2) })), 'parameter');
    // The caller's own placeholders pass with exactly their values, not with fewer or more.
    const ok = filterResultSql(dialect, SAVED, [{ field: 'country', values: ['France', 'Japan'] }]);
    t.deepEqual((await guardSql({ sql: ok.sql, dialect, tools, params: ok.params })).placeholders.length, 2);
    t.is(await refusal(t, guardSql({ sql: ok.sql, dialect, tools })), 'parameter');
    t.is(await refusal(t, guardSql({ sql: ok.sql, dialect, tools, params: ok.params.slice(1) })), 'parameter');
    t.is(await refusal(t, guardSql({ sql: ok.sql, dialect, tools, params: [...ok.params, { type: 'text', value: 'x' }] })), 'parameter');
    t.is(await refusal(t, guardSql({ sql: SAVED, dialect, tools, params: ok.params })), 'parameter', 'values for a statement without placeholders');
    // Values are checked once for every driver.
    for (const bad of [{ type: 'number', value: Infinity }, { type: 'date', value: "2024-01-01' OR 1=1" }, { type: 'text', value: 'a\0' }] as SqlParam[]) {
      t.is(await refusal(t, guardSql({ sql: ok.sql, dialect, tools, params: [ok.params[0]!, bad] })), 'parameter', JSON.stringify(bad));
    }
  });

  test(`${dialect}: a row filter holding a placeholder is refused, never bound to a dashboard's value`, async (t) => {
    const tools = { duckdb };
    const bound = filterResultSql(dialect, SAVED, [{ field: 'country', values: ['France'] }]);
    const query = await guardSql({ sql: bound.sql, dialect, tools, params: bound.params });
    const docs: TableDoc[] = [{ connection: 'wh', schema: 'main', name: 'orders', row_filters: [{ filter: `country = ${MARK[dialect]}` }] }];
    await t.throwsAsync(
      (async () => {
        const executed = await applyRowFilters({ query, docs, connectionId: 'wh', user, defaultSchema: 'main', tools });
        await guardSql({ sql: executed, dialect, tools, rewritten: true, params: bound.params });
      })(),
      { instanceOf: QueryRefused },
    );
  });
}

test('SQLite and MySQL accept only the bare `?`; named and numbered forms are refused whatever is bound', async (t) => {
  const tools = { duckdb };
  const one: SqlParam[] = [{ type: 'text', value: 'x' }];
  for (const sql of ['SELECT ?1', 'SELECT :x', 'SELECT @x', 'SELECT $x']) t.is(await refusal(t, guardSql({ sql, dialect: 'sqlite', tools, params: one })), 'parameter', sql);
  for (const sql of ['SELECT :x', 'SELECT @x']) t.is(await refusal(t, guardSql({ sql, dialect: 'mysql', tools, params: one })), 'parameter', sql);
  t.is(await refusal(t, guardSql({ sql: 'SELECT $x', dialect: 'duckdb', tools, params: one })), 'parameter');
});
