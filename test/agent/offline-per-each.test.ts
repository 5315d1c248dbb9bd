// "Revenue per customer", "orders per customer by channel": a total divided by the distinct rows of
// another table it spreads over, read where the measured rows point to that table; "per" before a
// column still groups, and a ranking within groups ("top 3 products per category") is no division.
import test from 'ava';
import { planQuestion } from '../../src/agent/offline/plan-question.ts';
import type { AgentEvent } from '../../src/agent/events.ts';
import { startWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';
import { agentSchema, plannedSql as sqlOf } from '../helpers/offline-plan.ts';

const plan = (q: string) => planQuestion(q, [], agentSchema(), Date.UTC(2026, 0, 15, 12));

test('a total per customer is divided by the distinct customers of the rows counted, "average" or not', (t) => {
  for (const q of ['revenue per customer', 'average revenue per customer', 'What was the mean revenue per customer?']) {
    t.regex(sqlOf(q), /^SELECT SUM\(t0\.total_amount\) \* 1\.0 \/ NULLIF\(COUNT\(DISTINCT t0\.customer_id\), 0\) AS total_amount_per_customer\nFROM main\.orders AS t0$/, q);
  }
  t.regex(sqlOf('how many orders per customer in 2025'), /COUNT\(\*\) \* 1\.0 \/ NULLIF\(COUNT\(DISTINCT t0\.customer_id\), 0\) AS order_count_per_customer[\s\S]*WHERE t0\.order_date >= DATE '2025-01-01'/);
  // Each line's order points to one customer: the join keeps every line once.
  t.regex(sqlOf('units per customer'), /SUM\(t0\.quantity\) \* 1\.0 \/ NULLIF\(COUNT\(DISTINCT t1\.customer_id\), 0\)[\s\S]*FROM main\.order_items AS t0\nJOIN main\.orders AS t1 ON t0\.order_id = t1\.order_id$/);
  t.regex(sqlOf('revenue per order'), /SUM\(t0\.total_amount\) \* 1\.0 \/ NULLIF\(COUNT\(DISTINCT t0\.order_id\), 0\)/, 'per row of its own table: by its key');
});

test('"how many orders does a customer place on average" is the orders per customer', (t) => {
  for (const q of ['How many orders does a customer place on average?', 'how many orders do customers make on average', 'how many orders did each customer place on average']) t.is(sqlOf(q), sqlOf('orders per customer'), q);
  t.is(sqlOf('how many orders did a customer place on average in 2025'), sqlOf('orders per customer in 2025'));
});

test('groups and a ranking of groups divide within each group', (t) => {
  t.regex(sqlOf('revenue per customer by country'), /^SELECT t1\.country AS country, SUM\(t0\.total_amount\) \* 1\.0 \/ NULLIF\(COUNT\(DISTINCT t0\.customer_id\), 0\)[\s\S]*GROUP BY 1\nORDER BY 2 DESC, 1$/);
  t.regex(sqlOf('which country has the highest revenue per customer'), /GROUP BY 1\nORDER BY 2 DESC, 1\nLIMIT 1$/);
  t.regex(sqlOf('revenue per country'), /^SELECT t1\.country AS country, SUM\(t0\.total_amount\) AS total_amount\n/, '"per" before a column still groups');
});

test('what has no reading as a division is refused, saying why', (t) => {
  const refused = (q: string, reason: RegExp) => {
    const p = plan(q);
    t.is(p.kind, 'refuse', q);
    t.regex(JSON.stringify(p), reason, q);
  };
  // An order's total spreads over several products: no sum of order totals is "per product".
  refused('revenue per product', /no documented relationship leads from each of the orders counted to one product/);
  refused('average unit price per customer', /unit_price is documented as a value of one unit, which is no total to divide per customer/);
  refused('average discount per customer', /discount is documented as a share, which is no total to divide per customer/);
  refused('how many customers per order', /no documented relationship leads from each of the customers counted to one order/);
  refused('customers per customer', /no documented relationship leads from each of the customers counted to one customer/);
  refused('list orders per customer', /it asks for rows per customer, which are no total to divide \(ask how many there are per customer, or list them by customer\)/);
  refused('revenue per customer per order', /"per"/);
  for (const q of ['revenue per customer by month as a percentage', 'average daily revenue per customer in 2025', 'revenue per customer growth in 2025']) refused(q, /it asks for a total per customer and for other units at once/);
  // A ranking within each group, not a division: still not read.
  refused('top 3 customers per order', /"per"/);
});

test('the answer states the division and the number the data gives; a follow-up keeps it', async (t) => {
  const wh = await startWarehouse();
  t.teardown(() => wh.close());
  const [[total, customers]] = (await wh.rows('SELECT SUM(total_amount), COUNT(DISTINCT customer_id) FROM main.orders')) as [[string, number]];
  const expected = (Number(total) / Number(customers)).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const textOf = (events: AgentEvent[]) => events.filter((e): e is Extract<AgentEvent, { type: 'text_delta' }> => e.type === 'text_delta').map((e) => e.text).join('');
  const first = textOf((await askOffline(wh, 'average revenue per customer')).events);
  t.true(first.startsWith(`Total amount per customer: ${expected}.`), first);
  t.regex(first, /Per customer: the total divided by the customers of the rows counted \(distinct orders\.customer_id\); customers with none of those rows are not counted\./);
  const { events } = await askOffline(wh, 'and by segment?', ['average revenue per customer']);
  const sql = events.find((e): e is Extract<AgentEvent, { type: 'tool_call' }> => e.type === 'tool_call' && e.name === 'run_sql');
  t.regex(String((sql?.arguments as { sql?: string } | undefined)?.sql), /t1\.segment AS segment, SUM\(t0\.total_amount\) \* 1\.0 \/ NULLIF\(COUNT\(DISTINCT t0\.customer_id\), 0\)/);
  t.regex(textOf(events), /^Total amount per customer by segment:/);
});
