// The units a question asks its answer in, and the currency a column is documented in.
import test from 'ava';
import type { TableDocument } from '../../src/agent/ports.ts';
import { columnCurrency, findDisplay } from '../../src/agent/offline/units.ts';

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
