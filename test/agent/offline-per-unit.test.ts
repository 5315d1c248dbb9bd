// "Average daily ...": the units a period's total is divided by (calendar days, weeks of 7 days, whole
// months, quarters and years; a running period up to today), and which measures divide at all.
import test from 'ava';
import type { TableDocument } from '../../src/agent/ports.ts';
import type { PerUnit } from '../../src/agent/offline/intent.ts';
import { countUnits } from '../../src/agent/offline/per-unit.ts';
import { findPeriod } from '../../src/agent/offline/periods.ts';
import { planQuestion } from '../../src/agent/offline/plan-question.ts';
import { buildSql } from '../../src/agent/offline/build-sql.ts';
import type { Schema } from '../../src/agent/offline/vocabulary.ts';
import type { AgentEvent } from '../../src/agent/events.ts';
import { startWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';

const now = Date.UTC(2026, 10, 20, 12);
const per = (bucket: PerUnit['bucket']): PerUnit => ({ bucket, word: 'average daily', today: '2026-11-20' });
const period = (q: string) => findPeriod(q, now);

test('days, weeks and months of a period, a running one up to today', (t) => {
  t.like(countUnits(per('day'), period('in february 2024')), { units: 29, from: '2024-02-01', until: '2024-02-29' });
  t.like(countUnits(per('week'), period('in december 2025')), { units: 31 / 7 });
  t.like(countUnits(per('month'), period('in 2025')), { units: 12, until: '2025-12-31' });
  t.like(countUnits(per('quarter'), period('in 2025')), { units: 4 });
  t.like(countUnits(per('day'), period('this month')), { units: 20, from: '2026-11-01', until: '2026-11-20' });
  t.like(countUnits(per('month'), period('this year')), { units: 11 }, 'November has begun: it counts');
  t.like(countUnits(per('year'), period('in 2025')), { units: 1 });
});

test('no period, one not begun, or one not of whole units gives the reason instead', (t) => {
  t.regex(countUnits(per('day'), undefined) as string, /names no period to divide by/);
  t.regex(countUnits(per('day'), period('since 2025')) as string, /names no period/);
  t.regex(countUnits(per('day'), period('in 2027')) as string, /has not begun/);
  t.regex(countUnits(per('month'), period('in the last 30 days')) as string, /not whole months/);
  t.regex(countUnits(per('quarter'), period('from february to april 2025')) as string, /not whole quarters/);
});

const orders: TableDocument = {
  connection: 'wh',
  schema: 'main',
  name: 'orders',
  description: 'One row per order',
  columns: [
    { name: 'order_id', type: 'INTEGER', description: 'Key' },
    { name: 'customer_id', type: 'INTEGER', description: 'The customer who ordered' },
    { name: 'order_date', type: 'DATE', description: 'When the order was placed' },
    { name: 'amount', type: 'DECIMAL', description: 'Order amount in USD' },
    { name: 'channel', type: 'VARCHAR', description: 'Where the order was placed', values: ['web', 'store'] },
  ],
  metrics: [
    { name: 'revenue', description: 'Amount of orders', expression: 'SUM(amount)', time_column: 'order_date' },
    { name: 'order_value', description: 'Average amount of an order', expression: 'SUM(amount) / COUNT(*)', time_column: 'order_date' },
    { name: 'buyers', description: 'Customers who ordered', expression: 'COUNT(DISTINCT customer_id)', time_column: 'order_date' },
  ],
} as TableDocument;
const schema: Schema = { tables: [orders], relationships: [], paths: new Map() };
const plan = (q: string) => planQuestion(q, [], schema, now);

test('an additive metric is divided; a ratio or a count of distinct values is refused, as it is for shares of groups', (t) => {
  const revenue = plan('average daily revenue in 2025');
  if (revenue.kind !== 'plan') return t.fail(JSON.stringify(revenue));
  t.regex(buildSql(revenue.plan)!.sql, /^SELECT SUM\(t0\.amount\) \/ 365\.0 AS avg_daily_revenue$/m);
  for (const q of ['average daily order value in 2025', 'average daily buyers in 2025']) {
    const refused = plan(q);
    t.is(refused.kind, 'refuse', q);
    t.regex(JSON.stringify(refused), /not a total to divide/, q);
  }
  t.is(plan('revenue by channel as a percentage').kind, 'plan');
  t.regex(JSON.stringify(plan('buyers by channel as a percentage')), /does not add up over groups/, 'a customer of both channels is in both');
});

test('a running period ends today in the query as in the division: rows dated later are not in the total', (t) => {
  const running = plan('average daily revenue this month');
  if (running.kind !== 'plan') return t.fail(JSON.stringify(running));
  const sql = buildSql(running.plan)!.sql;
  t.regex(sql, /SUM\(t0\.amount\) \/ 20\.0 AS avg_daily_revenue/);
  t.regex(sql, /t0\.order_date >= DATE '2026-11-01' AND t0\.order_date < DATE '2026-11-21'/);
  const whole = plan('average daily revenue last month');
  if (whole.kind !== 'plan') return t.fail(JSON.stringify(whole));
  t.regex(buildSql(whole.plan)!.sql, /t0\.order_date < DATE '2026-11-01'/, 'a whole period keeps its end');
});

test('the table of a share and of an average per day carries the value\'s format, as the text does', async (t) => {
  const wh = await startWarehouse();
  t.teardown(() => wh.close());
  const formatOf = async (q: string) => (await askOffline(wh, q)).events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table')?.formats;
  t.deepEqual(await formatOf('what percentage of orders were cancelled'), { share_order_count: 'percent' });
  t.is(await formatOf('how many orders were cancelled'), undefined, 'a count has no format to give');
});

test('a value after the groups narrows the whole: "share of revenue by channel in Germany" is each channel\'s share of German revenue', async (t) => {
  const wh = await startWarehouse();
  t.teardown(() => wh.close());
  const text = async (q: string) => (await askOffline(wh, q)).events.filter((e): e is Extract<AgentEvent, { type: 'text_delta' }> => e.type === 'text_delta').map((e) => e.text).join('');
  t.regex(await text('share of revenue by channel in Germany'), /^Total amount by channel where country is Germany, as a share of the total:/);
  t.regex(await text('percentage of orders cancelled by channel'), /^Share of orders where status is cancelled by channel:/);
});

test('an average apart from its unit divides a count or an additive metric; a column or a ratio stays grouped by the unit', (t) => {
  const sqlOf = (q: string) => {
    const p = plan(q);
    return p.kind === 'plan' ? buildSql(p.plan)!.sql : `refused: ${JSON.stringify(p)}`;
  };
  t.regex(sqlOf('average revenue per month in 2025'), /^SELECT SUM\(t0\.amount\) \/ 12\.0 AS avg_monthly_revenue$/m);
  t.regex(sqlOf('How many orders per day on average in December 2025?'), /^SELECT COUNT\(\*\) \/ 31\.0 AS avg_daily_order_count$/m);
  t.regex(sqlOf('average number of orders per day in december 2025'), /^SELECT COUNT\(\*\) \/ 31\.0 AS avg_daily_order_count$/m);
  t.regex(sqlOf('on average, how many orders a week in 2025'), /^SELECT COUNT\(\*\) \/ 52\.14\d* AS avg_weekly_order_count$/m);
  // A ratio is not divided, and "average" of a metric stays unread, as before; a column's average per month is each month's.
  t.regex(sqlOf('average order value per month in 2025'), /I do not know what \\"average\\" means here/);
  t.regex(sqlOf('average amount per month in 2025'), /^SELECT date_trunc\('month', t0\.order_date\) AS month, AVG\(t0\.amount\) AS avg_amount$/m);
  t.regex(sqlOf('average number of orders per day'), /names no period to divide by \(for example \\"average daily revenue in 2025\\"\)/);
});
