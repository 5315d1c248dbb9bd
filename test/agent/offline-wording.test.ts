// How the offline model words a result: rows named by their names (not ids glued to them), periods
// by theirs, numbers in the units asked, a ranking of one row as its name.
import test from 'ava';
import type { BuiltQuery } from '../../src/agent/offline/build-sql.ts';
import { describeResult, explain } from '../../src/agent/offline/wording.ts';
import { planQuestion } from '../../src/agent/offline/plan-question.ts';
import { agentSchema } from '../helpers/offline-plan.ts';

const built: BuiltQuery = { sql: 'SELECT 1', connectionId: 'wh', title: 'Revenue by product', valueColumn: 'revenue', labelColumn: 'product_id', timeSeries: false, format: 'USD' };

test('a row grouped by an id and a name is named by the name alone', (t) => {
  const content = { columns: [{ name: 'product_id' }, { name: 'product_name' }, { name: 'revenue' }], rows: [[194, 'Pro Building Sets 194', 2880619.821]], row_count: 1 };
  t.is(describeResult(built, content), 'Revenue by product:\n- Pro Building Sets 194: $2,880,619.82');
});

test('a row grouped by several names keeps them all, and ids stay when nothing else names the row', (t) => {
  const two = { columns: [{ name: 'country' }, { name: 'category' }, { name: 'revenue' }], rows: [['France', 'Toys', 10]], row_count: 1 };
  t.is(describeResult({ ...built, labelColumn: 'country' }, two), 'Revenue by product:\n- France, Toys: $10.00');
  const ids = { columns: [{ name: 'store_id' }, { name: 'product_id' }, { name: 'revenue' }], rows: [[3, 194, 10]], row_count: 1 };
  t.is(describeResult(built, ids), 'Revenue by product:\n- 3, 194: $10.00');
});

test('periods of a time series read by their names, not their first day', (t) => {
  const content = (bucket: string) => ({ columns: [{ name: bucket }, { name: 'revenue' }], rows: [['2025-04-01T00:00:00.000Z', 10], ['2025-07-01', 20]], row_count: 2 });
  const series = { ...built, title: 'Revenue by period', timeSeries: true };
  t.is(describeResult({ ...series, labelColumn: 'quarter', bucket: 'quarter' }, content('quarter')), 'Revenue by period:\n- 2025 Q2: $10.00\n- 2025 Q3: $20.00');
  t.is(describeResult({ ...series, labelColumn: 'month', bucket: 'month' }, content('month')), 'Revenue by period:\n- Apr 2025: $10.00\n- Jul 2025: $20.00');
  t.is(describeResult({ ...series, labelColumn: 'year', bucket: 'year' }, content('year')), 'Revenue by period:\n- 2025: $10.00\n- 2025: $20.00');
});

test('numbers print in the scale asked, with the units stated once', (t) => {
  const display = { scale: { factor: 1000, word: 'thousands' as const }, span: [0, 0] as [number, number] };
  t.is(describeResult({ ...built, labelColumn: undefined, title: 'Revenue', display }, { columns: [{ name: 'revenue' }], rows: [[2880619.821]], row_count: 1 }), 'Revenue, in thousands of USD: 2,880.62.');
  t.is(describeResult({ ...built, labelColumn: undefined, title: 'Number of orders', format: 'integer', display }, { columns: [{ name: 'order_count' }], rows: [[3000]], row_count: 1 }), 'Number of orders, in thousands: 3.');
});

test('shares are of the total of every row, and not claimed when rows are missing from the result', (t) => {
  const display = { share: true as const, span: [0, 0] as [number, number] };
  const byChannel = { ...built, title: 'Revenue by channel', labelColumn: 'channel', display };
  const rows = [['web', 30], ['mobile', 10]];
  t.is(describeResult(byChannel, { columns: [{ name: 'channel' }, { name: 'revenue' }], rows, row_count: 2 }), 'Revenue by channel, as a share of the total:\n- web: 75%\n- mobile: 25%');
  const cut = describeResult(byChannel, { columns: [{ name: 'channel' }, { name: 'revenue' }], rows, row_count: 3 });
  t.true(cut.startsWith('Revenue by channel:\n- web: $30.00\n- mobile: $10.00'), cut);
  t.regex(cut, /Shares need every row/);
});

test('the percentages of one list have the digits that tell them apart, all alike', (t) => {
  const display = { share: true as const, span: [0, 0] as [number, number] };
  const byCountry = { ...built, title: 'Revenue by country', labelColumn: 'country', display };
  const shares = (values: number[]) => describeResult(byCountry, { columns: [{ name: 'country' }, { name: 'revenue' }], rows: values.map((v, i) => [`c${i}`, v]), row_count: values.length });
  t.is(shares([137, 130, 733]), 'Revenue by country, as a share of the total:\n- c0: 13.7%\n- c1: 13.0%\n- c2: 73.3%');
  t.is(shares([496, 502, 504, 8498]), 'Revenue by country, as a share of the total:\n- c0: 4.96%\n- c1: 5.02%\n- c2: 5.04%\n- c3: 84.98%');
  const rate = { ...built, title: 'Cancellation rate by channel', labelColumn: 'channel', format: 'percent' };
  t.is(describeResult(rate, { columns: [{ name: 'channel' }, { name: 'rate' }], rows: [['web', 0.05], ['store', 0.054]], row_count: 2 }), 'Cancellation rate by channel:\n- web: 5.0%\n- store: 5.4%');
  t.is(describeResult({ ...rate, labelColumn: undefined }, { columns: [{ name: 'rate' }], rows: [[0.05]], row_count: 1 }), 'Cancellation rate by channel: 5%.');
});

