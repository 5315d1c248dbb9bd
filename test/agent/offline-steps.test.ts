// "Revenue growth by month in 2025", "month over month", "QoQ": each period of the one named with its
// change from the period before, in SQL (LAG over the grouped periods, one period more read at the
// start, then dropped), within each other group; a change between two named periods stays the
// comparison of those two. Results against DuckDB's QUALIFY written by hand.
import test from 'ava';
import type { AgentEvent } from '../../src/agent/events.ts';
import type { BuiltQuery } from '../../src/agent/offline/build-sql.ts';
import { describeResult } from '../../src/agent/offline/wording.ts';
import { startWarehouse, type TestWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';
import { plannedSql as sqlOf } from '../helpers/offline-plan.ts';

let wh: TestWarehouse;
test.before(async () => {
  wh = await startWarehouse();
});
test.after.always(() => wh.close());

const LAG = String.raw`total_amount - LAG\(total_amount\) OVER \(ORDER BY month\) AS total_amount_change, \(total_amount - LAG\(total_amount\) OVER \(ORDER BY month\)\) \* 1\.0 \/ NULLIF\(LAG\(total_amount\) OVER \(ORDER BY month\), 0\) AS total_amount_change_pct`;

const numeric = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(v));
/** Rows with their numbers to 6 decimals: DuckDB's division and the offline model's agree to that. */
const round = (rows: unknown[][]) => rows.map((r) => r.map((v) => (numeric(v) ? Math.round(Number(v) * 1e6) / 1e6 : v)));

test('a change by a shorter unit than the period named is each unit\'s change from the one before', (t) => {
  for (const q of ['total amount growth by month in 2025', 'month over month total amount growth in 2025', 'MoM total amount in 2025', 'total amount change by month in 2025']) {
    const sql = sqlOf(q);
    t.regex(sql, new RegExp(`^SELECT \\* FROM \\(\\nSELECT \\*, ${LAG}\\nFROM \\(\\nSELECT date_trunc\\('month', t0\\.order_date\\) AS month, SUM\\(t0\\.total_amount\\) AS total_amount\\n`), q);
    // One month more is read, for January's change, and dropped after the window.
    t.regex(sql, /WHERE t0\.order_date >= DATE '2024-12-01' AND t0\.order_date < DATE '2026-01-01'\nGROUP BY 1\n\) AS per_period\n\) AS stepped\nWHERE month >= DATE '2025-01-01'\nORDER BY month$/, q);
  }
  t.regex(sqlOf('quarter over quarter orders in 2025'), /LAG\(order_count\) OVER \(ORDER BY quarter\)[\s\S]*order_date >= DATE '2024-10-01'[\s\S]*WHERE quarter >= DATE '2025-01-01'/);
  t.regex(sqlOf('monthly total amount growth in Q3 2025'), /order_date >= DATE '2025-06-01' AND t0\.order_date < DATE '2025-10-01'[\s\S]*WHERE month >= DATE '2025-07-01'/);
  t.regex(sqlOf('total amount growth by channel by month in 2025'), /LAG\(total_amount\) OVER \(PARTITION BY channel ORDER BY month\)[\s\S]*ORDER BY channel, month$/, 'within each other group');
});

test('without a period, every whole unit of the data comes with its change, the unit still running left out', (t) => {
  for (const q of ['total amount growth by year', 'year over year total amount growth', 'yearly total amount change']) {
    t.regex(sqlOf(q), /LAG\(total_amount\) OVER \(ORDER BY year\)[\s\S]*WHERE t0\.order_date < DATE '2026-01-01'\nGROUP BY 1\n\) AS per_period\n\) AS stepped\nORDER BY year$/, q);
  }
  t.regex(sqlOf('monthly total amount growth'), /WHERE t0\.order_date < DATE '2026-01-01'[\s\S]*ORDER BY month$/, 'the clock stands on 15 January 2026: January is still running');
  t.regex(sqlOf('total amount growth'), /^refused: /, 'growth of what periods?');
  t.regex(sqlOf('monthly difference in total amount for web and mobile'), /^refused: /, 'a difference between things named is no change over time');
});

test('two periods compared stay two rows, and what has no step reading is refused', (t) => {
  t.notRegex(sqlOf('total amount growth in 2025'), /LAG/);
  t.notRegex(sqlOf('year over year total amount growth in 2025'), /LAG/, 'a year against the year before');
  t.regex(sqlOf('total amount growth by month 2025 vs 2024'), /^refused: .*growth of each month/);
  t.regex(sqlOf('total amount growth by week in 2025'), /^refused: .*growth of each week/);
  t.regex(sqlOf('total amount change by month this year'), /^refused: .*period still running/);
});

