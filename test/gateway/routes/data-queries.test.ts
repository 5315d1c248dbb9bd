import test from 'ava';
import { createMemoryTableDocs, type MemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import type { TableDoc } from '../../../src/data/types.ts';
import { setUserAttributes } from '../../../src/data/rls/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../../data/warehouses.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
let docs: MemoryTableDocs;
const org = 'qorg';
const other = 'qother';
let admin: string, modeler: string, analyst: string, analystId: string, modelerId: string, otherAdmin: string;

const DOCS: TableDoc[] = [
  { connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] },
  { connection: 'wh', schema: 'main', name: 'customers', active: false },
];

test.before(async () => {
  const root = tempDir();
  const fixture = await duckdbFixture(['CREATE SCHEMA dev', 'CREATE TABLE dev.orders AS SELECT * FROM orders WHERE order_id <= 2']);
  placeOrgFile(root, org, 'wh.duckdb', fixture.path!);
  docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_QUERY_ROW_LIMIT: '4' }, { tableDocs: docs });
  t0.org(org);
  t0.org(other);
  const a = t0.user({ orgId: org, role: 'admin' });
  admin = t0.session(a);
  const m = t0.user({ orgId: org, role: 'modeler' });
  modelerId = m.id;
  modeler = t0.session(m);
  const u = t0.user({ orgId: org, role: 'user' });
  analystId = u.id;
  analyst = t0.session(u);
  otherAdmin = t0.session(t0.user({ orgId: other, role: 'admin' }));
  await setUserAttributes(t0.app.services.executor, org, modelerId, { country: 'Germany' });
  await setUserAttributes(t0.app.services.executor, org, analystId, { country: 'France' });
  docs.setTables(org, undefined, DOCS);
  const res = await call('/api/connections', admin, { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } });
  if (res.status !== 201) throw new Error(await res.text());
});
test.after.always(() => t0.stop());

function call(path: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
  return t0.fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}
const ctxQuery = (token: string, body: unknown, headers?: Record<string, string>) => call('/api/context-agent/execute-query', token, body, headers);

