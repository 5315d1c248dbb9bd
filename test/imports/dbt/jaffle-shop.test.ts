// The jaffle shop end to end: its warehouse built in DuckDB, its dbt artifacts imported into an
// environment, the environment merged, and the governed metrics answered through the agent with the
// offline model, compared with SQL over the warehouse.
import test from 'ava';
import { DuckDBInstance } from '@duckdb/node-api';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { EvaluationSuite } from '../../../src/shared/evaluation-suite.ts';
import { placeOrgFile, tempDir } from '../../data/warehouses.ts';
import { call } from '../../helpers/api.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { buildJaffleWarehouse, JAFFLE_DIR } from '../../helpers/jaffle-warehouse.ts';

const org = 'jaffle-org';
let t0: TestApp;
let admin: string;
let warehouse: string;
let envId: string;
const manifest = () => JSON.parse(readFileSync(join(JAFFLE_DIR, 'manifest.json'), 'utf8')) as unknown;
const catalog = () => JSON.parse(readFileSync(join(JAFFLE_DIR, 'catalog.json'), 'utf8')) as unknown;
const suite = EvaluationSuite.parse(parse(readFileSync(join(JAFFLE_DIR, 'evaluations', 'jaffle-shop.yaml'), 'utf8')));

/** Rows of a query over the warehouse, as strings (numbers rounded to cents). */
async function sqlRows(sql: string): Promise<string[][]> {
  return (await sqlValues(sql)).map((r) => r.map(cell));
}

async function sqlValues(sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(warehouse, { access_mode: 'READ_ONLY' });
  const conn = await instance.connect();
  try {
    return (await (await conn.run(sql)).getRows()) as unknown[][];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

const cell = (v: unknown): string => {
  const n = Number(String(v));
  return Number.isFinite(n) && String(v).trim() !== '' ? n.toFixed(2) : String(v).slice(0, 10);
};

async function ask(question: string, chat: string): Promise<{ content: string; rows: string[][] }> {
  const res = await call(t0, 'POST', '/api/agentic', { token: admin, body: { chat_id: chat, messages: [{ role: 'user', content: question }] } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const table = (res.body.tables as { rows: unknown[][] }[])[0];
  return { content: res.body.content as string, rows: (table?.rows ?? []).map((r) => r.map(cell)) };
}

test.before(async () => {
  const root = tempDir();
  warehouse = await buildJaffleWarehouse();
  placeOrgFile(root, org, 'jaffle_shop.duckdb', warehouse);
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  t0.org(org);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'jaffle', name: 'Jaffle shop', type: 'duckdb', settings: { path: 'jaffle_shop.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  const imported = await call(t0, 'POST', '/api/import/dbt', { token: admin, body: { connection_id: 'jaffle', manifest: manifest(), catalog: catalog() } });
  if (imported.status !== 200) throw new Error(JSON.stringify(imported.body));
  envId = imported.body.environment_id as string;
});
test.after.always(() => t0?.stop());

test.serial('the import documents every model and source of the warehouse, with governed metrics, in a new environment', async (t) => {
  const env = await call(t0, 'GET', `/api/environments/${envId}`, { token: admin });
  t.is(env.status, 200);
  t.is(env.body.name, 'dbt jaffle_shop 2025-10-11 00:05');
  const kept = await call(t0, 'GET', `/api/import/dbt?environment_id=${envId}`, { token: admin });
  t.is(kept.status, 200);
  const summary = kept.body.imports[0].summary;
  t.like(summary.counts, { tables: { created: 19, updated: 0, deleted: 0 }, relationships: { created: 6 } });
  t.is(summary.metrics, 15);
  const skipped = Object.fromEntries((summary.skipped as { unique_id: string; reason: string }[]).map((s) => [s.unique_id, s.reason]));
  // Never approximated: a median, a period-over-period offset, a cross-table derived metric and a running total.
  for (const m of ['median_revenue', 'revenue_growth_mom', 'order_gross_profit', 'cumulative_revenue']) t.truthy(skipped[`metric.jaffle_shop.${m}`], m);
  const items = await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('jaffle/main.order_items')}`, { token: admin, env: envId });
  t.is(items.status, 200);
  const doc = items.body.data;
  t.is(doc.source, 'dbt');
  t.is(doc.dbt.unique_id, 'model.jaffle_shop.order_items');
  t.is(doc.dbt.generated_at, '2025-10-11T00:05:38.551300Z');
  t.true(doc.dbt.depends_on.includes('model.jaffle_shop.stg_order_items'), 'lineage is readable');
  t.like(doc.metrics.find((m: { name: string }) => m.name === 'revenue'), { expression: 'SUM(product_price)', time_column: 'ordered_at' });
  t.like(doc.columns.find((c: { name: string }) => c.name === 'order_item_id'), { type: 'VARCHAR', key: true, not_null: true });
  const customers = (await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('jaffle/main.customers')}`, { token: admin, env: envId })).body.data;
  t.deepEqual(customers.columns.find((c: { name: string }) => c.name === 'customer_type').accepted_values, ['new', 'returning']);
  const orders = (await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('jaffle/main.orders')}`, { token: admin, env: envId })).body.data;
  t.like(orders.metrics.find((m: { name: string }) => m.name === 'food_orders'), { expression: 'SUM(1)', filter: 'is_food_order = true' });
  // Production is untouched until the merge.
  t.is((await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('jaffle/main.orders')}`, { token: admin })).status, 404);
});

