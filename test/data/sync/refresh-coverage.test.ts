// Metadata sync measures the data coverage of documented tables on every dialect, quoting hostile
// table names, and only where the documentation asks for it.
import test from 'ava';
import { createConnection } from '../../../src/data/connections/index.ts';
import type { ConnectionSettings } from '../../../src/data/drivers/driver.ts';
import { createMemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import type { TableDoc } from '../../../src/data/types.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { duckdbFixture, mysqlFixture, placeOrgFile, postgresFixture, SKIP_MYSQL, SKIP_PG, sqliteFixture, tempDir } from '../warehouses.ts';

const HOSTILE = 'odd "t"; DROP TABLE orders';
const ansi = (name: string) => `"${name.replace(/"/g, '""')}"`;
const hostileSql = (q: (s: string) => string) => [`CREATE TABLE ${q(HOSTILE)} (placed_on DATE, note VARCHAR(20))`, `INSERT INTO ${q(HOSTILE)} VALUES ('2023-03-01', 'a'), ('2021-07-09', 'b')`];

let t0: TestApp;
const docs = createMemoryTableDocs();
const root = tempDir();
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
});
test.after.always(() => t0.stop());

/** `file`: a DuckDB or SQLite fixture placed in the organization's warehouse folder. */
async function syncWith(schema: string, type: string, settings: ConnectionSettings, file?: string) {
  const org = t0.org();
  if (file) placeOrgFile(root, org, settings.path!, file);
  const admin = t0.user({ orgId: org, role: 'admin' });
  const s = t0.app.services;
  await createConnection({ store: s.data.store, clock: s.clock, secretBox: s.secretBox, fileRoots: s.config.data.warehouseRoots, checkHost: s.data.checkHost }, org, admin.id, { id: 'wh', name: 'wh', type: type as 'duckdb', settings });
  const doc = (name: string, extra: Partial<TableDoc>): TableDoc => ({ connection: 'wh', schema, name, active: true, ...extra });
  docs.setTables(org, undefined, [
    doc('orders', { coverage: { column: 'order_date', first: '2000-01-01', last: '2000-01-02' }, columns: [{ name: 'order_date', type: 'DATE' }] }),
    doc(HOSTILE, { metrics: [{ name: 'n', description: 'rows', expression: 'COUNT(*)', time_column: 'placed_on' }], coverage: { first: '2000-01-01', last: '2000-01-02' } }),
    // A coverage column that is text is not measured: its MIN and MAX are not dates.
    doc('customers', { coverage: { column: 'country', first: '2000-01-01', last: '2000-01-02' } }),
  ]);
  const res = await t0.fetch(`/api/sync/${type}/wh`, { method: 'POST', headers: { authorization: `Bearer ${t0.session(admin)}`, 'content-type': 'application/json' }, body: '{}' });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  const after = await docs.listTables(org, undefined);
  return (name: string) => after.find((d) => d.name === name)?.coverage;
}

test('duckdb: the coverage of documented tables is measured, hostile names quoted', async (t) => {
  const coverage = await syncWith('main', 'duckdb', { path: 'cov.duckdb' }, (await duckdbFixture(hostileSql(ansi))).path!);
  t.deepEqual(coverage('orders'), { column: 'order_date', first: '2024-01-02', last: '2024-05-06' });
  t.deepEqual(coverage(HOSTILE), { first: '2021-07-09', last: '2023-03-01' });
  t.deepEqual(coverage('customers'), { column: 'country', first: '2000-01-01', last: '2000-01-02' });
});

test('sqlite: the same', async (t) => {
  const coverage = await syncWith('main', 'sqlite', { path: 'cov.sqlite' }, sqliteFixture(hostileSql(ansi)).path!);
  t.deepEqual(coverage('orders'), { column: 'order_date', first: '2024-01-02', last: '2024-05-06' });
  t.deepEqual(coverage(HOSTILE), { first: '2021-07-09', last: '2023-03-01' });
});

test('postgresql: the same', async (t) => {
  const fx = await postgresFixture(hostileSql(ansi));
  if (!fx) return t.pass(SKIP_PG);
  t.teardown(() => fx.drop());
  const coverage = await syncWith('public', 'postgresql', fx.settings);
  t.deepEqual(coverage('orders'), { column: 'order_date', first: '2024-01-02', last: '2024-05-06' });
  t.deepEqual(coverage(HOSTILE), { first: '2021-07-09', last: '2023-03-01' });
});

test('mysql: the same, with backquotes', async (t) => {
  const fx = await mysqlFixture(hostileSql((name) => `\`${name.replace(/`/g, '``')}\``));
  if (!fx) return t.pass(SKIP_MYSQL);
  t.teardown(() => fx.drop());
  const coverage = await syncWith(fx.settings.database!, 'mysql', fx.settings);
  t.deepEqual(coverage('orders'), { column: 'order_date', first: '2024-01-02', last: '2024-05-06' });
  t.deepEqual(coverage(HOSTILE), { first: '2021-07-09', last: '2023-03-01' });
});
