// The offline model's question family, end to end: search, planned SQL through the QueryRunner,
// chart, answer. Each question's result must equal an independently written query's result.
import test from 'ava';
import type { AgentEvent } from '../../src/agent/events.ts';
import { OFFLINE_UNSUPPORTED } from '../../src/agent/offline/offline-provider.ts';
import { OFFLINE_QUESTIONS as QUESTIONS } from '../helpers/offline-questions.ts';
import { startWarehouse, type TestWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';
import { lookUpRequest } from '../../src/agent/offline/value-lookup.ts';
import { agentSchema } from '../helpers/offline-plan.ts';

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
    // Grouped results of two rows or more are drawn; a list of rows is not.
    t.is(events.some((e) => e.type === 'chart'), /\bGROUP BY\b/.test(sql!.sql) && tables[0]!.rows.length >= 2, 'grouped results get a chart');
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

test('offline: "what share of revenue comes from each channel" and its kin answer in shares of the total', async (t) => {
  for (const question of ['What share of revenue comes from each channel?', 'what fraction of our revenue comes from every country', 'what percentage of orders came from each channel']) {
    const { result } = await ask(question);
    t.regex(result.text, /by (channel|country), as a share of the total:\n- \w+: \d+(\.\d)?%/, question);
  }
});

test('offline: "revenue share by country", "how much of our revenue is from each country" and their kin answer in shares, amounts stay amounts', async (t) => {
  for (const question of ['Revenue share by country', 'order percentages per channel', 'the order mix by channel', 'percent of orders by channel', 'How much of our revenue is from each country?']) {
    const { result } = await ask(question);
    t.regex(result.text, /by (channel|country|category), as a share of the total:\n- \w+: \d+(\.\d)?%/, question);
  }
  // Without "of", the question asks for the amounts.
  t.regex((await ask('How much revenue is from each country?')).result.text, /^[\w ]+ by country:\n- [\w ]+: \$?[\d,.]+\n/);
});

test('offline: a list of rows says how many, names its columns once and writes ids as they are', async (t) => {
  const { result, events } = await ask('Show me the 3 most recent orders');
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')!;
  t.is(table.rows.length, 3);
  t.regex(result.text, /^Latest 3: Orders \(3 rows; order id, customer id, order date, status, channel, total amount\):\n- \d+, \d+, \d{4}-\d{2}-\d{2}, \w+, \w+, [\d,.]+\n/);
});

test('offline: a ranking of a table\'s own rows names their value as it is, not as a total', async (t) => {
  t.regex((await ask('Which product is the most expensive?')).result.text, /^Product with the highest unit price: /);
  const { events } = await ask('The 2 cheapest products');
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')!;
  t.is(table.columns.at(-1), 'unit_price');
  t.regex((await ask('Total unit price by product category')).result.text, /^Total unit price by category:/, 'a sum over several rows stays a total');
});

test('offline: a share is never added up, and a value of one unit only when a total is asked for', async (t) => {
  for (const question of ['Discount by channel', 'Total discount given in 2025', 'Unit price by category']) {
    const { result, events } = await ask(question);
    t.false(events.some((e) => e.type === 'sql'), question);
    t.regex(result.text, /is documented as (a share|a value of one unit), which does not add up to a total; ask for its average, minimum or maximum/, question);
  }
  const { events } = await ask('Average discount by channel');
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')!;
  t.deepEqual(norm(table.rows), norm(await wh.rows('SELECT o.channel, AVG(i.discount) FROM order_items i JOIN orders o USING (order_id) GROUP BY 1 ORDER BY 2 DESC, 1')));
});

test('offline: after a question it could not answer, a complete question is answered alone, a bare follow-up refused', async (t) => {
  const earlier = ['Why did revenue drop in March?'];
  const own = await askOffline(wh, 'What about the number of customers in France?', earlier);
  const table = own.events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');
  t.deepEqual(norm(table?.rows ?? []), norm(await wh.rows("SELECT COUNT(*) FROM customers WHERE country = 'France'")), own.result.text);
  const bare = await askOffline(wh, 'And in France?', earlier);
  t.false(bare.events.some((e) => e.type === 'sql'));
  t.regex(bare.result.text, /it continues a question I could not answer/);
  const unread = await askOffline(wh, 'Which channel grew the most?', earlier);
  t.regex(unread.result.text, /I do not know what "grew" means here/);
});

test('offline: "top 2 only" ranks the groups of the previous answer; after one number or a list it is refused', async (t) => {
  const rowsOf = (r: Awaited<ReturnType<typeof askOffline>>) => r.events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')?.rows ?? [];
  const top = await askOffline(wh, 'top 2 only', ['Revenue by channel']);
  t.deepEqual(norm(rowsOf(top)), norm(await wh.rows('SELECT channel, SUM(total_amount) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 2')), top.result.text);
  const bottom = await askOffline(wh, 'just the bottom 2', ['Number of orders by status']);
  t.deepEqual(norm(rowsOf(bottom)), norm(await wh.rows('SELECT status, COUNT(*) FROM orders GROUP BY 1 ORDER BY 2, 1 LIMIT 2')), bottom.result.text);
  for (const earlier of ['Revenue last month', 'List customers in Germany']) {
    const refused = await askOffline(wh, 'top 3 only', [earlier]);
    t.false(refused.events.some((e) => e.type === 'sql'), earlier);
    t.regex(refused.result.text, /it ranks, but the answer it continues has no groups to rank/, earlier);
  }
});

test('offline: a verb the dictionary knows is no typo: "sought" is not read as "bought"', async (t) => {
  const { result, events } = await ask('How many customers sought Electronics?');
  t.false(events.some((e) => e.type === 'sql'));
  t.regex(result.text, /I do not know what "sought" means here/);
  t.notRegex(result.text, /Reading 'sought'/);
});

test('offline: rows a join would repeat are listed once only when every column shown is their own', async (t) => {
  const { result, events } = await ask('Which customers bought Electronics with their order date?');
  t.false(events.some((e) => e.type === 'sql'));
  t.regex(result.text, /it lists rows that a join would repeat/);
});

test('offline: buying says what was done, not what to count: "which customers bought the most" is refused', async (t) => {
  // Most orders, most units or most spent: the words do not say.
  for (const question of ['Which customers bought the most?', 'Which products were purchased the most?']) {
    const { result, events } = await ask(question);
    t.false(events.some((e) => e.type === 'sql'), question);
    t.true(result.text.includes(OFFLINE_UNSUPPORTED), question);
    t.regex(result.text, /"(bought|purchased)" does not say what to count: orders, units or the amount spent \(ask for example "the most orders"/, question);
  }
  // Counting what the question names is no such question.
  t.regex((await ask('How many orders were bought in 2025?')).result.text, /^Number of orders in 2025: \d+\./);
});

test('offline: one row of a list is named as one', async (t) => {
  const { result } = await ask('What was the largest order?');
  t.regex(result.text, /^Largest order \(1 row; order id,/);
});

test('offline: a list without a number is ordered newest first and says so', async (t) => {
  const { result } = await ask('List customers in Germany');
  t.regex(result.text, /^Customers where country is Germany, newest first \(\d+ rows?;/);
});

test('offline: a list follows up like any answer', async (t) => {
  const { events } = await askOffline(wh, 'and in France?', ['List customers in Germany']);
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')!;
  t.deepEqual(norm(table.rows), norm(await wh.rows("SELECT customer_id, name, email, country, city, segment, signup_date FROM customers WHERE country = 'France' ORDER BY signup_date DESC, customer_id DESC")));
});

test('offline: a value left out in a follow-up replaces the values of its column', async (t) => {
  const { events } = await askOffline(wh, 'and excluding web?', ['Total revenue by channel in 2025']);
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')!;
  t.deepEqual(norm(table.rows), norm(await wh.rows("SELECT channel, SUM(total_amount) FROM orders WHERE channel <> 'web' AND order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 2 DESC, 1")));
});

// Each is refused rather than answered as another question: the total revenue of all orders, a list
// in thousands, order lines by a date they do not have, all customers, revenue dated by the order
// rather than by the customer's signup, the products most ordered (a negation is never read as
// another word: "never" is one letter from "ever"), every month in time order, products by their
// price or by their cost, the whole year of a day that does not exist, the first rows of all instead
// of the first of each group, products by their price or their cost.
for (const [question, reason] of [
  ['Revenue of the last 10 orders', /"last 10"/],
  ['Top 5 revenue', /"top 5"/],
  ['List customers in Germany in thousands', /a list of rows has no units/],
  ['Show me the latest 3 order items', /order_items has no date to order them by/],
  ['How many new customers?', /"new"/],
  ['Revenue from new customers in 2025', /"new"/],
  ['Which orders were never shipped?', /"never"/],
  // A word of quality before the rows counted ranks those rows by a measure not named, not the groups by their count.
  ['What is the second best product in each category?', /"best"/],
  // Orders reach products only through their lines, which would count each order once per line.
  ['Total amount by product', /it groups by products, which cannot be reached from orders without counting rows twice/],
  ['The largest order by country', /"largest"/],
  ['Which month had revenue?', /"which month"/],
  ['How many web orders except mobile?', /it both keeps and leaves out values of channel/],
  ['How many products over 100?', /"over", "100"/],
  ['Total revenue on February 30 2025', /"february", "30"/],
  ['What is the largest product?', /names nothing to count or measure/],
] as const) {
  test(`offline: "${question}" is refused, not answered as another question`, async (t) => {
    const { result, events } = await ask(question);
    t.true(result.text.includes(OFFLINE_UNSUPPORTED));
    t.regex(result.text, reason);
    t.false(events.some((e) => e.type === 'sql'));
  });
}

test('offline: a number of rows too large for SQL asks for every row, not a failed query', async (t) => {
  const { result, events } = await ask('Top 99999999999999999999999 customers by revenue');
  const sql = events.find((e): e is Extract<AgentEvent, { type: 'sql' }> => e.type === 'sql')!;
  t.regex(sql.sql, /LIMIT 9007199254740991$/);
  t.false(result.text.includes('The query failed'));
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')!;
  t.is(table.rows.length, (await wh.rows('SELECT DISTINCT customer_id FROM orders')).length);
});

test('offline: two bounds of one column read as "between"', async (t) => {
  const { result } = await ask('Orders between 100 and 2000 by channel');
  t.regex(result.text, /^Number of orders by channel where total amount is between 100 and 2000:/);
});

test('offline: a year written as an amount is not a period', async (t) => {
  for (const question of ['How many orders over $2000?', 'How many orders between 1000 and 2000?']) {
    const { events } = await ask(question);
    const sql = events.find((e): e is Extract<AgentEvent, { type: 'sql' }> => e.type === 'sql');
    t.notRegex(sql?.sql ?? '', /order_date/, question);
  }
});

test('offline: a scalar answer states the number in words', async (t) => {
  const { result } = await ask('How many orders are there?');
  t.regex(result.text, /Number of orders: 40\./);
});

test('offline: a value the knowledge does not list is looked up in the data, said so, and filters the answer', async (t) => {
  const { result, events } = await ask('Total order value in Munich');
  const tables = events.filter((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');
  t.regex(result.text, /^Reading 'munich' as the city 'Munich', found in the data\.\n/);
  t.deepEqual(events.filter((e) => e.type === 'tool_call').map((e) => (e as { name: string }).name), ['search_knowledge', 'search_knowledge', 'describe_table', 'look_up_values', 'run_sql'], 'a search for a misspelt name first, then the lookup');
  t.is(tables.length, 1, 'the lookup shows no table of its own');
  t.deepEqual(norm(tables[0]!.rows), norm(await wh.rows("SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE c.city = 'Munich'")));
});

test('offline: a word found nowhere in the data is refused, named', async (t) => {
  const { result, events } = await ask('Total order value in Atlantis');
  t.regex(result.text, /I do not know what "atlantis" means here/);
  t.false(events.some((e) => e.type === 'table'));
});

test('offline: "the month before" in a follow-up is the one before the unit holding the earlier period', async (t) => {
  const count = async (question: string, earlier: string[]) => {
    const { result, events } = await askOffline(wh, question, earlier);
    return { text: result.text, rows: events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')?.rows.map((r) => r.map(String)) };
  };
  const feb = await count('and the previous month?', ['How many orders in March 2025?']);
  t.deepEqual(feb.rows, (await wh.rows("SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-02-01' AND order_date < DATE '2025-03-01'")).map((r) => r.map(String)));
  t.regex(feb.text, /^Number of orders in February 2025: /);
  const q4 = await count('what about the quarter before?', ['Total amount of orders in Q1 2025']);
  t.deepEqual(q4.rows, (await wh.rows("SELECT SUM(total_amount) FROM orders WHERE order_date >= DATE '2024-10-01' AND order_date < DATE '2025-01-01'")).map((r) => r.map(String)));
  // Of a longer unit than the earlier period, the one before the unit holding it: Q4 2024 after March 2025.
  const q4b = await count('and the previous quarter?', ['How many orders in March 2025?']);
  t.deepEqual(q4b.rows, (await wh.rows("SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2024-10-01' AND order_date < DATE '2025-01-01'")).map((r) => r.map(String)));
  // After a period longer than a month, and with no earlier question, "the previous month" is the one before today's.
  for (const earlier of [['How many orders in 2025?'], []]) {
    const last = await count(earlier.length ? 'and the previous month?' : 'How many orders the previous month?', earlier);
    t.deepEqual(last.rows, (await wh.rows("SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-12-01' AND order_date < DATE '2026-01-01'")).map((r) => r.map(String)));
  }
});

test('offline: a value named in the plural is looked up as written and in the singular', (t) => {
  const schema = agentSchema();
  const orders = schema.tables.find((x) => x.name === 'orders')!;
  const request = lookUpRequest('total order value of widgets', ['widgets'], schema, orders);
  t.deepEqual(request?.phrases.slice(0, 2), ['widgets', 'widget']);
});
