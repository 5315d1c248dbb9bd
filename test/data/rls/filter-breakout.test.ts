// A row filter is one closed piece of text (rowFilterTextProblem, src/sql-expression.ts): one that reaches past its own
// parentheses could cancel the filters beside it, and an environment's draft filter comes before
// production's. Refused when written (422 naming the field), and denied (no row) when knowledge
// written before the check holds one; on real engines, production's filter always holds.
import test from 'ava';
import { DRIVERS } from '../../../src/data/drivers/registry.ts';
import { guardSql, openDuckDbSql, type DuckDbSql } from '../../../src/data/guard/index.ts';
import { applyRowFilters, type RlsUser } from '../../../src/data/rls/index.ts';
import { withProductionFilters } from '../../../src/data/rls/production-filters.ts';
import type { TableDoc } from '../../../src/data/types.ts';
import { validateItem } from '../../../src/knowledge/index.ts';
import { ValidationFailed } from '../../../src/errors.ts';
import { rowFilterTextProblem } from '../../../src/sql-expression.ts';
import { duckdbFixture, sqliteFixture } from '../warehouses.ts';

let duckdb: DuckDbSql;
test.before(async () => {
  duckdb = await openDuckDbSql();
});
test.after.always(() => duckdb.close());

const FINE = [
  'country = {{user.country}}',
  'country IN {{user.groups}}',
  "(country = 'Côte d''Ivoire') AND (region = 'EMEA')",
  'customer_id IN (SELECT customer_id FROM customers WHERE country = {{ user.country }})',
  '"Odd ""name""" = 1 AND `x` = 2',
  "owner = {{user.email}} OR note LIKE '%(%'",
];
const BROKEN: [string, RegExp][] = [
  ['country = {{user.country}}) OR (1 = 1', /closed that was not opened/],
  ['1 = 1 OR (country = {{user.country}}', /not closed/],
  ["country = 'Germany", /quoted text is not closed/],
  ['"country = 1', /quoted name is not closed/],
  ['country = {{user.country}} -- and the rest', /comments/],
  ['country = {{user.country}} /* x */', /comments/],
  ['country = {{user.country}} # x', /comments/],
  ['country = {{user.country}}; SELECT 1', /";"/],
  ['country = $$x$$', /"\$"/],
  ['country = $tag$x$tag$', /"\$"/],
  ["country = 'a\\'", /backslash/],
  ["country = '{{user.country}}'", /without quotes/],
  ['country = {{user.country', /\{\{ is not closed/],
];

test('the text check passes closed filters and names what could reach past the parentheses', (t) => {
  for (const f of FINE) t.is(rowFilterTextProblem(f), undefined, f);
  for (const [f, why] of BROKEN) t.regex(rowFilterTextProblem(f) ?? '', why, f);
});

test('a table whose row filter could reach past its parentheses is refused when written, naming the filter', (t) => {
  const table = (filter: string) => ({ connection: 'wh', schema: 'main', name: 'orders', description: 'Orders', row_filters: [{ filter: 'country = {{user.country}}' }, { filter }] });
  t.notThrows(() => validateItem('tables', 'wh/main.orders', table("region = 'EMEA'")));
  for (const [f] of BROKEN) {
    const err = t.throws(() => validateItem('tables', 'wh/main.orders', table(f)), { instanceOf: ValidationFailed }, f);
    t.deepEqual(err?.issues[0]?.loc, ['body', 'row_filters', 1, 'filter'], f);
  }
});

const modeler: RlsUser = { id: 'm', email: 'm@x.io', role: 'modeler', attributes: { country: 'Germany' }, groups: [] };

for (const [name, open] of [['duckdb', async () => DRIVERS.duckdb.open(await duckdbFixture(), {})], ['sqlite', async () => DRIVERS.sqlite.open(sqliteFixture(), {})]] as const) {
  test(`${name}: an environment's filter written before the check cannot loosen production's; it denies`, async (t) => {
    const driver = await open();
    try {
      const production: TableDoc[] = [{ connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}' }] }];
      const rows = async (own: string) => {
        const draft: TableDoc[] = [{ connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: own }] }];
        const query = await guardSql({ sql: 'SELECT country FROM orders', dialect: driver.dialect, tools: { duckdb } });
        const sql = await applyRowFilters({ query, docs: withProductionFilters(draft, production), connectionId: 'wh', user: modeler, defaultSchema: 'main', tools: { duckdb } });
        const out: unknown[] = [];
        for await (const b of (await driver.stream(sql)).batches) out.push(...b.map((r) => r[0]));
        return out;
      };
      t.deepEqual(await rows("country <> 'Japan'"), ['Germany', 'Germany'], 'a draft filter tightens');
      t.deepEqual(await rows('1 = 1) OR (1 = 1'), [], 'reaching past its parentheses, it denies instead of cancelling production');
      t.deepEqual(await rows("1 = 1 OR country <> '"), []);
    } finally {
      await driver.close();
    }
  });
}