test('each row states its change from the period before; the first without one says so', (t) => {
  const built: BuiltQuery = { sql: 'SELECT 1', connectionId: 'wh', title: 'Revenue by month in 2025, with each month\'s change from the one before', valueColumn: 'revenue', labelColumn: 'month', timeSeries: true, format: 'USD', bucket: 'month', steps: 'month' };
  const rows = [['2025-01-01', 100, null, null], ['2025-02-01', 90, -10, -0.1], ['2025-03-01', 120, 30, 1 / 3]];
  const content = { columns: ['month', 'revenue', 'revenue_change', 'revenue_change_pct'].map((name) => ({ name })), rows, row_count: 3 };
  t.is(describeResult(built, content), [
    "Revenue by month in 2025, with each month's change from the one before:",
    '- Jan 2025: $100.00 (no month before it in the data)',
    '- Feb 2025: $90.00 (-$10.00, -10% from the month before)',
    '- Mar 2025: $120.00 (+$30.00, +33.3% from the month before)',
  ].join('\n'));
});

test('the answer equals LAG written by hand, and its title says what each row holds', async (t) => {
  const { result, events } = await askOffline(wh, 'Total amount growth by month in 2025');
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');
  const expected = await wh.rows("SELECT m, v, v - lag(v) OVER (ORDER BY m), (v - lag(v) OVER (ORDER BY m)) / lag(v) OVER (ORDER BY m) FROM (SELECT date_trunc('month', order_date) m, SUM(total_amount) v FROM orders WHERE order_date >= DATE '2024-12-01' AND order_date < DATE '2026-01-01' GROUP BY 1) QUALIFY m >= DATE '2025-01-01' ORDER BY 1");
  t.true(expected.length > 1, 'the warehouse has months of 2025');
  t.deepEqual(round(table!.rows), round(expected));
  t.is(table!.formats?.['total_amount_change_pct'], 'percent', 'the table shows the change as a percentage');
  t.regex(result.text, /^Total amount by month in 2025, with each month's change from the one before:\n- Jan 2025: /);
});

test('groups ranked by their change are each one\'s later period with its change, ranked in SQL, those without an earlier period last', (t) => {
  for (const q of ['which channel had the highest total amount growth in 2025', 'which channel had the largest total amount increase in 2025 vs 2024']) {
    t.regex(sqlOf(q), /LAG\(total_amount\) OVER \(PARTITION BY channel ORDER BY year\)[\s\S]*WHERE t0\.order_date >= DATE '2024-01-01' AND t0\.order_date < DATE '2026-01-01'\nGROUP BY 1, 2\n\) AS per_period\n\) AS stepped\nWHERE year >= DATE '2025-01-01'\nORDER BY CASE WHEN total_amount_change IS NULL THEN 1 ELSE 0 END, total_amount_change DESC, channel, year\nLIMIT 1$/, q);
  }
  t.regex(sqlOf('bottom 2 segments by total amount growth in Q2 2025 vs Q1 2025'), /PARTITION BY segment ORDER BY quarter[\s\S]*WHERE quarter >= DATE '2025-04-01'\nORDER BY CASE WHEN total_amount_change IS NULL THEN 1 ELSE 0 END, total_amount_change ASC, segment, quarter\nLIMIT 2$/);
  // Ranked without a group, within groups, or a place further down: not read.
  t.regex(sqlOf('top 2 channels per segment by total amount growth in 2025'), /^refused: /);
  t.regex(sqlOf('the second highest total amount growth by channel in 2025'), /^refused: .*ranks by the growth/);
  t.regex(sqlOf('which channel had the highest total amount growth in 2025 vs 2023'), /^refused: .*ranks by the growth/, 'periods that are not neighbours');
});

test('the groups ranked by their change are those LAG and ORDER BY written by hand rank', async (t) => {
  const { result, events } = await askOffline(wh, 'Top 2 channels by total amount growth in 2025');
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');
  const expected = await wh.rows("SELECT c, y, v, v - lag(v) OVER (PARTITION BY c ORDER BY y) AS d, (v - lag(v) OVER (PARTITION BY c ORDER BY y)) / lag(v) OVER (PARTITION BY c ORDER BY y) FROM (SELECT channel c, date_trunc('year', order_date) y, SUM(total_amount) v FROM orders WHERE year(order_date) IN (2024, 2025) GROUP BY 1, 2) QUALIFY y = DATE '2025-01-01' ORDER BY d IS NULL, d DESC, c LIMIT 2");
  t.is(expected.length, 2);
  t.deepEqual(round(table!.rows), round(expected));
  t.regex(result.text, /^Top 2: Total amount by channel in 2025 and the year before, ranked by the change from the year before:\n- \w+, 2025: [\d,.]+ \([+-][\d,.]+, [+-][\d.]+% from the year before\)\n- /);
  // Drawn by what ranks them: each channel's change, in bars.
  const chart = events.find((e): e is Extract<AgentEvent, { type: 'tool_call' }> => e.type === 'tool_call' && e.name === 'make_chart');
  t.like(chart?.arguments, { type: 'bar', x: 'channel', y: 'total_amount_change' });
});
