// The ranking of tables by use gives the same order on SQLite and PostgreSQL, ties included, whatever
// the collation of the PostgreSQL database.
import { logQuery, topTables } from '../../src/data/query/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { twoOrganizations } from '../helpers/data-store.ts';
import { dialectTest } from '../helpers/executors.ts';

dialectTest(
  'tables read equally often are ranked by name as SQLite orders it (capitals first)',
  async (t, { x }) => {
    const store = await twoOrganizations(x);
    const clock = new FakeClock();
    const read = (tables: string[]) =>
      logQuery(store, clock, { orgId: 'acme', userId: 'ann', connectionId: 'wh', environmentId: undefined, sql: 'SELECT 1', tables, status: 'ok', rowCount: 1, durationMs: 1, source: 'test' });
    await read(['main.orders', 'main.orders_2024', 'main.Orders_archive', 'main.customers']);
    await read(['main.orders']);
    t.deepEqual(
      (await topTables(store, 'acme')).map((r) => [r.table, r.query_count]),
      [
        ['main.orders', 2],
        ['main.Orders_archive', 1],
        ['main.customers', 1],
        ['main.orders_2024', 1],
      ],
    );
  },
  { pgCollation: 'linguistic' },
);
