// A webhook receiver that never answers holds no schedule: webhooks are posted by a loop of their own,
// a few at a time, each attempt within its own deadline, so the tick that claims slots never waits on
// one; due slots are claimed and sent on time while a delivery hangs, a report that takes long does
// not hold back the others due in the same tick, and a slot that passed during a long tick is logged
// as missed for what it was (a busy replica), never as "no replica was running".
import test from 'ava';
import { sql } from 'kysely';
import { deliverWebhooks, startScheduler, tick, type SubscriptionDeps } from '../../src/subscriptions/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { HANG_MS } from '../helpers/patience.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';

let t0: TestApp;
let deps: SubscriptionDeps;
let token: string;
const org = 'hookhang';
const DAY = 24 * 3600_000;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_SUBSCRIPTION_TICK_MS: '0' }, { tableDocs: docs });
  t0.org(org);
  docs.setTables(org, undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true }]);
  const admin = t0.token(t0.user({ orgId: org, role: 'admin' }));
  token = t0.token(t0.user({ orgId: org, role: 'user', email: 'owner@hookhang.test' }));
  const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  deps = t0.app.services.subscriptions;
});
test.after.always(() => t0?.stop());
// Each test starts at a midnight (UTC) after the last one's slots, so its schedules fall in order that day.
test.beforeEach(() => t0.clock.set((Math.floor(t0.clock.now() / DAY) + 1) * DAY));
test.afterEach.always(async () => {
  await t0.app.services.executor.run(sql`DELETE FROM subscriptions`);
});

/** A subscription of a one-row question on `cron` (UTC), posting JSON to `url`. */
const subscribe = async (cron: string, url: string) => {
  const q = await call(t0, 'POST', '/api/saved_questions', { token, body: { title: 'Orders', connection_id: 'wh', sql: 'SELECT count(*) AS n FROM orders' } });
  if (q.status !== 201) throw new Error(JSON.stringify(q.body));
  const sub = await call(t0, 'POST', '/api/subscriptions', { token, body: { saved_question_id: q.body.id, schedule: { cron, timezone: 'UTC' }, channels: [{ type: 'webhook', url, format: 'json' }] } });
  if (sub.status !== 201) throw new Error(JSON.stringify(sub.body));
  return { id: sub.body.id as string, slot: Date.parse(sub.body.next_run_at as string), question: q.body.id as string };
};
type Run = { status: string; slot_at: string | null; started_at: string; error: string | null; deliveries: { status: string; attempts: number; error: string | null }[] };
const runsOf = async (id: string) => (await call(t0, 'GET', `/api/subscriptions/${id}/runs`, { token })).body.runs as Run[];
const iso = (ms: number) => new Date(ms).toISOString();

/** A receiver whose `/hang` never answers, stopped (its held requests closed) at the end of the test. */
const hangingReceiver = async (t: { teardown(fn: () => Promise<void>): void }): Promise<WebhookReceiver> => {
  const hooks = await startWebhookReceiver();
  hooks.hang.add('/hang');
  t.teardown(() => hooks.stop());
  return hooks;
};

test.serial('the tick that claims and runs a slot returns without posting its webhook, whose receiver would never answer', async (t) => {
  const hooks = await hangingReceiver(t);
  const a = await subscribe('0 9 * * *', `${hooks.url}/hang`);
  t0.clock.set(a.slot);
  const first = await Promise.race([tick(deps).then(() => 'ticked'), hooks.arrived('/hang').then(() => 'posted from the tick')]);
  t.is(first, 'ticked');
  t.like((await runsOf(a.id))[0], { status: 'sent', slot_at: iso(a.slot) });
  t.deepEqual((await runsOf(a.id))[0]!.deliveries.map((d) => d.status), ['pending']);
});

