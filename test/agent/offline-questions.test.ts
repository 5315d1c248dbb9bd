// The offline model's question family, end to end: search, planned SQL through the QueryRunner,
// chart, answer. Each question's result must equal an independently written query's result.
import test from 'ava';
import type { AgentEvent } from '../../src/agent/events.ts';
import { OFFLINE_UNSUPPORTED } from '../../src/agent/offline/offline-provider.ts';
import { OFFLINE_QUESTIONS as QUESTIONS } from '../helpers/offline-questions.ts';
import { startWarehouse, type TestWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';

let wh: TestWarehouse;
test.before(async () => {
  wh = await startWarehouse();
});
test.after.always(() => wh.close());

const ask = (question: string) => askOffline(wh, question);

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
