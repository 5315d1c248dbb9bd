// Days of the week that keep rows ("orders on weekends", "revenue on weekdays in 2025", "sales on
// Saturdays"): a condition on the date the period would apply to, beside the period, judged against
// the same rows counted by hand; grouping by the day of the week stays a breakdown. And "the busiest
// day of the week": a time unit ranked by a count of rows.
import test from 'ava';
import type { AgentEvent } from '../../src/agent/events.ts';
import { startWarehouse, type TestWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';
import { planQuestion } from '../../src/agent/offline/plan-question.ts';
import { leaderOf } from '../../src/agent/offline/titles.ts';
import { plannedSql as sqlOf, withOrderMetrics } from '../helpers/offline-plan.ts';

let wh: TestWarehouse;
test.before(async () => {
  wh = await startWarehouse();
});
test.after.always(() => wh.close());

const tableOf = (events: AgentEvent[]) => events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');

test('weekends, weekdays and a day named in the plural keep rows by the ISO day of their date', (t) => {
  for (const q of ['how many orders on weekends', 'orders at the weekend', 'weekend orders']) t.regex(sqlOf(q), /^SELECT COUNT\(\*\) AS order_count\nFROM main\.orders AS t0\nWHERE EXTRACT\(ISODOW FROM t0\.order_date\) IN \(6, 7\)$/, q);
  for (const q of ['orders on weekdays', 'orders on business days', 'orders on working days']) t.regex(sqlOf(q), /WHERE EXTRACT\(ISODOW FROM t0\.order_date\) IN \(1, 2, 3, 4, 5\)$/, q);
  t.regex(sqlOf('total amount of orders on Saturdays'), /WHERE EXTRACT\(ISODOW FROM t0\.order_date\) = 6$/);
  // Beside a period, on the same date; of a table with its own date, that date.
  t.regex(sqlOf('revenue on weekdays in 2025 by channel'), /WHERE t0\.order_date >= DATE '2025-01-01' AND t0\.order_date < DATE '2026-01-01' AND EXTRACT\(ISODOW FROM t0\.order_date\) IN \(1, 2, 3, 4, 5\)\nGROUP BY 1/);
  t.regex(sqlOf('customers who signed up on weekends'), /FROM main\.customers AS t0\nWHERE EXTRACT\(ISODOW FROM t0\.signup_date\) IN \(6, 7\)$/);
  // A breakdown by the day of the week is not a filter.
  t.regex(sqlOf('orders by weekday'), /^SELECT CASE EXTRACT\(ISODOW FROM t0\.order_date\)/);
  t.notRegex(sqlOf('orders by weekday'), /WHERE/);
});

test('what the days cannot apply to is refused, not applied to another date', (t) => {
  // The rows counted by a related count have their own date: which one the days keep is not one reading.
  t.regex(sqlOf('customers with more than 2 orders on weekends'), /^refused: .*it keeps days of the week, but no single date/);
  // One Monday is a date, not every Monday.
  t.regex(sqlOf('orders on monday'), /^refused: .*"monday"/);
  // A share of the rows on weekends needs its part read as such: refused rather than 100 %.
  t.regex(sqlOf('what percentage of orders were placed on weekends'), /^refused/);
});

test('the answer equals the rows counted by hand, says which days, and a follow-up keeps or replaces them', async (t) => {
  const weekend = "EXTRACT(ISODOW FROM order_date) IN (6, 7) AND order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'";
  const first = await askOffline(wh, 'How many orders on weekends in 2025?');
  t.deepEqual(tableOf(first.events)?.rows.map((r) => r.map(String)), (await wh.rows(`SELECT COUNT(*) FROM orders WHERE ${weekend}`)).map((r) => r.map(String)));
  t.regex(first.result.text, /^Number of orders in 2025 on weekends: /);
  const byChannel = await askOffline(wh, 'and by channel?', ['How many orders on weekends in 2025?']);
  t.deepEqual(tableOf(byChannel.events)?.rows.map((r) => r.map(String)), (await wh.rows(`SELECT channel, COUNT(*) FROM orders WHERE ${weekend} GROUP BY 1 ORDER BY 2 DESC, 1`)).map((r) => r.map(String)));
  const weekdays = await askOffline(wh, 'and on weekdays?', ['How many orders on weekends in 2025?']);
  t.deepEqual(tableOf(weekdays.events)?.rows.map((r) => r.map(String)), (await wh.rows(`SELECT COUNT(*) FROM orders WHERE ${weekend.replace('IN (6, 7)', 'IN (1, 2, 3, 4, 5)')}`)).map((r) => r.map(String)));
});

test('the busiest or quietest time unit counts the rows of the table named, or of the one the knowledge counts', async (t) => {
  t.regex(sqlOf('the quietest day of the week for orders'), /^SELECT CASE EXTRACT\(ISODOW FROM t0\.order_date\)[\s\S]*COUNT\(\*\) AS order_count\nFROM main\.orders AS t0\nGROUP BY 1\nORDER BY 2 ASC, MIN\(EXTRACT\(ISODOW FROM t0\.order_date\)\)\nLIMIT 1$/);
  // No table named and none counted by a governed metric: busy with what is not one reading.
  t.regex(sqlOf('busiest day of the week'), /^refused: .*busiest/);
  const schema = withOrderMetrics([{ name: 'order_count', description: 'Number of orders.', expression: 'COUNT(*)' }]);
  t.regex(sqlOf('what was the busiest month in 2025', undefined, schema), /^SELECT date_trunc\('month', t0\.order_date\) AS month, COUNT\(\*\) AS order_count\nFROM main\.orders AS t0\nWHERE t0\.order_date >= DATE '2025-01-01' AND t0\.order_date < DATE '2026-01-01'\nGROUP BY 1\nORDER BY 2 DESC, 1\nLIMIT 1$/);
  // A metric of every row reads as a number of rows in the answer's first line.
  const planned = planQuestion('what was the busiest month in 2025', [], schema, Date.UTC(2026, 0, 15, 12));
  t.is(planned.kind === 'plan' && leaderOf(planned.plan), 'Month with the most orders in 2025');
  const { result } = await askOffline(wh, 'Busiest weekday for orders?');
  t.regex(result.text, /^Day of the week with the most orders: /);
});
