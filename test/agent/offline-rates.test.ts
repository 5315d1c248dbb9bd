// "The cancellation rate", "return rate by channel": the share of a table's rows whose listed value
// the word names, said so first; and "the best selling product category", a column of two words.
import test from 'ava';
import type { AgentEvent } from '../../src/agent/events.ts';
import { startWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';
import { plannedSql as sqlOf } from '../helpers/offline-plan.ts';

test('a rate named by one listed value is the share of rows with that value', (t) => {
  t.regex(sqlOf('What is the cancellation rate?'), /^SELECT COUNT\(CASE WHEN t0\.status = 'cancelled' THEN 1 END\) \* 1\.0 \/ NULLIF\(COUNT\(\*\), 0\) AS share_order_count\nFROM main\.orders AS t0$/);
  t.regex(sqlOf("What's the return rate by channel?"), /^SELECT t0\.channel AS channel, COUNT\(CASE WHEN t0\.status = 'returned' THEN 1 END\)/);
  t.regex(sqlOf('returns rate in 2025'), /t0\.status = 'returned'[\s\S]*order_date >= DATE '2025-01-01'/);
  t.regex(sqlOf('completion rate'), /t0\.status = 'completed'/);
});

test('a rate no listed value names stays unread', (t) => {
  t.regex(sqlOf('churn rate'), /I do not know what \\"churn\\", \\"rate\\" means here/);
  t.regex(sqlOf('interest rate'), /refused/);
});

test('the answer says how the rate was read, and the number is the data\'s', async (t) => {
  const wh = await startWarehouse();
  t.teardown(() => wh.close());
  const [[share]] = (await wh.rows("SELECT COUNT(CASE WHEN status = 'cancelled' THEN 1 END) * 100.0 / COUNT(*) FROM main.orders")) as [[number]];
  const text = (await askOffline(wh, 'What is the cancellation rate?')).events.filter((e): e is Extract<AgentEvent, { type: 'text_delta' }> => e.type === 'text_delta').map((e) => e.text).join('');
  t.true(text.startsWith("Reading 'cancellation rate' as the share of orders whose status is 'cancelled'.\nShare of orders where status is cancelled:"), text);
  t.true(text.includes(`${Number(share).toFixed(1).replace(/\.0$/, '')}%`), `${share} in ${text}`);
});

test('the best selling value of a column of two words, in a period named after it', (t) => {
  t.regex(sqlOf('What is our best selling product category?'), /^SELECT t1\.category AS category, SUM\(t0\.quantity\)[\s\S]*ORDER BY 2 DESC, 1\nLIMIT 1$/);
  t.regex(sqlOf('the best selling product in 2025'), /^SELECT t1\.product_id AS product_id, t1\.name AS name, SUM\(t0\.quantity\)[\s\S]*LIMIT 1$/);
  // A period named after it is the period ranked in, not a time unit ranked ("the best revenue month").
  t.regex(sqlOf('best selling product last year'), /^SELECT t1\.product_id AS product_id, t1\.name AS name, SUM\(t0\.quantity\)[\s\S]*order_date >= DATE '2025-01-01' AND t2\.order_date < DATE '2026-01-01'[\s\S]*LIMIT 1$/);
  t.regex(sqlOf('the best selling products this month'), /^SELECT t1\.product_id AS product_id[\s\S]*order_date >= DATE '2026-01-01' AND t2\.order_date < DATE '2026-02-01'/);
  t.regex(sqlOf('the best revenue month in 2025'), /date_trunc\('month'/);

});

test('"which product category sells best", "which product sold the best", "which category sells worst": asked with a verb', (t) => {
  t.regex(sqlOf('which product category sells best?'), /^SELECT t1\.category AS category, SUM\(t0\.quantity\)[\s\S]*ORDER BY 2 DESC, 1\nLIMIT 1$/);
  t.regex(sqlOf('Which product sold the best in 2025?'), /^SELECT t1\.product_id AS product_id, t1\.name AS name, SUM\(t0\.quantity\)[\s\S]*order_date >= DATE '2025-01-01'[\s\S]*LIMIT 1$/);
  t.regex(sqlOf('which category sells worst'), /^SELECT t1\.category AS category, SUM\(t0\.quantity\)[\s\S]*ORDER BY 2 ASC, 1\nLIMIT 1$/);
  t.regex(sqlOf('which 3 products sell the most'), /^SELECT t1\.product_id AS product_id[\s\S]*ORDER BY 3 DESC[\s\S]*LIMIT 3$/);
});
