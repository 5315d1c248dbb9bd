// An alert whose column the result lacks, or holds no number in, cannot be checked: each run of it
// (scheduled, or a test sent by hand) is logged `failed` with an error naming the column and what the
// result has, and sends nothing, instead of passing for a condition that simply did not hold.
import test from 'ava';
import { sql } from 'kysely';
import { tick, type SubscriptionDeps } from '../../src/subscriptions/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';

let t0: TestApp;
let deps: SubscriptionDeps;
let ownerToken: string;
const org = 'alertcol';
const member = 'member@alertcol.test';

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_SUBSCRIPTION_TICK_MS: '0' }, { tableDocs: docs });
  t0.org(org);
  docs.setTables(org, undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true }]);
  const admin = t0.token(t0.user({ orgId: org, role: 'admin' }));
  ownerToken = t0.token(t0.user({ orgId: org, role: 'user', email: 'owner@alertcol.test' }));
  t0.user({ orgId: org, role: 'user', email: member });
  const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  deps = t0.app.services.subscriptions;
});
test.after.always(() => t0?.stop());

/** An alert on `column` of a saved question answering `query`, saved (a run is the only check of its column). */
const alertOn = async (query: string, column: string) => {
  const q = await call(t0, 'POST', '/api/saved_questions', { token: ownerToken, body: { title: 'Watched', connection_id: 'wh', sql: query } });
  if (q.status !== 201) throw new Error(JSON.stringify(q.body));
  const sub = await call(t0, 'POST', '/api/subscriptions', {
    token: ownerToken,
    body: { saved_question_id: q.body.id, schedule: { cron: '0 9 * * *', timezone: 'UTC' }, channels: [{ type: 'email', to: [member] }], alert: { column, op: '<', threshold: 10 } },
  });
  if (sub.status !== 201) throw new Error(JSON.stringify(sub.body));
  return sub.body as { id: string; next_run_at: string };
};
const runsOf = async (id: string) => (await call(t0, 'GET', `/api/subscriptions/${id}/runs`, { token: ownerToken })).body.runs as { status: string; error: string | null; deliveries: unknown[] }[];
const mailsToMember = async () => (await t0.app.services.executor.all(sql<{ id: string }>`SELECT id FROM outbox WHERE to_address = ${member}`)).length;

test.serial('a scheduled run of an alert on a column the result lacks fails, naming the column and the columns there are', async (t) => {
  const sub = await alertOn('SELECT 5 AS n, 7 AS m', 'orders');
  t0.clock.set(Date.parse(sub.next_run_at));
  await tick(deps);
  const [run] = await runsOf(sub.id);
  t.is(run?.status, 'failed');
  t.regex(run?.error ?? '', /"orders"/);
  t.regex(run?.error ?? '', /"n", "m"/);
  t.deepEqual(run?.deliveries, []);
  t.is(await mailsToMember(), 0);
  const row = await t0.app.services.executor.one(sql<{ alert_crossed: number | null }>`SELECT alert_crossed FROM subscriptions WHERE id = ${sub.id}`);
  t.falsy(Number(row?.alert_crossed), 'the alert state is left alone');
});

test.serial('a run of an alert whose column holds no number fails with the value it found, and so does a test sent by hand', async (t) => {
  const sub = await alertOn("SELECT 'France' AS country", 'country');
  t0.clock.set(Date.parse(sub.next_run_at));
  await tick(deps);
  const [run] = await runsOf(sub.id);
  t.is(run?.status, 'failed');
  t.regex(run?.error ?? '', /"country"/);
  t.regex(run?.error ?? '', /France/);
  const now = await call(t0, 'POST', `/api/subscriptions/${sub.id}/send_now`, { token: ownerToken });
  t.is(now.status, 200);
  t.like(now.body, { status: 'failed', slot_at: null });
  t.regex(String(now.body.error), /"country"/);
  t.is(await mailsToMember(), 0);
});

test.serial('a run of an alert whose query answers no row, or a null, fails saying there is no value to compare', async (t) => {
  for (const query of ['SELECT 5 AS n WHERE false', 'SELECT CAST(NULL AS INTEGER) AS n']) {
    const sub = await alertOn(query, 'n');
    t0.clock.set(Date.parse(sub.next_run_at));
    await tick(deps);
    const [run] = await runsOf(sub.id);
    t.is(run?.status, 'failed', query);
    t.regex(run?.error ?? '', /"n"/, query);
  }
  t.is(await mailsToMember(), 0);
});

test.serial('an alert on a numeric column still sends once its threshold is crossed', async (t) => {
  const sub = await alertOn('SELECT 5 AS n', 'n');
  t0.clock.set(Date.parse(sub.next_run_at));
  await tick(deps);
  t.like((await runsOf(sub.id))[0], { status: 'sent', error: null });
});
