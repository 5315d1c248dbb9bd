import test from 'ava';
import { AgentRuns, computeCredits, memoryChats, memoryKnowledge, noUploads, offlineProvider, usageTotals } from '../../src/agent/index.ts';
import { insertRun } from '../../src/agent/runs/event-log.ts';
import type { Principal } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { openStore, sqliteExecutor } from '../../src/store/index.ts';
import { relationshipDocs, startWarehouse, tableDocs } from '../helpers/agent-warehouse.ts';

const principal: Principal = { userId: 'u1', email: 'u1@example.com', orgId: 'o1', baseOrgId: 'o1', role: 'user', permissions: [], credential: 'session', scopes: [] };
const agentConfig = loadConfig({ SEXTANT_DATA_DIR: '/tmp/sextant-runs-test', SEXTANT_JWT_SECRET: 'x'.repeat(40), SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' }).agent;

async function setup() {
  const store = openStore({ file: ':memory:' });
  const x = sqliteExecutor(store.db);
  const clock = new FakeClock();
  const wh = await startWarehouse();
  const ports = { knowledge: memoryKnowledge({ tables: tableDocs(), relationships: relationshipDocs() }), queries: wh.runner, uploads: noUploads, chats: memoryChats(), profiles: { profile: async () => ({ name: 'Ana', background: 'Sales lead', memories: ['Fiscal year starts in April'] }) } };
  const shutdown = new AbortController();
  const runs = new AgentRuns({ store: x, clock, log: createLogger('silent'), config: agentConfig, provider: offlineProvider({ clock }), ports, shutdown: shutdown.signal });
  await runs.ready();
  return { store, x, clock, wh, runs, ports, shutdown, close: async () => {
    await wh.close();
    store.close();
  } };
}

test('a subscriber that throws is dropped and the run still completes for the others', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  const started = await s.runs.start(principal, { chatId: 'c1', message: 'How many orders by status?', environmentId: undefined });
  const run = await s.runs.ownRun(principal, 'c1');
  const seen: string[] = [];
  s.runs.follow(run, 0, () => {
    throw new Error('broken client');
  }, () => {});
  s.runs.follow(run, 0, (e) => seen.push(e.event.type), () => {});
  const row = await started.done;
  t.is(row.status, 'completed');
  t.is(seen.at(-1), 'completed');
});

test('usage is recorded per user and per organization with the configured prices', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  await (await s.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined })).done;
  await (await s.runs.start({ ...principal, userId: 'u2' }, { chatId: 'c2', message: 'Total revenue by channel', environmentId: undefined })).done;
  const perQuery = agentConfig.credits.perQuery;
  t.like(await usageTotals(s.x, { orgId: 'o1', userId: 'u1' }), { runs: 1, queries: 1, credits: perQuery });
  t.like(await usageTotals(s.x, { orgId: 'o1' }), { runs: 2, queries: 2, credits: 2 * perQuery });
  t.like(await usageTotals(s.x, { orgId: 'other' }), { runs: 0, credits: 0 });
});

test('credits add token and query prices, rounded to 4 decimals', (t) => {
  t.is(computeCredits({ inputTokens: 1500, outputTokens: 500 }, 3, { perKInputTokens: 0.01, perKOutputTokens: 0.03, perQuery: 0.1 }), 0.33);
  t.is(computeCredits({ inputTokens: 1, outputTokens: 0 }, 0, { perKInputTokens: 0.00001, perKOutputTokens: 0, perQuery: 0 }), 0);
});

test('the context carries the user\'s profile, memories and retrieved knowledge', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  let system = '';
  const spy = { name: 'spy', model: 'spy', async *stream(req: { system: string }) {
    system = req.system;
    yield { type: 'text_delta' as const, text: 'ok' };
    yield { type: 'finish' as const, reason: 'stop' as const };
  } };
  const runs = new AgentRuns({ store: s.x, clock: s.clock, log: createLogger('silent'), config: agentConfig, provider: spy, ports: s.ports, shutdown: s.shutdown.signal });
  await (await runs.start(principal, { chatId: 'ctx', message: 'revenue by country', environmentId: undefined })).done;
  t.regex(system, /Background: Sales lead/);
  t.regex(system, /Fiscal year starts in April/);
  t.regex(system, /table demo_warehouse:main\.orders/);
  t.regex(system, /Today is 2026-01-15/);
});

