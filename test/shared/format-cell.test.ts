// How result tables show values (src/shared/format-cell.ts: the web client's grid, report mails),
// without a browser: separators for amounts, ids and years as they are, dates at the query's grain.
import test from 'ava';
import { columnFormat, formatCell, grainOfSql } from '../../src/shared/format-cell.ts';

const show = (name: string, values: unknown[], sql?: string) => {
  const format = columnFormat(name, values, grainOfSql(sql));
  return values.map((v) => formatCell(v, format, 'en-US'));
};

test('amounts get thousands separators and two decimals when any value has a fraction', (t) => {
  t.deepEqual(show('revenue', ['2880619.8210', 12, null]), ['2,880,619.82', '12.00', '']);
  t.deepEqual(show('orders', [1234567, 3]), ['1,234,567', '3']);
});

test('ids, codes and years are shown as they are', (t) => {
  t.deepEqual(show('product_id', [194, 10115]), ['194', '10115']);
  t.deepEqual(show('year', [2024, 2025]), ['2024', '2025']);
  t.deepEqual(show('zip', ['01234']), ['01234']);
});

test('dates follow the grain of the query, or of their values', (t) => {
  t.deepEqual(show('month', ['2024-01-01 00:00:00', '2024-02-01 00:00:00']), ['Jan 2024', 'Feb 2024']);
  t.deepEqual(show('quarter', ['2025-04-01 00:00:00'], "SELECT date_trunc('quarter', order_date) AS quarter"), ['2025 Q2']);
  t.deepEqual(show('year', ['2024-01-01T00:00:00.000Z'], "SELECT date_trunc('year', d)"), ['2024']);
  t.deepEqual(show('day', ['2024-01-01', '2024-01-15']), ['1 Jan 2024', '15 Jan 2024']);
  t.deepEqual(show('at', ['2024-01-15 13:45:10']), ['15 Jan 2024 13:45']);
  // Two different truncations in one query: the values decide.
  t.is(grainOfSql("SELECT date_trunc('month', a), date_trunc('year', b)"), undefined);
});

test('text stays text, and a column mixing numbers and words is not reformatted', (t) => {
  t.deepEqual(show('country', ['France', 'Japan']), ['France', 'Japan']);
  t.deepEqual(show('size', ['12', 'XL']), ['12', 'XL']);
  t.deepEqual(show('payload', [{ a: 1 }]), ['{"a":1}']);
});

test("a governed metric's column is shown in its format: a currency, a percentage, whole numbers", (t) => {
  const shown = (values: unknown[], metric: string) => values.map((v) => formatCell(v, columnFormat('value', values, undefined, metric), 'en-US'));
  t.deepEqual(shown(['2880619.8210', 12], 'USD'), ['$2,880,619.82', '$12.00']);
  t.deepEqual(shown([1234.5], 'EUR'), ['€1,234.50']);
  t.deepEqual(shown([0.125, '0.5'], 'percent'), ['12.5%', '50.0%']);
  t.deepEqual(shown([0.25, 0.5], 'percent'), ['25%', '50%']);
  // Shares that would read alike at one digit get the digits that tell them apart.
  t.deepEqual(shown([0.0496, 0.0502, 0.0504], 'percent'), ['4.96%', '5.02%', '5.04%']);
  t.deepEqual(shown([0.05, 0.05], 'percent'), ['5%', '5%']);
  t.deepEqual(shown([1234.4], 'integer'), ['1,234']);
  // Not numbers after all: the metric's format does not apply.
  t.deepEqual(shown(['n/a'], 'USD'), ['n/a']);
});