test('a ranking of one row names it, instead of listing a top 1', (t) => {
  const leader = { ...built, title: 'Top 1: Number of customers by segment', labelColumn: 'segment', format: 'integer', leader: 'Segment with the most customers' };
  t.is(describeResult(leader, { columns: [{ name: 'segment' }, { name: 'customer_count' }], rows: [['consumer', 1234]], row_count: 1 }), 'Segment with the most customers: consumer (1,234).');
});

test('a list cut at the row limit says the table holds only its first rows', (t) => {
  const list = { ...built, labelColumn: undefined, valueColumn: '', title: 'Orders, newest first', format: undefined, listing: { formats: [undefined, 'USD'] } };
  const columns = [{ name: 'order_id' }, { name: 'total_amount' }];
  const rows = Array.from({ length: 12 }, (_, i) => [117_600 + i, '1234.5']);
  const text = describeResult(list, { columns, rows, row_count: 12, truncated: true });
  t.true(text.startsWith('Orders, newest first (the first 12 rows of more; order id, total amount):\n- 117600, $1,234.50\n'));
  t.true(text.endsWith('\n(The table has those 12 rows.)'));
  t.true(describeResult(list, { columns, rows, row_count: 12, truncated: false }).endsWith('\n(The table has all 12 rows.)'));
  t.is(describeResult(list, { columns, rows: [], row_count: 0, truncated: false }), 'Orders, newest first: no matching rows.');
});

test('a row grouped by a period and a column names its period as people do', (t) => {
  const byMonth = { ...built, title: 'Number of orders by month and status', valueColumn: 'order_count', labelColumn: 'month', format: 'integer', bucket: 'month' as const };
  const content = { columns: [{ name: 'month' }, { name: 'status' }, { name: 'order_count' }], rows: [['2025-01-01', 'cancelled', 232]], row_count: 1 };
  t.is(describeResult(byMonth, content), 'Number of orders by month and status:\n- Jan 2025, cancelled: 232');
});

test('a period of another date than the measure\'s own says which date it is', async (t) => {
  const { buildSql } = await import('../../src/agent/offline/build-sql.ts');
  const customers = { connection: 'wh', schema: 'main', name: 'customers', columns: [{ name: 'customer_id', type: 'INTEGER' }, { name: 'signup_date', type: 'DATE' }] };
  const orders = { connection: 'wh', schema: 'main', name: 'orders', columns: [{ name: 'order_id', type: 'INTEGER' }, { name: 'customer_id', type: 'INTEGER' }, { name: 'order_date', type: 'DATE' }] };
  const period = { from: '2025-01-01', to: '2026-01-01', label: 'in 2025', span: [0, 0] as [number, number] };
  const edge = { from: orders, to: customers, fromColumn: 'customer_id', toColumn: 'customer_id', fanOut: false, relationship: { id: 'r' } } as never;
  const own = { subject: orders, measure: { kind: 'count' as const }, dimensions: [], filters: [{ kind: 'period' as const, ref: { table: orders, column: orders.columns[2]! }, period }], order: undefined, limit: undefined, joins: [], tables: [orders] };
  t.is(buildSql(own)!.title, 'Number of orders in 2025');
  const other = { ...own, filters: [{ kind: 'period' as const, ref: { table: customers, column: customers.columns[1]! }, period }], joins: [edge], tables: [orders, customers] };
  t.is(buildSql(other)!.title, 'Number of orders with signup date in 2025');
});

test('two periods compared for their change state it from the earlier to the later, in the measure\'s format', (t) => {
  const change: BuiltQuery = { ...built, title: 'Revenue by year in 2024 and 2025', labelColumn: 'year', bucket: 'year', timeSeries: true, change: true };
  const rows = (a: number, b: number) => ({ columns: [{ name: 'year' }, { name: 'revenue' }], rows: [['2024-01-01', a], ['2025-01-01', b]], row_count: 2 });
  t.is(describeResult(change, rows(1000, 1250)), 'Revenue by year in 2024 and 2025:\n- 2024: $1,000.00\n- 2025: $1,250.00\nChange: +$250.00 (+25%).');
  t.true(describeResult(change, rows(1000, 900)).endsWith('\nChange: -$100.00 (-10%).'));
  t.true(describeResult(change, rows(0, 900)).endsWith('\nChange: +$900.00.'), 'no percentage of nothing');
  const one = { columns: [{ name: 'year' }, { name: 'revenue' }], rows: [['2025-01-01', 900]], row_count: 1 };
  t.true(describeResult(change, one).endsWith('\n(No change is stated: one of the two periods has no data.)'));
});

test('weeks grouped within a period that does not start or end on a Monday say which of them are cut', (t) => {
  const explained = (q: string) => {
    const p = planQuestion(q, [], agentSchema(), Date.UTC(2026, 0, 15, 12));
    if (p.kind !== 'plan') throw new Error(`${q}: ${JSON.stringify(p)}`);
    return explain(p.plan, agentSchema(), undefined);
  };
  // 1 October 2025 is a Wednesday; 31 October a Friday.
  t.regex(explained('total amount by week in october 2025'), /\nWeeks start on Monday and count only their days in the period: the first only from 2025-10-01, the last only until 2025-10-31\.$/m);
  // 29 September and 3 November 2025 are Mondays: whole weeks, nothing to say.
  t.notRegex(explained('total amount by week from 2025-09-29 to 2025-11-02'), /Weeks start on Monday/);
  t.notRegex(explained('total amount by month in 2025'), /Weeks start on Monday/);
});
