// POST /api/import/dbt and GET /api/import/dbt: who may import, what bad artifacts get (a 422 naming
// the problem, nothing written), a hand-written BigQuery-style project whose catalog lacks some
// relations, multipart uploads, the query-string API token of CI jobs, re-imports after changes (in
// the same process, where what was rendered before is remembered),
// people's edits kept as conflicts, and vanished nodes deleted on the environment only.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { duckdbFixture, placeOrgFile, tempDir } from '../../data/warehouses.ts';
import { call } from '../../helpers/api.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import type { UserRow } from '../../../src/auth/index.ts';

const DIR = new URL('../../../fixtures/dbt/bigquery_shop/', import.meta.url).pathname;
const manifestText = readFileSync(join(DIR, 'manifest.json'), 'utf8');
const catalogText = readFileSync(join(DIR, 'catalog.json'), 'utf8');
const manifest = () => JSON.parse(manifestText) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const catalog = () => JSON.parse(catalogText) as Record<string, unknown>;
const WAREHOUSE = [
  'CREATE SCHEMA analytics',
  'CREATE TABLE analytics.orders (order_id INTEGER, customer_id INTEGER, status VARCHAR, amount DECIMAL(10,2))',
  'CREATE TABLE analytics.customers (customer_id INTEGER, name VARCHAR)',
  'CREATE TABLE analytics.raw_payments (payment_id INTEGER, order_id INTEGER, amount DECIMAL(10,2))',
];

let t0: TestApp;
let admin: string, modeler: string, analyst: string, outsider: string;
let modelerUser: UserRow;

