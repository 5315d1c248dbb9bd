// How the offline model words a grouped result: rows named by their names, not ids glued to them.
import test from 'ava';
import type { BuiltQuery } from '../../src/agent/offline/build-sql.ts';
import { describeResult } from '../../src/agent/offline/wording.ts';

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