test.serial('re-importing the same artifacts changes nothing: no commit, the same diff', async (t) => {
  const before = await call(t0, 'GET', `/api/environments/${envId}/diff`, { token: admin });
  const again = await call(t0, 'POST', '/api/import/dbt', { token: admin, body: { connection_id: 'jaffle', environment_id: envId, manifest: manifest(), catalog: catalog() } });
  t.is(again.status, 200, JSON.stringify(again.body));
  t.is(again.body.commit, null);
  t.false(again.body.environment_created);
  t.like(again.body.counts, { tables: { created: 0, updated: 0, unchanged: 19, deleted: 0 }, relationships: { created: 0, unchanged: 6 }, reports: { created: 0, updated: 0 } });
  t.deepEqual((await call(t0, 'GET', `/api/environments/${envId}/diff`, { token: admin })).body, before.body);
});

test.serial('merged, the governed revenue and orders metrics by location and by month give the numbers SQL gives', async (t) => {
  t.timeout(120_000);
  const merged = await call(t0, 'POST', `/api/environments/${envId}/merge`, { token: admin, body: { confirm: true } });
  t.is(merged.status, 200, JSON.stringify(merged.body));
  const byLocation = (measure: string) =>
    `SELECT l.location_id, l.location_name, ${measure} FROM main.orders o JOIN main.locations l ON l.location_id = o.location_id GROUP BY 1, 2`;
  const cases: [string, string][] = [
    ['What is the revenue by location?', 'SELECT l.location_id, l.location_name, SUM(oi.product_price) FROM main.order_items oi JOIN main.orders o ON o.order_id = oi.order_id JOIN main.locations l ON l.location_id = o.location_id GROUP BY 1, 2'],
    ['Revenue by month', "SELECT strftime(date_trunc('month', ordered_at), '%Y-%m-%d'), SUM(product_price) FROM main.order_items GROUP BY 1"],
    ['Orders by location', byLocation('COUNT(*)')],
    ['Number of orders by month', "SELECT strftime(date_trunc('month', ordered_at), '%Y-%m-%d'), COUNT(*) FROM main.orders GROUP BY 1"],
  ];
  for (const [i, [question, sql]] of cases.entries()) {
    const answer = await ask(question, `metric-${i}`);
    const sort = (rows: string[][]) => rows.map((r) => r.join('|')).sort();
    t.deepEqual(sort(answer.rows), sort(await sqlRows(sql)), `${question}\n${answer.content}`);
    t.regex(answer.content, /Metric (revenue|orders)/, 'the answer names the governed metric');
  }
});

test.serial('the evaluation suite kept in the fixtures is valid, and the offline model answers its questions as SQL does', async (t) => {
  t.timeout(180_000);
  t.true(suite.questions.length >= 20);
  const wrong: string[] = [];
  for (const q of suite.questions) {
    const expected = Number(String((await sqlValues(q.expected_sql!))[0]![0]));
    t.true(Math.abs(expected - Number(q.expected_answer)) <= Math.abs(expected) * 0.001, `${q.id}: the fixture's expected answer matches its SQL`);
    const answer = await ask(q.question, `eval-${q.id}`);
    const got = Number(answer.rows[0]?.at(-1));
    if (!(Math.abs(got - expected) <= Math.abs(expected) * ((q.tolerance_pct ?? 3) / 100))) wrong.push(q.id);
  }
  // Questions the offline model cannot answer yet stay in the suite (its wording improves elsewhere):
  // today a location named in the question (its names are not listed values of a documented column)
  // and "customers" (a measure of the customers semantic model, not a metric).
  t.log(`not answered as SQL does: ${wrong.join(', ') || 'none'}`);
  t.true(wrong.length <= 5, wrong.join(', '));
  for (const id of ['revenue.total', 'revenue.march_2024', 'revenue.q3_2024', 'orders.total', 'orders.june_2024', 'food_orders.total', 'large_orders.total', 'order_total.total', 'food_revenue_pct.total']) t.false(wrong.includes(id), id);
});