test.serial('while a webhook receiver hangs, the scheduler claims and sends the next due slot on time and other webhooks still go out', async (t) => {
  const hooks = await hangingReceiver(t);
  const a = await subscribe('0 9 * * *', `${hooks.url}/hang`);
  const b = await subscribe('1 9 * * *', `${hooks.url}/ok`);
  t.is(b.slot, a.slot + 60_000);
  t0.clock.set(a.slot);
  // The attempt's deadline is far: the receiver holds it for the whole test, as one that never answers.
  const scheduler = startScheduler(deps, 20, { timeoutMs: HANG_MS });
  try {
    await hooks.arrived('/hang');
    t0.clock.set(b.slot);
    await hooks.arrived('/ok');
    t.is(hooks.holding, 1, 'the first delivery still hangs');
    const [run] = await runsOf(b.id);
    t.like(run, { status: 'sent', slot_at: iso(b.slot), started_at: iso(b.slot), error: null });
    t.deepEqual((await runsOf(a.id))[0]!.deliveries.map((d) => [d.status, d.attempts]), [['pending', 0]]);
    t.false((await runsOf(b.id)).some((r) => r.status === 'missed'));
  } finally {
    await hooks.stop();
    await scheduler.stop();
  }
});

test.serial('a delivery that gets no answer within its deadline is abandoned, logged, and retried after its wait', async (t) => {
  const hooks = await hangingReceiver(t);
  const a = await subscribe('0 9 * * *', `${hooks.url}/hang`);
  t0.clock.set(a.slot);
  await tick(deps);
  await deliverWebhooks(deps, { timeoutMs: 50 });
  const delivery = async () => (await runsOf(a.id))[0]!.deliveries[0];
  t.like(await delivery(), { status: 'pending', attempts: 1 });
  t.regex((await delivery())?.error ?? '', /answer/);
  hooks.hang.clear();
  await deliverWebhooks(deps);
  t.like(await delivery(), { status: 'pending', attempts: 1 }, 'not before its wait');
  t0.clock.advance(30_000);
  await deliverWebhooks(deps);
  t.like(await delivery(), { status: 'sent', attempts: 2 });
});

test.serial('a slot that passed during a long tick is logged as missed by a busy replica, never as no replica running', async (t) => {
  const hooks = await hangingReceiver(t);
  const a = await subscribe('* * * * *', `${hooks.url}/ok`);
  // This replica's scheduler was ticking before the slot, and its next tick came 61 s after it.
  t0.clock.set(a.slot + 61_000);
  await tick({ ...deps, runningSince: a.slot - 60_000 });
  const runs = await runsOf(a.id);
  t.deepEqual(runs.map((r) => [r.status, r.slot_at]).sort(), [['missed', iso(a.slot)], ['sent', iso(a.slot + 60_000)]]);
  const missed = runs.find((r) => r.status === 'missed')!;
  t.notRegex(missed.error ?? '', /no replica was running/i);
  t.regex(missed.error ?? '', /busy/);
});

test.serial('after a restart, a slot that passed before this replica started is logged as missed without claiming that no replica ran', async (t) => {
  const hooks = await hangingReceiver(t);
  const a = await subscribe('* * * * *', `${hooks.url}/ok`);
  t0.clock.set(a.slot + 61_000);
  await tick({ ...deps, runningSince: t0.clock.now() });
  const missed = (await runsOf(a.id)).find((r) => r.status === 'missed')!;
  t.is(missed.slot_at, iso(a.slot));
  t.notRegex(missed.error ?? '', /no replica was running/i, 'another replica may have been running, busy');
});

test.serial('a report that takes long does not hold back another due in the same tick', async (t) => {
  // Without reports made side by side the first waits for the second forever: fail rather than hang.
  t.timeout(30_000, 'the second report waited for the first');
  const hooks = await hangingReceiver(t);
  const a = await subscribe('0 9 * * *', `${hooks.url}/ok`);
  const b = await subscribe('1 9 * * *', `${hooks.url}/ok`);
  t0.clock.set(b.slot);
  let bStarted!: () => void;
  const bMaking = new Promise<void>((resolve) => (bStarted = resolve));
  const questions = deps.ports.questions;
  // a's report (the earlier slot, taken first) is made only once b's is being made.
  const render: typeof questions.render = async (owner, id) => {
    if (id === a.question) await bMaking;
    if (id === b.question) bStarted();
    return questions.render(owner, id);
  };
  await tick({ ...deps, ports: { ...deps.ports, questions: { ...questions, render } } });
  t.like((await runsOf(a.id))[0], { status: 'sent', slot_at: iso(a.slot) });
  t.like((await runsOf(b.id))[0], { status: 'sent', slot_at: iso(b.slot) });
});