test('runs left running by a previous process are marked failed at start', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  await insertRun(s.x, { id: 'r-old', org_id: 'o1', user_id: 'u1', chat_id: 'old', message_uuid: 'm', answer_uuid: 'a', environment_id: null, provider: 'offline', model: 'm', question: 'q', created_at: 1 });
  await new AgentRuns({ store: s.x, clock: s.clock, log: createLogger('silent'), config: agentConfig, provider: offlineProvider({ clock: s.clock }), ports: s.ports, shutdown: s.shutdown.signal }).ready();
  t.is((await s.runs.ownRun(principal, 'old')).status, 'failed');
});

test('a second run in a chat while one is running is refused with RUN_IN_PROGRESS', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  const first = await s.runs.start(principal, { chatId: 'busy', message: 'How many orders?', environmentId: undefined });
  const err = await t.throwsAsync(s.runs.start(principal, { chatId: 'busy', message: 'again', environmentId: undefined }));
  t.is((err as { code?: string }).code, 'RUN_IN_PROGRESS');
  await first.done;
});

test('an answer the chat cannot save still ends the run, with ANSWER_NOT_RECORDED and its usage', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  const chats = { ...s.ports.chats, recordAnswer: () => {
    throw new Error('disk full');
  } };
  const runs = new AgentRuns({ store: s.x, clock: s.clock, log: createLogger('silent'), config: agentConfig, provider: offlineProvider({ clock: s.clock }), ports: { ...s.ports, chats }, shutdown: s.shutdown.signal });
  const started = await runs.start(principal, { chatId: 'unsaved', message: 'How many orders?', environmentId: undefined });
  const row = await started.done;
  t.is(row.status, 'completed');
  const types = (await runs.events(row)).map((e) => e.event);
  t.like(types.find((e) => e.type === 'error'), { code: 'ANSWER_NOT_RECORDED' });
  t.is(types.at(-1)?.type, 'completed');
  t.like(await usageTotals(s.x, { orgId: 'o1', userId: 'u1' }), { runs: 1, queries: 1 });
});

test('two starts racing on one chat: exactly one runs, the other is refused with RUN_IN_PROGRESS', async (t) => {
  const s = await setup();
  t.teardown(s.close);
  const results = await Promise.allSettled([0, 1].map(() => s.runs.start(principal, { chatId: 'race', message: 'How many orders?', environmentId: undefined })));
  const won = results.filter((r) => r.status === 'fulfilled');
  t.is(won.length, 1);
  t.is(((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as { code?: string }).code, 'RUN_IN_PROGRESS');
  await (won[0] as PromiseFulfilledResult<{ done: Promise<unknown> }>).value.done;
});

test("a chat's first question reads no history back; a follow-up reads the turns before it", async (t) => {
  const s = await setup();
  t.teardown(s.close);
  const reads: string[] = [];
  const history = s.ports.chats.history.bind(s.ports.chats);
  s.ports.chats.history = (p, chatId, options) => (reads.push(chatId), history(p, chatId, options));
  const prompts: string[][] = [];
  const provider = offlineProvider({ clock: s.clock });
  const stream = provider.stream.bind(provider);
  provider.stream = (req) => (prompts.push(req.messages.map((m) => (typeof m.content === 'string' ? m.content : ''))), stream(req));
  const runs = new AgentRuns({ store: s.x, clock: s.clock, log: createLogger('silent'), config: agentConfig, provider, ports: s.ports, shutdown: s.shutdown.signal });
  await runs.ready();
  t.is((await (await runs.start(principal, { chatId: 'first', message: 'How many orders?', environmentId: undefined })).done).status, 'completed');
  t.deepEqual(reads, [], 'the new chat holds nothing but the question');
  t.deepEqual(prompts[0], ['How many orders?']);
  t.is((await (await runs.start(principal, { chatId: 'first', message: 'And by status?', environmentId: undefined })).done).status, 'completed');
  t.deepEqual(reads, ['first']);
  const second = prompts.find((m) => m.at(-1) === 'And by status?')!;
  t.is(second[0], 'How many orders?', 'the follow-up carries the earlier turns');
  t.is(second.filter((m) => m === 'And by status?').length, 1, 'its own question once, last');
});