test.serial('an admin gets CSV of any table with the interface fields, the configured default row limit applied', async (t) => {
  let res = await ctxQuery(admin, { sql: 'SELECT order_id, country FROM orders ORDER BY order_id', connection_id: 'wh' });
  t.is(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  t.deepEqual(Object.keys(body).sort(), ['column_count', 'csv_content', 'execution_time_ms', 'row_count', 'summary']);
  t.is(body['csv_content'], 'order_id,country\r\n1,Germany\r\n2,France\r\n3,Germany\r\n4,Japan\r\n');
  t.is(body['row_count'], 4);
  t.is(body['column_count'], 2);
  t.regex(String(body['summary']), /truncated/);
  t.is(typeof body['execution_time_ms'], 'number');
  res = await ctxQuery(admin, { sql: 'SELECT name FROM customers ORDER BY 1', row_limit: 2 });
  t.like(await res.json(), { row_count: 2, csv_content: 'name\r\nAnn\r\nBob\r\n' });
});

test.serial('csv_content neutralises text that would start a spreadsheet formula and leaves numbers alone', async (t) => {
  const res = await ctxQuery(admin, { sql: `SELECT '=HYPERLINK("x")' AS "@h", '+1' AS p, -5 AS n`, connection_id: 'wh' });
  t.is(res.status, 200);
  t.is(((await res.json()) as { csv_content: string }).csv_content, `'@h,p,n\r\n"'=HYPERLINK(""x"")",'+1,-5\r\n`);
});

test.serial('a modeler may query governed sources only, with row filters applied', async (t) => {
  let res = await ctxQuery(modeler, { sql: 'SELECT DISTINCT country FROM orders', connection_id: 'wh' });
  t.is(res.status, 200);
  t.is(((await res.json()) as { csv_content: string }).csv_content, 'country\r\nGermany\r\n');
  res = await ctxQuery(modeler, { sql: 'SELECT * FROM customers', connection_id: 'wh' });
  t.is(res.status, 400);
  t.like(await res.json(), { code: 'QUERY_REFUSED', data: { reason: 'ungoverned_table' } });
  res = await ctxQuery(modeler, { sql: 'SELECT * FROM information_schema.tables', connection_id: 'wh' });
  t.is(res.status, 400);
});

test.serial('regular users get 403 on the context-agent query but run governed queries through execute_query', async (t) => {
  t.is((await ctxQuery(analyst, { sql: 'SELECT 1', connection_id: 'wh' })).status, 403);
  const res = await call('/api/execute_query', analyst, { sql: 'SELECT order_id, country FROM orders ORDER BY 1', connection_id: 'wh' });
  t.is(res.status, 200);
  const body = (await res.json()) as { rows: unknown[][]; row_count: number; columns: { name: string }[]; tables: string[]; query_id: string };
  t.deepEqual(body.rows, [[2, 'France'], [5, 'France']]);
  t.deepEqual(body.columns.map((c) => c.name), ['order_id', 'country']);
  t.deepEqual(body.tables, ['main.orders']);
  t.is((await call('/api/execute_query', analyst, { sql: 'SELECT * FROM customers', connection_id: 'wh' })).status, 400);
});

test.serial('hostile SQL is refused with a typed reason and logged', async (t) => {
  const res = await ctxQuery(admin, { sql: "SELECT * FROM read_csv('/etc/passwd')", connection_id: 'wh' });
  t.is(res.status, 400);
  t.like(await res.json(), { code: 'QUERY_REFUSED', data: { reason: 'table_function' } });
  const refused = t0.app.services.store.sqlite!.prepare("SELECT count(*) AS n FROM query_log WHERE org_id = ? AND status = 'refused'").get(org) as { n: number };
  t.true(refused.n >= 1);
});

test.serial('every query is logged with user, connection, tables, rows and duration', async (t) => {
  await call('/api/execute_query', analyst, { sql: 'SELECT * FROM orders', connection_id: 'wh' });
  const row = t0.app.services.store.sqlite!
    .prepare("SELECT * FROM query_log WHERE org_id = ? AND user_id = ? AND status = 'ok' ORDER BY rowid DESC LIMIT 1")
    .get(org, analystId) as Record<string, unknown>;
  t.like(row, { connection_id: 'wh', tables: '["main.orders"]', row_count: 2, source: 'execute_query' });
  t.is(typeof row['duration_ms'], 'number');
});

test.serial('rerun_query runs a logged query again for its owner or an admin; others get 404', async (t) => {
  const first = (await (await call('/api/execute_query', analyst, { sql: 'SELECT count(*) AS n FROM orders', connection_id: 'wh' })).json()) as { query_id: string };
  let res = await call('/api/rerun_query', analyst, { query_id: first.query_id });
  t.is(res.status, 200);
  t.deepEqual(((await res.json()) as { rows: unknown[][] }).rows, [['2']]);
  // The admin reruns it under their own permissions: no filter.
  res = await call('/api/rerun_query', admin, { query_id: first.query_id });
  t.deepEqual(((await res.json()) as { rows: unknown[][] }).rows, [['5']]);
  t.is((await call('/api/rerun_query', modeler, { query_id: first.query_id })).status, 404);
  t.is((await call('/api/rerun_query', otherAdmin, { query_id: first.query_id })).status, 404);
  t.is((await call('/api/rerun_query', analyst, {})).status, 422);
});

test.serial('inside an environment, tables present in the target schema are read from there', async (t) => {
  docs.setTargets(org, 'env1', { wh: { schema: 'dev' } });
  const res = await ctxQuery(admin, { sql: 'SELECT (SELECT count(*) FROM orders) AS o, (SELECT count(*) FROM customers) AS c', connection_id: 'wh' }, { 'X-Service-Environment': 'env1' });
  t.is(res.status, 200);
  t.is(((await res.json()) as { csv_content: string }).csv_content, 'o,c\r\n2,4\r\n');
  const prod = await ctxQuery(admin, { sql: 'SELECT count(*) AS o FROM orders', connection_id: 'wh' });
  t.is(((await prod.json()) as { csv_content: string }).csv_content, 'o\r\n5\r\n');
  // Regular users always read production, whatever header they send.
  const user = await call('/api/execute_query', analyst, { sql: 'SELECT count(*) AS n FROM orders', connection_id: 'wh' }, { 'X-Service-Environment': 'env1' });
  t.deepEqual(((await user.json()) as { rows: unknown[][] }).rows, [['2']]);
});

test.serial('validation failures answer 422 and another organization\'s connection answers 404', async (t) => {
  t.is((await ctxQuery(admin, { connection_id: 'wh' })).status, 422);
  t.is((await ctxQuery(admin, { sql: 'SELECT 1', connection_id: 'wh', row_limit: 0 })).status, 422);
  t.is((await ctxQuery(otherAdmin, { sql: 'SELECT 1', connection_id: 'wh' })).status, 404);
  t.is((await call('/api/execute_query', otherAdmin, { sql: 'SELECT 1', connection_id: 'wh' })).status, 404);
  t.is((await t0.fetch('/api/context-agent/execute-query', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status, 401);
});

test.serial('the CLI catalog lists capabilities, connections and the most used tables', async (t) => {
  let res = await call('/api/cli/catalog', admin);
  t.is(res.status, 200);
  const cat = (await res.json()) as { connections: { id: string; dialect: string }[]; top_tables: { table: string; query_count: number }[]; capabilities: { sql: boolean } };
  t.deepEqual(cat.connections.map((c) => [c.id, c.dialect]), [['wh', 'duckdb']]);
  t.true(cat.capabilities.sql);
  t.deepEqual(cat.top_tables.map((x) => x.table).sort(), ['main.customers', 'main.orders']);
  res = await call('/api/cli/catalog', analyst);
  const mine = (await res.json()) as { top_tables: { table: string }[]; capabilities: { sql: boolean } };
  t.false(mine.capabilities.sql);
  t.deepEqual(mine.top_tables.map((x) => x.table), ['main.orders'], 'inactive tables stay hidden from non-admins');
  const theirs = (await (await call('/api/cli/catalog', otherAdmin)).json()) as { connections: unknown[]; top_tables: unknown[] };
  t.deepEqual([theirs.connections, theirs.top_tables], [[], []]);
});

test.serial('metadata sync introspects into table docs, keeping what people wrote; api_token + user_id accepted', async (t) => {
  const a = t0.user({ orgId: org, role: 'admin' });
  const token = t0.token(a);
  let res = await t0.fetch(`/api/sync/duckdb/wh?api_token=${token}&user_id=${a.id}`, { method: 'POST' });
  t.is(res.status, 200);
  t.like(await res.json(), { connection_id: 'wh', tables: 3 });
  const synced = await docs.listTables(org, undefined);
  const orders = synced.find((d) => d.name === 'orders' && d.schema === 'main')!;
  t.deepEqual(orders.row_filters, DOCS[0]!.row_filters, 'row filters kept');
  t.deepEqual(orders.columns?.map((c) => c.name), ['order_id', 'customer_id', 'country', 'total_amount', 'order_date']);
  t.is((await t0.fetch(`/api/sync/postgresql/wh?api_token=${token}&user_id=${a.id}`, { method: 'POST' })).status, 404);
  t.is((await call('/api/sync/duckdb/wh', analyst, {})).status, 403);
  t.is((await call('/api/sync/duckdb/wh', modeler, {})).status, 403, 'production needs an admin');
  res = await call('/api/sync/duckdb/wh', modeler, {}, { 'X-Service-Environment': 'env1' });
  t.is(res.status, 200);
  t.like(await res.json(), { schemas: ['main'], tables: 1 });
  t.is((await call('/api/sync/duckdb/wh', otherAdmin, {})).status, 404);
});
