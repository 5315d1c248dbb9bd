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

// [question, expected SQL written by hand]
const QUESTIONS: [string, string][] = [
  ['How many orders are there?', 'SELECT COUNT(*) FROM orders'],
  ['How many customers do we have?', 'SELECT COUNT(*) FROM customers'],
  ['Number of products', 'SELECT COUNT(*) FROM products'],
  ['What is the total amount of all orders?', 'SELECT SUM(total_amount) FROM orders'],
  ['What is our total revenue?', 'SELECT SUM(total_amount) FROM orders'],
  ['What is the average order value?', 'SELECT ROUND(AVG(total_amount), 2) FROM orders'],
  ['What is the highest order value?', 'SELECT MAX(total_amount) FROM orders'],
  ['What is the lowest unit price of products?', 'SELECT MIN(unit_price) FROM products'],
  ['How many orders by status?', 'SELECT status, COUNT(*) c FROM orders GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['Number of customers per country', 'SELECT country, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['Total revenue by channel', 'SELECT channel, SUM(total_amount) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['Average order value by customer segment', 'SELECT c.segment, ROUND(AVG(o.total_amount), 2) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['How many orders were placed in 2024?', "SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2024-01-01' AND order_date < DATE '2025-01-01'"],
  ['Total revenue in 2025', "SELECT SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'"],
  ['How many orders last month?', "SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-12-01' AND order_date < DATE '2026-01-01'"],
  ['What is the revenue this year?', "SELECT SUM(total_amount) FROM orders WHERE order_date >= DATE '2026-01-01'"],
  ['How many completed orders are there?', "SELECT COUNT(*) FROM orders WHERE status = 'completed'"],
  ['How many orders were cancelled?', "SELECT COUNT(*) FROM orders WHERE status = 'cancelled'"],
  ['How many orders come from customers in Germany?', "SELECT COUNT(*) FROM orders o JOIN customers c USING (customer_id) WHERE c.country = 'Germany'"],
  ['Total revenue in Germany in 2025', "SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE c.country = 'Germany' AND o.order_date >= DATE '2025-01-01' AND o.order_date < DATE '2026-01-01'"],
  ['Top 3 customers by revenue', 'SELECT c.name, SUM(o.total_amount) v FROM orders o JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3'],
  ['Top 2 products by quantity sold', 'SELECT p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 2'],
  ['Which country has the most customers?', 'SELECT country, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1'],
  ['Which sales channel has the highest total revenue?', 'SELECT channel, SUM(total_amount) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1'],
  ['Monthly revenue in 2025', "SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  ['Number of orders per year', "SELECT date_trunc('year', order_date), COUNT(*) FROM orders GROUP BY 1 ORDER BY 1"],
  ['What is the average discount of order items?', 'SELECT ROUND(AVG(discount), 2) FROM order_items'],
  ['Total quantity of order items by product category', 'SELECT p.category, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['How many shipped or returned orders in 2025?', "SELECT COUNT(*) FROM orders WHERE status IN ('shipped', 'returned') AND order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'"],
  ['Total revenue by country', 'SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['How many customers signed up in 2024?', "SELECT COUNT(*) FROM customers WHERE signup_date >= DATE '2024-01-01' AND signup_date < DATE '2025-01-01'"],
  ['Bottom 2 countries by number of orders', 'SELECT c.country, COUNT(*) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 2'],
  ['How many orders with a total amount over 500?', 'SELECT COUNT(*) FROM orders WHERE total_amount > 500'],
  ['Revenue by quarter in 2025', "SELECT date_trunc('quarter', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  ['Average quantity of order items in the Electronics category', "SELECT ROUND(AVG(i.quantity), 2) FROM order_items i JOIN products p USING (product_id) WHERE p.category = 'Electronics'"],
  ['How many orders were placed on the web channel in Q3 2024?', "SELECT COUNT(*) FROM orders WHERE channel = 'web' AND order_date >= DATE '2024-07-01' AND order_date < DATE '2024-10-01'"],
  ['Maximum unit price by product category', 'SELECT category, MAX(unit_price) FROM products GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['How many customers in the corporate segment per country?', "SELECT country, COUNT(*) FROM customers WHERE segment = 'corporate' GROUP BY 1 ORDER BY 2 DESC, 1"],
];

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

test('offline: a scalar answer states the number in words', async (t) => {
  const { result } = await ask('How many orders are there?');
  t.regex(result.text, /Number of orders: 40\./);
});