test.before(async () => {
  const root = tempDir();
  const duck = (await duckdbFixture([], WAREHOUSE)).path!;
  placeOrgFile(root, 'bq-org', 'wh.duckdb', duck);
  placeOrgFile(root, 'bq-other', 'wh.duckdb', duck);
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  t0.org('bq-org');
  t0.org('bq-other');
  admin = t0.session(t0.user({ orgId: 'bq-org', role: 'admin' }));
  modelerUser = t0.user({ orgId: 'bq-org', role: 'modeler' });
  modeler = t0.session(modelerUser);
  analyst = t0.session(t0.user({ orgId: 'bq-org', role: 'user' }));
  outsider = t0.session(t0.user({ orgId: 'bq-other', role: 'admin' }));
  for (const [token, id] of [[admin, 'wh'], [outsider, 'other_wh']] as const) {
    const res = await call(t0, 'POST', '/api/connections', { token, body: { id, name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
});
test.after.always(() => t0?.stop());

const post = (token: string, body: unknown, query = '') => call(t0, 'POST', `/api/import/dbt${query}`, { token, body });
const environments = async (token = admin) => (await call(t0, 'GET', '/api/environments', { token })).body as { id: string }[];
const item = async (kind: string, id: string, env: string) => call(t0, 'GET', `/api/knowledge/${kind}/${encodeURIComponent(id)}`, { token: admin, env });

test.serial('a BigQuery-style project without semantic models imports its models and source, and skips what the warehouse lacks', async (t) => {
  const res = await post(modeler, { connection_id: 'wh', manifest: manifest(), catalog: catalog() });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.like(res.body, { environment_created: true, project: 'bq_shop', metrics: 0, counts: { tables: { created: 3 }, relationships: { created: 1 }, reports: { created: 0 } } });
  const reasons = Object.fromEntries((res.body.skipped as { unique_id: string; reason: string }[]).map((s) => [s.unique_id, s.reason]));
  t.regex(reasons['model.bq_shop.stg_events']!, /no relation staging\.stg_events on connection wh/);
  t.regex(reasons['exposure.bq_shop.weekly_dashboard']!, /exposure/);
  const env = res.body.environment_id as string;
  const orders = (await item('tables', 'wh/analytics.orders', env)).body.data;
  t.like(orders, { source: 'dbt', description: 'One row per order.', tags: ['finance'], meta: { owner: 'data-team' }, dbt: { unique_id: 'model.bq_shop.orders', generated_at: '2024-05-02T08:00:00.000000Z' } });
  t.deepEqual(orders.columns.map((c: { name: string; type: string }) => `${c.name}:${c.type}`), ['order_id:INT64', 'customer_id:INT64', 'status:STRING', 'amount:NUMERIC']);
  t.like(orders.columns[0], { key: true, not_null: true });
  t.like(orders.columns[2], { accepted_values: ['placed', 'shipped', 'returned'], description: "Where the order stands. Allowed values: 'placed', 'shipped', 'returned'." });
  // The whole path in one pair of backticks resolves too; without catalog types, the warehouse's.
  const customers = (await item('tables', 'wh/analytics.customers', env)).body.data;
  t.deepEqual(customers.columns.map((c: { name: string; type: string }) => `${c.name}:${c.type}`), ['customer_id:INTEGER', 'name:VARCHAR']);
  t.is((await item('tables', 'wh/analytics.raw_payments', env)).body.data.dbt.unique_id, 'source.bq_shop.raw.raw_payments');
  t.like((await item('relationships', 'dbt-orders-customer_id-customers', env)).body.data, { kind: 'many_to_one', from: { table: 'orders', column: 'customer_id' }, to: { table: 'customers', column: 'customer_id' } });
  const kept = await call(t0, 'GET', `/api/import/dbt?environment_id=${env}`, { token: modeler });
  t.is(kept.status, 200);
  t.deepEqual(kept.body.imports[0].summary, res.body);
});

test.serial('a changed project re-imports as exactly the changed files; a person\'s edit is a conflict, and a vanished node is deleted in the environment only', async (t) => {
  const first = await post(admin, { connection_id: 'wh', manifest: manifest(), catalog: catalog() });
  const env = first.body.environment_id as string;
  const merged = await call(t0, 'POST', `/api/environments/${env}/merge`, { token: admin, body: { confirm: true } });
  t.is(merged.status, 200, JSON.stringify(merged.body));
  const next = await call(t0, 'POST', '/api/environments', { token: admin, body: { name: 'dbt next', color: '#123456' } });
  const envId = next.body.id as string;
  // A person edits the customers documentation on the environment.
  const customers = (await item('tables', 'wh/analytics.customers', envId)).body.data;
  const edited = await call(t0, 'PUT', `/api/knowledge/tables/${encodeURIComponent('wh/analytics.customers')}`, { token: admin, env: envId, body: { ...customers, description: 'Customers, as finance counts them.' } });
  t.is(edited.status, 200, JSON.stringify(edited.body));
  const changed = manifest();
  changed['metadata'].generated_at = '2024-05-03T08:00:00.000000Z';
  changed['nodes']['model.bq_shop.orders'].description = 'One row per order, refunds included.';
  changed['nodes']['model.bq_shop.customers'].description = 'Every customer.';
  delete changed['sources']['source.bq_shop.raw.raw_payments'];
  const res = await post(admin, { connection_id: 'wh', environment_id: envId, manifest: changed, catalog: catalog() });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.like(res.body.counts, { tables: { created: 0, updated: 1, unchanged: 0, deleted: 1 }, relationships: { unchanged: 1 } });
  t.deepEqual(res.body.conflicts.map((c: { path: string }) => c.path), ['tables/wh/analytics.customers.yaml']);
  const diff = await call(t0, 'GET', `/api/environments/${envId}/diff`, { token: admin });
  const files = JSON.stringify(diff.body);
  t.true(files.includes('analytics.orders.yaml') && files.includes('analytics.raw_payments.yaml') && files.includes('analytics.customers.yaml'), files);
  t.is((await item('tables', 'wh/analytics.customers', envId)).body.data.description, 'Customers, as finance counts them.');
  t.is((await item('tables', 'wh/analytics.orders', envId)).body.data.dbt.generated_at, '2024-05-03T08:00:00.000000Z');
  t.is((await item('tables', 'wh/analytics.raw_payments', envId)).status, 404);
  t.is((await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('wh/analytics.raw_payments')}`, { token: admin })).status, 200, 'production keeps it until the merge');
});

test.serial('in one process, the same artifacts again (at the same or a new time) change nothing, and a changed catalog type or a deleted file is found again', async (t) => {
  const first = await post(admin, { connection_id: 'wh', manifest: manifest(), catalog: catalog() });
  const env = first.body.environment_id as string;
  const same = await post(admin, { connection_id: 'wh', environment_id: env, manifest: manifest(), catalog: catalog() });
  t.like(same.body, { commit: null, counts: { tables: { created: 0, updated: 0, unchanged: 3 }, relationships: { unchanged: 1 } } });
  const later = manifest();
  later['metadata'].generated_at = '2024-05-04T08:00:00.000000Z';
  const newTime = await post(admin, { connection_id: 'wh', environment_id: env, manifest: later, catalog: catalog() });
  t.like(newTime.body, { commit: null, counts: { tables: { created: 0, updated: 0, unchanged: 3 } } }, 'a new provenance time alone is no change');
  const retyped = catalog() as { nodes: Record<string, { columns: Record<string, { type: string }> }> };
  retyped.nodes['model.bq_shop.orders']!.columns['amount']!.type = 'BIGNUMERIC';
  const res = await post(admin, { connection_id: 'wh', environment_id: env, manifest: manifest(), catalog: retyped });
  t.like(res.body.counts, { tables: { created: 0, updated: 1, unchanged: 2 } });
  t.is((await item('tables', 'wh/analytics.orders', env)).body.data.columns.find((c: { name: string }) => c.name === 'amount').type, 'BIGNUMERIC');
  // A person deletes an imported file: the next import of the same artifacts writes it again.
  t.is((await call(t0, 'DELETE', `/api/knowledge/tables/${encodeURIComponent('wh/analytics.customers')}`, { token: admin, env })).status, 200);
  const again = await post(admin, { connection_id: 'wh', environment_id: env, manifest: manifest(), catalog: retyped });
  t.like(again.body.counts, { tables: { created: 1, updated: 0, unchanged: 2 } });
});

test.serial('multipart uploads and the query-string API token of a CI job import too', async (t) => {
  const form = new FormData();
  form.append('connection_id', 'wh');
  form.append('manifest', new Blob([manifestText], { type: 'application/json' }), 'manifest.json');
  form.append('catalog', new Blob([catalogText], { type: 'application/json' }), 'catalog.json');
  const token = t0.token(modelerUser);
  const res = await t0.fetch(`/api/import/dbt?api_token=${encodeURIComponent(token)}&user_id=${modelerUser.id}`, { method: 'POST', body: form });
  t.is(res.status, 200, await res.clone().text());
  const body = (await res.json()) as { project: string; environment_created: boolean; counts: { tables: { created: number; unchanged: number } } };
  t.like(body, { project: 'bq_shop', environment_created: true });
  // Production may hold the project already (another test merged it): then its files are unchanged.
  t.is(body.counts.tables.created + body.counts.tables.unchanged, 3);
  // Another route refuses the token in the query string.
  t.is((await t0.fetch(`/api/environments?api_token=${encodeURIComponent(token)}&user_id=${modelerUser.id}`)).status, 401);
});

test('bad artifacts get a 422 naming what is wrong, and nothing is written', async (t) => {
  const before = (await environments()).length;
  const detail = async (body: unknown) => {
    const res = await post(admin, body);
    t.is(res.status, 422, JSON.stringify(res.body));
    t.true(Array.isArray(res.body.detail) && res.body.detail.every((d: { loc: unknown; msg: unknown; type: unknown }) => Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string'));
    return res.body.detail[0] as { loc: string[]; msg: string; type: string };
  };
  t.like(await detail({ connection_id: 'wh' }), { loc: ['body', 'manifest'], type: 'missing' });
  t.like(await detail({ manifest: manifest() }), { loc: ['body', 'connection_id'] });
  t.like(await detail({ connection_id: 'wh', manifest: '{ not json' }), { loc: ['body', 'manifest'], type: 'json_invalid' });
  t.regex((await detail({ connection_id: 'wh', manifest: { hello: 'world' } })).msg, /not a dbt manifest/);
  const old = manifest();
  old['metadata'].dbt_schema_version = 'https://schemas.getdbt.com/dbt/manifest/v9.json';
  t.regex((await detail({ connection_id: 'wh', manifest: old })).msg, /unsupported manifest schema version v9/);
  t.like(await detail({ connection_id: 'wh', manifest: manifest(), catalog: manifest() }), { loc: ['body', 'catalog'] });
  const foreign = { ...catalog(), nodes: { 'model.other_project.orders': { metadata: {}, columns: {} } } };
  t.regex((await detail({ connection_id: 'wh', manifest: manifest(), catalog: foreign })).msg, /catalog of another project \(other_project\)/);
  const form = new FormData();
  form.append('connection_id', 'wh');
  form.append('manifest', new Blob(['\u0000 binary']), 'manifest.json');
  const res = await t0.fetch('/api/import/dbt', { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } });
  t.is(res.status, 422);
  t.like(((await res.json()) as { detail: unknown[] }).detail[0], { loc: ['body', 'manifest'], type: 'json_invalid' });
  t.is((await environments()).length, before, 'no environment was made');
});

test('no credential is 401, an analyst 403; another organization\'s connection or environment is 404', async (t) => {
  t.is((await call(t0, 'POST', '/api/import/dbt', { body: { connection_id: 'wh', manifest: manifest() } })).status, 401);
  t.is((await post(analyst, { connection_id: 'wh', manifest: manifest() })).status, 403);
  t.is((await call(t0, 'GET', '/api/import/dbt?environment_id=env_x', { token: analyst })).status, 403);
  t.is((await post(admin, { connection_id: 'other_wh', manifest: manifest() })).status, 404);
  t.is((await post(outsider, { connection_id: 'wh', manifest: manifest() })).status, 404);
  const theirs = await call(t0, 'POST', '/api/environments', { token: outsider, body: { name: 'theirs', color: '#123456' } });
  t.is((await post(admin, { connection_id: 'wh', environment_id: theirs.body.id, manifest: manifest() })).status, 404);
  t.is((await call(t0, 'GET', `/api/import/dbt?environment_id=${theirs.body.id}`, { token: admin })).status, 404);
  t.is((await call(t0, 'GET', '/api/import/dbt', { token: admin })).status, 422);
});
