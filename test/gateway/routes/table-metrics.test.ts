// Governed metrics through the interface: written and validated like every knowledge item (422 with
// the field named, roles, organizations), documented in the OpenAPI document, and the demo's coverage
// refreshed by a metadata sync.
import test from 'ava';
import { sqliteExecutor } from '../../../src/store/index.ts';
import { DuckDBInstance } from '@duckdb/node-api';
import { join } from 'node:path';
import { findUserByEmail } from '../../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../../src/compose/demo/seed-demo.ts';
import { call } from '../../helpers/api.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
let admin: string, modeler: string, analyst: string;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '500' });
  const db = t0.app.services.store.sqlite!;
  const token = async (email: string) => t0.session((await findUserByEmail(sqliteExecutor(db), email))!, DEMO_ORG_ID);
  admin = await token('admin@demo.sextant.local');
  modeler = await token('modeler@demo.sextant.local');
  analyst = await token('analyst@demo.sextant.local');
});
test.after.always(() => t0.stop());

const ORDERS = '/api/knowledge/tables/demo_warehouse%2Fmain.orders';
const ordersData = async () => (await call(t0, 'GET', ORDERS, { token: analyst })).body.data as { metrics: Record<string, unknown>[]; coverage: Record<string, string> };

test.serial('a broken metric answers 422 naming the field, and nothing is written', async (t) => {
  const data = await ordersData();
  const env = (await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: 'Metric edit', color: '#123456' } })).body.id as string;
  const bad = { ...data, metrics: [{ ...data.metrics[0], expression: 'SUM(total_amount) FROM orders' }] };
  const res = await call(t0, 'PUT', ORDERS, { token: modeler, env, body: bad });
  t.is(res.status, 422);
  // The HTTPValidationError shape every 422 has: the issues, and the code of the rule or of validation.
  t.deepEqual(Object.keys(res.body).sort(), ['code', 'detail']);
  t.deepEqual(res.body.detail[0].loc, ['body', 'metrics', 0, 'expression']);
  t.is(typeof res.body.detail[0].msg, 'string');
  t.deepEqual((await call(t0, 'GET', `/api/environments/${env}/diff`, { token: modeler })).body.files, []);
});

test.serial('a modeler changes a metric in an environment; users cannot, and other organizations do not see it', async (t) => {
  const data = await ordersData();
  const env = (await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: 'Completed only', color: '#654321' } })).body.id as string;
  const changed = { ...data, metrics: [{ ...data.metrics[0], filter: "status = 'completed'" }, ...data.metrics.slice(1)] };
  t.is((await call(t0, 'PUT', ORDERS, { token: modeler, env, body: changed })).status, 200);
  t.deepEqual((await call(t0, 'GET', `/api/environments/${env}/diff`, { token: modeler })).body.files, [{ path: 'tables/demo_warehouse/main.orders.yaml', status: 'modified' }]);
  t.is(((await call(t0, 'GET', ORDERS, { token: modeler, env })).body.data.metrics[0] as { filter: string }).filter, "status = 'completed'");
  t.is((await ordersData()).metrics[0]!['filter'], "status IN ('completed', 'shipped')", 'production keeps its definition until the merge');
  t.is((await call(t0, 'PUT', ORDERS, { token: analyst, body: changed })).status, 403);
  const stranger = t0.session(t0.user({ orgId: t0.org('other-org'), role: 'admin' }));
  t.is((await call(t0, 'GET', ORDERS, { token: stranger })).status, 404);
});

test.serial('the OpenAPI document describes metrics and coverage', async (t) => {
  const doc = (await call(t0, 'GET', '/openapi.json')).body;
  const catalog = doc.paths['/api/cli/catalog'].get.responses['200'].content['application/json'].schema;
  const metric = catalog.properties.top_tables.items.properties.metrics.items;
  t.is(metric.title, 'Metric');
  t.deepEqual(metric.required.sort(), ['description', 'expression', 'name']);
  t.truthy(metric.properties.time_column);
  t.is(catalog.properties.top_tables.items.properties.coverage.title, 'DataCoverage');
  const item = doc.paths['/api/knowledge/{kind}'].get.responses['200'].content['application/json'].schema.properties.items.items.properties.data;
  t.regex(JSON.stringify(item), /"title":"TableDocumentation"/);
});

async function measuredCoverage(): Promise<[string, string]> {
  const instance = await DuckDBInstance.create(join(t0.config.dataDir, 'warehouse', DEMO_ORG_ID, 'demo.duckdb'), { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  const [first, last] = ((await conn.runAndReadAll('SELECT MIN(order_date)::VARCHAR, MAX(order_date)::VARCHAR FROM orders')).getRowsJson() as string[][])[0]!;
  conn.closeSync();
  instance.closeSync();
  return [first!, last!];
}

test.serial('an environment’s sync from its target refreshes the coverage there', async (t) => {
  const env = (await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: 'Dev target', color: '#112233' } })).body.id as string;
  t.is((await call(t0, 'PUT', `/api/environments/${env}/targets`, { token: modeler, body: { targets: { demo_warehouse: { schema: 'main' } } } })).status, 200);
  t.is((await call(t0, 'POST', `/api/environments/${env}/sync_target`, { token: modeler, body: {} })).status, 200);
  const [first, last] = await measuredCoverage();
  t.deepEqual((await call(t0, 'GET', ORDERS, { token: modeler, env })).body.data.coverage, { column: 'order_date', first, last });
});

test.serial('a metadata sync refreshes the coverage from the warehouse and keeps the metrics', async (t) => {
  const res = await call(t0, 'POST', '/api/sync/duckdb/demo_warehouse', { token: admin, body: {} });
  t.is(res.status, 200);
  const [first, last] = await measuredCoverage();
  const data = await ordersData();
  t.deepEqual(data.coverage, { column: 'order_date', first, last });
  t.deepEqual(data.metrics.map((m) => m['name']), ['revenue', 'order_count', 'average_order_value']);
});
