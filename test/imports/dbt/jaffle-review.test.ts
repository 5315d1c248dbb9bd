// The jaffle shop's dbt import reviewed as a modeler does before merging, with the real evaluation
// runner and the offline model, under the required evaluation gate: import into an environment, add
// the fixtures' evaluation suite there, run it on the environment and on production, merge (production
// answered nothing, the environment answers the suite: no regression), and ask production. Then a
// changed dbt project that redefines revenue is imported into a new environment: the suite regresses
// on the revenue questions there, and the gate refuses that merge.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { placeOrgFile, tempDir } from '../../data/warehouses.ts';
import { call } from '../../helpers/api.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { buildJaffleWarehouse, JAFFLE_DIR } from '../../helpers/jaffle-warehouse.ts';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const org = 'review-org';
const suite = parse(readFileSync(join(JAFFLE_DIR, 'evaluations', 'jaffle-shop.yaml'), 'utf8')) as { id: string; questions: { id: string }[] };
const manifest = () => JSON.parse(readFileSync(join(JAFFLE_DIR, 'manifest.json'), 'utf8')) as Json;
const catalog = () => JSON.parse(readFileSync(join(JAFFLE_DIR, 'catalog.json'), 'utf8')) as unknown;
let t0: TestApp;
let modeler: string;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'jaffle_shop.duckdb', await buildJaffleWarehouse());
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  t0.org(org);
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  modeler = t0.session(t0.user({ orgId: org, role: 'modeler', permissions: ['merge_to_production'] }));
  const conn = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'jaffle', name: 'Jaffle shop', type: 'duckdb', settings: { path: 'jaffle_shop.duckdb' } } });
  if (conn.status !== 201) throw new Error(JSON.stringify(conn.body));
  const gate = await call(t0, 'PUT', '/api/evaluations/settings', { token: admin, body: { evaluation_gate: 'required' } });
  if (gate.status !== 200) throw new Error(JSON.stringify(gate.body));
});
test.after.always(() => t0?.stop());

async function importInto(m: unknown, environmentId?: string): Promise<string> {
  const res = await call(t0, 'POST', '/api/import/dbt', { token: modeler, body: { connection_id: 'jaffle', manifest: m, catalog: catalog(), ...(environmentId ? { environment_id: environmentId } : {}) } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.environment_id as string;
}

/** The environment's evaluation diff once the runner has finished both sides. */
async function readyDiff(envId: string): Promise<Json> {
  const first = await call(t0, 'GET', `/api/environments/${envId}/evaluation_diff`, { token: modeler });
  if (first.status !== 200) throw new Error(JSON.stringify(first.body));
  for (const e of first.body.evaluations) for (const id of [e.environment_run_id, e.production_run_id]) if (id) await t0.app.services.evaluations.settled(id);
  return (await call(t0, 'GET', `/api/environments/${envId}/evaluation_diff`, { token: modeler })).body;
}

const run = async (id: string) => (await call(t0, 'GET', `/api/evaluation_runs/${id}`, { token: modeler })).body;

test.serial('import, evaluate on the environment, merge past the required gate, then production answers with the imported metric', async (t) => {
  t.timeout(300_000);
  const envId = await importInto(manifest());
  const added = await call(t0, 'POST', '/api/knowledge/evaluations', { token: modeler, env: envId, body: suite });
  t.is(added.status, 201, JSON.stringify(added.body));
  const diff = await readyDiff(envId);
  t.is(diff.status, 'ready');
  t.deepEqual(diff.unusable, []);
  const entry = diff.evaluations.find((e: Json) => e.evaluation_id === suite.id);
  const onEnv = await run(entry.environment_run_id);
  const onProd = await run(entry.production_run_id);
  t.like(onEnv.summary, { total: suite.questions.length, pending: 0 });
  // The offline model answers most of the suite from the imported knowledge; production, without it, none.
  t.true(onEnv.summary.pass >= 19, JSON.stringify(onEnv.questions.filter((q: Json) => q.result !== 'pass').map((q: Json) => [q.id, q.observed])));
  t.is(onProd.summary.pass, 0);
  // The gate refuses regressions against production: questions failing on both sides (the offline
  // model's gaps) do not hold the merge back.
  t.deepEqual(diff.regressions, []);
  t.like(entry.comparison.summary, { regressed: 0, fixed: onEnv.summary.pass, still_failing: suite.questions.length - onEnv.summary.pass });

  const merged = await call(t0, 'POST', `/api/environments/${envId}/merge`, { token: modeler, body: { confirm: true } });
  t.is(merged.status, 200, JSON.stringify(merged.body));
  const answer = await call(t0, 'POST', '/api/agentic', { token: modeler, body: { chat_id: 'after-merge', messages: [{ role: 'user', content: 'What is the total revenue?' }] } });
  t.is(answer.status, 200);
  t.is(Number(answer.body.tables[0].rows[0].at(-1)), 7325);
  t.regex(answer.body.content as string, /Metric revenue/);
});

test.serial('a dbt project that redefines revenue regresses the revenue questions, and the required gate refuses its merge', async (t) => {
  t.timeout(300_000);
  const changed = manifest();
  const measure = changed.semantic_models['semantic_model.jaffle_shop.order_item'].measures.find((m: Json) => m.name === 'revenue');
  measure.expr = 'supply_cost';
  const envId = await importInto(changed);
  const diff = await readyDiff(envId);
  t.is(diff.status, 'ready');
  const regressed = diff.regressions.map((r: Json) => r.question_id as string);
  for (const id of ['revenue.total', 'revenue.2024', 'revenue.march_2024', 'revenue.q3_2024']) t.true(regressed.includes(id), `${id} regressed: ${regressed.join(', ')}`);
  t.true(regressed.every((id: string) => /revenue|order_total|average_order_value/.test(id)), regressed.join(', '));
  const refused = await call(t0, 'POST', `/api/environments/${envId}/merge`, { token: modeler, body: { confirm: true } });
  t.is(refused.status, 409);
  t.is(refused.body.code, 'EVALUATION_REGRESSION');
  t.deepEqual(refused.body.data.regressions.map((r: Json) => r.question_id).sort(), [...regressed].sort());
  // Production keeps the definition that passed.
  const orderItems = await call(t0, 'GET', `/api/knowledge/tables/${encodeURIComponent('jaffle/main.order_items')}`, { token: modeler });
  t.like(orderItems.body.data.metrics.find((m: Json) => m.name === 'revenue'), { expression: 'SUM(product_price)' });
});
