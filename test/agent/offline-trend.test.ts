// "Revenue trend over the last 6 months", "orders over time": the measure along time, by a unit that
// suits the period unless the question names one.
import test from 'ava';
import { plannedSql as sqlOf } from '../helpers/offline-plan.ts';

test('a trend is grouped by a unit that suits its period: days, months or years, months without one', (t) => {
  // The last 6 whole months, as "by month over the last 6 months" reads.
  t.regex(sqlOf('Revenue trend over the last 6 months'), /^SELECT date_trunc\('month', t0\.order_date\) AS month, SUM\(t0\.total_amount\)[\s\S]*order_date >= DATE '2025-07-01' AND t0\.order_date < DATE '2026-01-01'\nGROUP BY 1\nORDER BY 1$/);
  t.regex(sqlOf('orders trend last month'), /^SELECT date_trunc\('day', t0\.order_date\) AS day, COUNT\(\*\)/);
  t.regex(sqlOf('revenue over time'), /^SELECT date_trunc\('month', t0\.order_date\) AS month, SUM\(t0\.total_amount\) AS total_amount\nFROM main\.orders AS t0\nGROUP BY 1\nORDER BY 1$/);
  t.regex(sqlOf('revenue trend since 2020'), /^SELECT date_trunc\('month', t0\.order_date\) AS month/, 'an open period has no length: by month');
  t.regex(sqlOf('revenue trend over the last 5 years'), /^SELECT date_trunc\('year', t0\.order_date\) AS year[\s\S]*order_date >= DATE '2021-01-01' AND t0\.order_date < DATE '2026-01-01'/);
});

test('a unit or a group the question names is kept', (t) => {
  t.regex(sqlOf('weekly revenue trend in 2025'), /^SELECT date_trunc\('week', t0\.order_date\) AS week/);
  t.regex(sqlOf('revenue trend by channel in 2025'), /^SELECT t0\.channel AS channel, date_trunc\('month', t0\.order_date\) AS month, SUM\(t0\.total_amount\)[\s\S]*GROUP BY 1, 2\nORDER BY 1, 2$/);
});
