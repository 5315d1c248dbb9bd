// Lineage end to end: after the jaffle shop's dbt import is merged, "how is revenue calculated?" asked
// through the ask API reaches a model whose context names the governed metric and the upstream dbt
// models of its table (the scripted model answers from exactly what the agent gave it), and the
// knowledge port describe_table reads carries the same lineage.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Principal } from '../../../src/auth/index.ts';
import { placeOrgFile, tempDir } from '../../data/warehouses.ts';
import { call } from '../../helpers/api.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { buildJaffleWarehouse, JAFFLE_DIR } from '../../helpers/jaffle-warehouse.ts';
import { scriptedProvider } from '../../helpers/scripted-provider.ts';

/** Answers "how is X calculated" from the knowledge in its context: the metric's definition and what its table is built from. */
const model = scriptedProvider((question, system) => {
  const metric = /how is (\w+) calculated/i.exec(question)?.[1];
  const table = system.split('\n- ').find((block) => metric !== undefined && block.includes(`metric ${metric} = `));
  if (!metric || !table) return 'I found no definition.';
  const definition = new RegExp(`metric ${metric} = ([^;\\n]+)`).exec(table)![1]!.trim();
  const upstream = /built from \(lineage\): (.+)/.exec(table)?.[1] ?? 'nothing recorded';
  return `${metric} is ${definition} over ${/^table \S+:(\S+)/.exec(table)?.[1]}, which is built from ${upstream}.`;
});

const org = 'lineage-org';
let t0: TestApp;
let admin: string;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'jaffle_shop.duckdb', await buildJaffleWarehouse());
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { llmProvider: model });
  t0.org(org);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const conn = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'jaffle', name: 'Jaffle shop', type: 'duckdb', settings: { path: 'jaffle_shop.duckdb' } } });
  if (conn.status !== 201) throw new Error(JSON.stringify(conn.body));
  const manifest = JSON.parse(readFileSync(join(JAFFLE_DIR, 'manifest.json'), 'utf8')) as unknown;
  const imported = await call(t0, 'POST', '/api/import/dbt', { token: admin, body: { connection_id: 'jaffle', manifest } });
  if (imported.status !== 200) throw new Error(JSON.stringify(imported.body));
  const merged = await call(t0, 'POST', `/api/environments/${imported.body.environment_id as string}/merge`, { token: admin, body: { confirm: true } });
  if (merged.status !== 200) throw new Error(JSON.stringify(merged.body));
});
test.after.always(() => t0?.stop());

test('asked how revenue is calculated, the agent names the metric and the upstream dbt models of its table', async (t) => {
  const res = await call(t0, 'POST', '/api/agentic', { token: admin, body: { chat_id: 'lineage', messages: [{ role: 'user', content: 'How is revenue calculated?' }] } });
  t.is(res.status, 200, JSON.stringify(res.body));
  const answer = res.body.content as string;
  t.regex(answer, /^revenue is SUM\(product_price\) over main\.order_items/);
  for (const upstream of ['stg_order_items', 'stg_orders', 'stg_products', 'stg_supplies']) t.true(answer.includes(`model.jaffle_shop.${upstream}`), `${upstream} in: ${answer}`);
});

test('describe_table reads the lineage through the agent\'s knowledge port; a table without recorded lineage has none', async (t) => {
  const user = t0.user({ orgId: org, role: 'user' });
  const p: Principal = { userId: user.id, email: user.email, orgId: org, baseOrgId: org, role: 'user', permissions: [], credential: 'session', scopes: [] };
  const port = t0.app.services.agentPorts.knowledge;
  t.deepEqual((await port.getTable(p, undefined, 'jaffle', 'main.order_items'))?.upstream, ['model.jaffle_shop.stg_order_items', 'model.jaffle_shop.stg_orders', 'model.jaffle_shop.stg_products', 'model.jaffle_shop.stg_supplies']);
  // A dbt source is read, not built: nothing upstream.
  const source = await port.getTable(p, undefined, 'jaffle', 'raw.raw_items');
  t.truthy(source);
  t.false(source !== undefined && 'upstream' in source);
});
