// A time breakdown of the date a question names ("customers by signup month", "revenue by signup
// year": a cohort), not the measure's own date; the title says which date when it is another's.
import test from 'ava';
import type { AgentEvent } from '../../src/agent/events.ts';
import { startWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';
import { plannedSql as sqlOf } from '../helpers/offline-plan.ts';

test('the date named before the unit is the one grouped by, and a period on it too', (t) => {
  t.regex(sqlOf('customer count by signup month'), /^SELECT date_trunc\('month', t0\.signup_date\) AS month, COUNT\(\*\) AS customer_count\nFROM main\.customers AS t0\nGROUP BY 1\nORDER BY 1$/);
  t.regex(sqlOf('total amount by signup year'), /^SELECT date_trunc\('year', t1\.signup_date\) AS year, SUM\(t0\.total_amount\) AS total_amount\nFROM main\.orders AS t0\nJOIN main\.customers AS t1 ON t0\.customer_id = t1\.customer_id\nGROUP BY 1\nORDER BY 1$/);
  t.regex(sqlOf('total amount by signup year in 2025'), /WHERE t1\.signup_date >= DATE '2025-01-01' AND t1\.signup_date < DATE '2026-01-01'\nGROUP BY 1/);
  // Without a date named, the measure's own, as before.
  t.regex(sqlOf('total amount by year'), /date_trunc\('year', t0\.order_date\)/);
});

test('the answer equals the cohort counted by hand, and its title names the date', async (t) => {
  const wh = await startWarehouse();
  t.teardown(() => wh.close());
  const { result, events } = await askOffline(wh, 'Total amount by signup year');
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');
  const expected = await wh.rows("SELECT date_trunc('year', c.signup_date), SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 1");
  t.deepEqual(table?.rows.map((r) => r.map(String).map((v) => v.slice(0, 10))), expected.map((r) => r.map(String).map((v) => v.slice(0, 10))));
  t.regex(result.text, /^Total amount by year of signup date:/);
  // A period of that date says it already.
  t.regex((await askOffline(wh, 'Total quantity by month in 2025')).result.text, /^Total quantity by month with order date in 2025:/);
});

test('a follow-up keeps the date the earlier question named, for its groups and its period', async (t) => {
  const wh = await startWarehouse();
  t.teardown(() => wh.close());
  const { events } = await askOffline(wh, 'and in 2025?', ['Total amount by signup year']);
  const sql = events.find((e): e is Extract<AgentEvent, { type: 'sql' }> => e.type === 'sql')?.sql ?? '';
  t.regex(sql, /date_trunc\('year', t1\.signup_date\)[\s\S]*WHERE t1\.signup_date >= DATE '2025-01-01' AND t1\.signup_date < DATE '2026-01-01'/);
});
