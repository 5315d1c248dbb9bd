// Words that carry no meaning of their own for the offline model (words.ts FILLER) are read past, never
// taken for a typo of another word: "whose" was refused as "could be those or whole". And the ways of
// writing one word: "avg basket size" is the demo's synonym "average basket size"; and numbers and
// months as people write them ("1,000,000", "jan 2025").
import test from 'ava';
import { findMentions, forms } from '../../src/agent/offline/vocabulary.ts';
import { normalize } from '../../src/agent/offline/words.ts';
import { agentSchema, plannedSql as sqlOf, withOrderMetrics } from '../helpers/offline-plan.ts';

test('"whose" introduces the filter as "with" does', (t) => {
  t.is(sqlOf('products whose price is above 100'), sqlOf('products with a price above 100'));
  t.regex(sqlOf('products whose price is above 100'), /^SELECT COUNT\(\*\) AS product_count\nFROM main\.products AS t0\nWHERE t0\.unit_price > 100$/);
  t.regex(sqlOf('orders whose total amount is over 1000'), /WHERE t0\.total_amount > 1000$/);
});

test('a synonym that starts with "average" is also known written "avg" or "mean", in its plural too', (t) => {
  t.deepEqual(forms('average basket size').sort(), ['average basket size', 'average basket sizes', 'avg basket size', 'avg basket sizes', 'mean basket size', 'mean basket sizes']);
  t.deepEqual(forms('order_items'), ['order items', 'order item']);
});

test('a metric named "average order" is not "average orders", which counts orders', (t) => {
  const schema = withOrderMetrics([{ name: 'average_order_value', description: 'Average amount of an order.', expression: 'AVG(total_amount)', synonyms: ['average order', 'avg order value'] }]);
  t.regex(sqlOf('average order by channel', undefined, schema), /^SELECT t0\.channel AS channel, AVG\(t0\.total_amount\) AS average_order_value\n/);
  t.regex(sqlOf('avg order values by channel', undefined, schema), /AVG\(t0\.total_amount\) AS average_order_value/, 'a plural of another word stays the metric\'s');
  t.is(sqlOf('average orders per customer', undefined, schema), sqlOf('orders per customer', undefined, schema));
  t.regex(sqlOf('average orders per customer', undefined, schema), /COUNT\(\*\) \* 1\.0 \/ NULLIF\(COUNT\(DISTINCT t0\.customer_id\), 0\)/);
});

test('"items" names order_items, as "order items" does; a prefix that names no table lends nothing', (t) => {
  t.is(sqlOf('orders with more than 3 items'), sqlOf('orders with more than 3 order items'));
  t.regex(sqlOf('orders with more than 3 items'), /WHERE \(SELECT COUNT\(\*\) FROM main\.order_items AS r WHERE r\.order_id = t0\.order_id\) > 3$/);
  t.is(sqlOf('average number of items per order'), sqlOf('order items per order'));
  const schema = agentSchema();
  const orders = schema.tables.find((x) => x.name === 'orders')!;
  const staged = { ...orders, name: 'stg_orders' };
  const mentioned = findMentions('orders by channel', { ...schema, tables: [...schema.tables, staged] }).filter((m) => m.kind === 'table');
  t.deepEqual(mentioned.map((m) => m.table.name), ['orders'], '"stg" is no table: "orders" stays the orders table alone');
});

test('numbers written with thousands separators are read whole; years listed with a comma stay apart', (t) => {
  t.is(normalize('Revenue above 1,000,000 and $5,000 in 2024,2025?'), 'revenue above 1000000 and $5000 in 2024 2025');
  t.regex(sqlOf('channels with revenue above 1,000,000'), /HAVING SUM\(t0\.total_amount\) > 1000000\n/);
  t.is(sqlOf('orders over $1,500,000.50'), sqlOf('orders over 1500000.5'));
});

test('a count written with a scale ("more than 1k customers") is that many; a fraction without one is no count', (t) => {
  t.is(sqlOf('countries with more than 1k customers'), sqlOf('countries with more than 1000 customers'));
  t.regex(sqlOf('countries with 1.5k or more customers'), /HAVING COUNT\(\*\) >= 1500\n/);
  t.regex(sqlOf('customers with 2.5 orders'), /^refused/);
});

test('months shortened are read as months where a period is, and as words elsewhere', (t) => {
  t.is(normalize('Orders of customer Jan in Jan. 2025, from jan to mar; dec 24th; sept 2025; the mar campaign'), 'orders of customer jan in january 2025 from january to march december 24th september 2025 the mar campaign');
  t.is(sqlOf('orders from jan to mar 2025'), sqlOf('orders from january to march 2025'));
  t.is(sqlOf('revenue in sept 2025'), sqlOf('revenue in september 2025'));
  t.is(sqlOf('orders between jan 2025 and mar 2025'), sqlOf('orders between january 2025 and march 2025'));
});
