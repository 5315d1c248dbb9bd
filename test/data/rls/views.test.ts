// Row security follows the data: sync records which objects are views and what they read, flags the
// views over filtered tables, and a user whose filter applies is refused such a view (unless the view
// has a row filter of its own), on every dialect. Admins, exempt from the filter, read it whole.
import test from 'ava';
import { sqliteExecutor } from '../../../src/store/index.ts';
import { getUser, principalFor, type Principal } from '../../../src/auth/index.ts';
import { QueryRefused } from '../../../src/data/errors.ts';
import { executeQuery } from '../../../src/data/query/index.ts';
import { loadRelations, saveRelations } from '../../../src/data/sync/relations.ts';
import { setUpCorpus, type CorpusSetup } from '../corpus/corpus-setup.ts';
import { DIALECTS } from '../corpus/corpus-warehouse.ts';
import { postgresFixture, SKIP_PG } from '../warehouses.ts';
import { createMemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import { setUserAttributes } from '../../../src/data/rls/index.ts';
import { startTestApp } from '../../helpers/app.ts';

let c: CorpusSetup;
const principal = async (id: string): Promise<Principal> => {
  const db = c.app.app.services.store.sqlite!;
  return (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), id))!, c.org, 'session', []))!;
};
test.before(async () => {
  c = await setUpCorpus();
});
test.after.always(() => c?.close());

const run = (p: Principal, connectionId: string, sql: string) => executeQuery(c.app.app.services.data, { principal: p, environmentId: undefined, connectionId, sql });

for (const dialect of DIALECTS) {
  test.serial(`${dialect}: sync flags the views over filtered tables, and a filtered user is refused them while the admin reads them`, async (t) => {
    if (c.skipped.includes(dialect)) return t.log(`${dialect} is not reachable here; skipped`), t.pass();
    const auth = { authorization: `Bearer ${c.app.session(c.admin)}`, 'content-type': 'application/json' };
    const res = await c.app.fetch(`/api/sync/${dialect}/${dialect}`, { method: 'POST', headers: auth, body: '{}' });
    t.is(res.status, 200);
    const flagged = ((await res.json()) as { flagged_views: { view: string; reads: string }[] }).flagged_views.map((f) => f.view.split('.').at(-1)).sort();
    // order_totals has a filter of its own; big_orders reads it, and has none.
    t.deepEqual(flagged, ['big_orders', 'customer_orders', 'orders_by_country']);
    const relations = await loadRelations(c.app.app.services.data.store, c.org, dialect);
    t.like(relations.find((r) => r.name === 'orders'), { kind: 'table', primaryKey: ['order_id'] });
    t.true(relations.find((r) => r.name === 'customer_orders')?.reads?.some((s) => s.name === 'customers'));
    const german = await principal(c.german.id);
    for (const view of ['orders_by_country', 'customer_orders', 'big_orders']) {
      const err = await t.throwsAsync(run(german, dialect, `SELECT * FROM ${view}`), { instanceOf: QueryRefused }, view);
      t.is(err?.reason, 'view_over_filtered_table');
    }
    const all = await run((await principal(c.admin.id)), dialect, 'SELECT country FROM orders_by_country');
    t.is(all.rows.length, 4);
    const own = await run(german, dialect, 'SELECT DISTINCT country FROM order_totals');
    t.deepEqual(own.rows.map((r) => r[0]), ['Germany']);
    t.is(Number((await run(german, dialect, 'SELECT count(*) FROM product_catalog')).rows[0]![0]), 8);
  });
}

test.serial('a view whose sources sync could not tell is refused to a filtered user, as if it read every filtered table', async (t) => {
  const db = c.app.app.services.data.store;
  const w = c.warehouses[0]!;
  const before = await loadRelations(db, c.org, w.connectionId);
  const schema = before.find((r) => r.name === 'product_catalog')!.schema;
  await saveRelations(db, c.app.clock, c.org, w.connectionId, before.map((r) => (r.name === 'product_catalog' ? { schema, name: r.name, kind: 'view' as const } : r)));
  try {
    const err = await t.throwsAsync(run((await principal(c.german.id)), w.connectionId, 'SELECT * FROM product_catalog'), { instanceOf: QueryRefused });
    t.is(err?.reason, 'view_over_filtered_table');
    t.regex(err!.message, /unknown sources/);
  } finally {
    await saveRelations(db, c.app.clock, c.org, w.connectionId, before);
  }
});

test.serial('PostgreSQL: a partition of a filtered table is refused to a filtered user, as its rows are the parent\'s', async (t) => {
  const f = await postgresFixture([], [
    'CREATE TABLE events (id INT, country VARCHAR(40)) PARTITION BY LIST (country)',
    "CREATE TABLE events_fr PARTITION OF events FOR VALUES IN ('France')",
    "CREATE TABLE events_de PARTITION OF events FOR VALUES IN ('Germany')",
    "INSERT INTO events VALUES (1, 'France'), (2, 'Germany')",
  ]);
  if (!f) return t.log(SKIP_PG), t.pass();
  const docs = createMemoryTableDocs();
  const app = await startTestApp({}, { tableDocs: docs });
  try {
    const org = app.org();
    const admin = app.user({ orgId: org, role: 'admin' });
    const user = app.user({ orgId: org });
    await setUserAttributes(app.app.services.executor, org, user.id, { country: 'Germany' });
    const auth = { authorization: `Bearer ${app.session(admin)}`, 'content-type': 'application/json' };
    await app.fetch('/api/connections', { method: 'POST', headers: auth, body: JSON.stringify({ id: 'pg', name: 'pg', type: 'postgresql', settings: f.settings }) });
    const sync = (await (await app.fetch('/api/sync/postgresql/pg', { method: 'POST', headers: auth, body: '{}' })).json()) as { flagged_views: unknown[] };
    t.deepEqual(sync.flagged_views, []);
    docs.setTables(org, undefined, ['events', 'events_fr', 'events_de'].map((name) => ({ connection: 'pg', schema: 'public', name, active: true, ...(name === 'events' ? { row_filters: [{ filter: 'country = {{user.country}}' }] } : {}) })));
    const db = app.app.services.store.sqlite!;
    const p = (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), user.id))!, org, 'session', []))!;
    const err = await t.throwsAsync(executeQuery(app.app.services.data, { principal: p, environmentId: undefined, connectionId: 'pg', sql: 'SELECT * FROM events_fr' }), { instanceOf: QueryRefused });
    t.is(err?.reason, 'view_over_filtered_table');
    t.deepEqual((await executeQuery(app.app.services.data, { principal: p, environmentId: undefined, connectionId: 'pg', sql: 'SELECT id FROM events' })).rows, [[2]]);
  } finally {
    await app.stop();
    await f.drop();
  }
});
