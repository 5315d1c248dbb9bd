// The offline model's question family, end to end: search, planned SQL through the QueryRunner,
// chart, answer. Each question's result must equal an independently written query's result.
import test from 'ava';
import type { Principal } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import type { AgentEvent } from '../../src/agent/events.ts';
import { runAgentLoop } from '../../src/agent/loop/run-agent.ts';
import { memoryChats, memoryKnowledge, noUploads } from '../../src/agent/memory-ports.ts';
import { OFFLINE_UNSUPPORTED, offlineProvider } from '../../src/agent/offline/offline-provider.ts';
import { DEFAULT_TOOLS, newRunState } from '../../src/agent/tools/index.ts';
import { OFFLINE_QUESTIONS as QUESTIONS } from '../helpers/offline-questions.ts';
import { relationshipDocs, startWarehouse, tableDocs, type TestWarehouse } from '../helpers/agent-warehouse.ts';

// The clock stands on 2026-01-15: "last month" is December 2025, "this year" is 2026.
const clock = new FakeClock(Date.UTC(2026, 0, 15, 12));
const principal: Principal = { userId: 'u1', email: 'u1@example.com', orgId: 'demo', baseOrgId: 'demo', role: 'user', permissions: [], credential: 'session', scopes: [] };

let wh: TestWarehouse;
test.before(async () => {
  wh = await startWarehouse();
});
test.after.always(() => wh.close());

async function ask(question: string) {
  const events: AgentEvent[] = [];
  const ports = { knowledge: memoryKnowledge({ tables: tableDocs(), relationships: relationshipDocs() }), queries: wh.runner, uploads: noUploads, chats: memoryChats(), profiles: { profile: async () => ({ name: '', background: '', memories: [] }) } };
  const result = await runAgentLoop({
    provider: offlineProvider({ clock }),
    tools: DEFAULT_TOOLS,
    system: 'test',
    messages: [{ role: 'user', content: question }],
    toolContext: { principal, environmentId: undefined, chatId: 'c', ports, rowLimit: 1000, state: newRunState(), emit: (e) => events.push(e) },
    maxSteps: 8,
    toolTimeoutMs: 5000,
    signal: new AbortController().signal,
    control: { takeFeedback: () => [], stopRequested: () => false, stopSignal: new AbortController().signal },
    emit: (e) => events.push(e),
  });
  return { result, events };
}

const norm = (rows: unknown[][]) => rows.map((r) => r.map((v) => (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Math.round(Number(v) * 100) / 100 : typeof v === 'number' ? Math.round(v * 100) / 100 : v)));


for (const [question, expectedSql] of QUESTIONS) {
  test(`offline: "${question}"`, async (t) => {
    const { result, events } = await ask(question);
    const tables = events.filter((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');
    const sql = events.find((e): e is Extract<AgentEvent, { type: 'sql' }> => e.type === 'sql');
    t.is(result.status, 'completed', result.text);
    t.is(tables.length, 1, `one result table (sql: ${sql?.sql})`);
    t.deepEqual(norm(tables[0]!.rows), norm(await wh.rows(expectedSql)), sql?.sql);
    t.deepEqual(events.filter((e) => e.type === 'tool_call').map((e) => (e as { name: string }).name).slice(0, 2), ['search_knowledge', 'run_sql']);
    t.true(result.text.length > 0);
    if (tables[0]!.rows.length >= 2) t.true(events.some((e) => e.type === 'chart'), 'grouped results get a chart');
  });
}

test('the offline question table has at least 30 questions', (t) => {
  t.true(QUESTIONS.length >= 30);
});

for (const question of ['Write me a poem about the sea', 'Why did customers churn after the redesign?']) {
  test(`offline: an open question ("${question}") says an LLM provider must be configured`, async (t) => {
    const { result, events } = await ask(question);
    t.is(result.status, 'completed');
    t.true(result.text.includes(OFFLINE_UNSUPPORTED));
    t.false(events.some((e) => e.type === 'sql'));
  });
}

test('offline: "the share of ... by ..." answers in shares of the total', async (t) => {
  const { result } = await ask('Share of orders by channel');
  t.regex(result.text, /as a share of the total/);
  t.regex(result.text, /\d%/);
});

test('offline: a scalar answer states the number in words', async (t) => {
  const { result } = await ask('How many orders are there?');
  t.regex(result.text, /Number of orders: 40\./);
});
