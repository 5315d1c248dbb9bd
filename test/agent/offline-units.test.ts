// The units a question asks its answer in, the currency a column is documented in, and amounts
// compared in a currency.
import test from 'ava';
import type { TableDocument } from '../../src/agent/ports.ts';
import { columnCurrency, findDisplay } from '../../src/agent/offline/units.ts';
import { plannedSql, withOrderMetrics } from '../helpers/offline-plan.ts';

test('scales, currencies and shares are read with the words they stand on', (t) => {
  t.like(findDisplay('revenue in 2025 in thousands of dollars'), { scale: { factor: 1000, word: 'thousands' }, currency: { word: 'dollars' }, span: [16, 39] });
  t.like(findDisplay('revenue in millions'), { scale: { factor: 1e6 } });
  t.deepEqual(findDisplay('revenue in euros')?.currency?.codes, ['EUR']);
  t.true(findDisplay('revenue in dollars')?.currency?.codes.includes('USD'));
  t.true(findDisplay('revenue by channel as a percentage')?.share);
  t.is(findDisplay('revenue in 2025 by country'), undefined);
});

const orders = (metrics: TableDocument['metrics']): TableDocument => ({ connection: 'wh', schema: 'main', name: 'orders', columns: [{ name: 'total_amount', type: 'DECIMAL' }], metrics });

test('a column is in the currency of the governed metrics that aggregate it plainly, and in none when they disagree', (t) => {
  t.is(columnCurrency(orders([{ name: 'revenue', description: '', expression: 'SUM(total_amount)', format: 'USD' }]), 'total_amount'), 'USD');
  t.is(columnCurrency(orders([{ name: 'line', description: '', expression: 'SUM(total_amount * 2)', format: 'USD' }]), 'total_amount'), undefined);
  t.is(
    columnCurrency(orders([{ name: 'a', description: '', expression: 'SUM(total_amount)', format: 'USD' }, { name: 'b', description: '', expression: 'AVG(total_amount)', format: 'EUR' }]), 'total_amount'),
    undefined,
  );
  t.is(columnCurrency(orders([{ name: 'n', description: '', expression: 'SUM(total_amount)', format: 'integer' }]), 'total_amount'), undefined);
});

/** The agent test warehouse with its orders' amounts documented in `format` (a metric that sums them). */
const schemaIn = (format: string) => withOrderMetrics([{ name: 'revenue', description: 'Amount of all orders.', expression: 'SUM(total_amount)', format }]);

test('an amount compared may name its currency, which must be the one the column is documented in', (t) => {
  const usd = schemaIn('USD');
  for (const q of ['orders over 2 thousand dollars', 'orders over $2000', 'orders over 2000 usd', 'orders with a total amount over 2k us dollars']) {
    t.regex(plannedSql(q, undefined, usd), /^SELECT COUNT\(\*\) AS order_count\nFROM main\.orders AS t0\nWHERE t0\.total_amount > 2000$/, q);
  }
  t.regex(plannedSql('orders with total amount between 100 and 500 dollars', undefined, usd), /WHERE t0\.total_amount >= 100 AND t0\.total_amount <= 500$/);
  // Groups kept by their total: the measure's own currency.
  t.regex(plannedSql('countries with revenue over 1k dollars', undefined, usd), /HAVING SUM\(t0\.total_amount\) > 1000\n/);
  // Another currency is refused, not converted: the knowledge holds no exchange rates.
  t.regex(plannedSql('orders over 500 euros', undefined, usd), /^refused: .*total amount is documented in USD, and I cannot convert euros/);
  t.regex(plannedSql('orders over 500 dollars', undefined, schemaIn('EUR')), /^refused: .*documented in EUR, and I cannot convert dollars/);
  t.regex(plannedSql('orders over $500', undefined, schemaIn('EUR')), /^refused: .*documented in EUR/);
  t.regex(plannedSql('countries with revenue over 1k euros', undefined, usd), /^refused: .*revenue is documented in USD, and I cannot convert euros/);
  // Not documented as money: a count has no currency; an undocumented column takes the question's.
  t.regex(plannedSql('countries with more than 2 customers', undefined, usd), /HAVING COUNT\(\*\) > 2/);
  t.regex(plannedSql('orders over 500 euros'), /WHERE t0\.total_amount > 500$/);
});

test('a second metric named is refused in the words the question used, not by its identifier', (t) => {
  const schema = schemaIn('USD');
  schema.tables.find((x) => x.name === 'orders')!.metrics!.push({ name: 'web_orders', description: 'Orders on the web.', expression: 'COUNT(*)', filter: "channel = 'web'" });
  const refused = plannedSql('revenue and web orders by month', undefined, schema);
  t.regex(refused, /"unread":\["web orders"\]/);
  t.notRegex(refused, /web_orders/);
});
