// "Customers with more than 5 orders", "customers who have never ordered": a table's rows kept by how
// many rows of another table point to each, as a correlated count (never a join that repeats them),
// with the period on the rows counted unless another date is named. Results against HAVING and
// NOT IN written by hand, on the agent test warehouse. Groups kept by their own measure (HAVING) too.
import test from 'ava';
import type { AgentEvent } from '../../src/agent/events.ts';
import { startWarehouse, type TestWarehouse } from '../helpers/agent-warehouse.ts';
import { askOffline } from '../helpers/offline-run.ts';
import { plannedSql as sqlOf, withOrderMetrics } from '../helpers/offline-plan.ts';

let wh: TestWarehouse;
test.before(async () => {
  wh = await startWarehouse();
});
test.after.always(() => wh.close());

const COUNTED = String.raw`\(SELECT COUNT\(\*\) FROM main\.orders AS r WHERE r\.customer_id = t0\.customer_id`;

test('the kept rows are counted or listed once each, by a count of the rows pointing to them', (t) => {
  for (const q of ['customers with more than 2 orders', 'how many customers have more than 2 orders', 'customers who placed more than 2 orders', 'Number of customers that have placed more than 2 orders']) {
    t.regex(sqlOf(q), new RegExp(`^SELECT COUNT\\(\\*\\) AS customer_count\\nFROM main\\.customers AS t0\\nWHERE ${COUNTED}\\) > 2$`), q);
  }
  t.regex(sqlOf('customers with 3 or more orders'), new RegExp(`${COUNTED}\\) >= 3$`));
  t.regex(sqlOf('customers with exactly 1 order'), new RegExp(`${COUNTED}\\) = 1$`));
  t.regex(sqlOf('customers with at most 1 order'), new RegExp(`${COUNTED}\\) <= 1$`));
  for (const q of ['customers who placed an order', 'customers that made a purchase', 'customers that have placed any orders']) t.regex(sqlOf(q), new RegExp(`${COUNTED}\\) >= 1$`), q);
  for (const q of ['customers without orders', 'customers with no orders', 'how many customers have no orders', 'customers who have never ordered', 'customers that have not placed an order', 'customers that did not buy anything', 'customers who never ordered at all', "customers who haven't ordered", 'customers that didnt buy anything', 'customers who hadn\u2019t placed an order']) {
    t.regex(sqlOf(q), new RegExp(`${COUNTED}\\) = 0$`), q);
  }
  t.regex(sqlOf('which customers have more than 2 orders'), new RegExp(`^SELECT t0\\.customer_id, [^\\n]*\\nFROM main\\.customers AS t0\\nWHERE ${COUNTED}\\) > 2\\nORDER BY`), 'listed, never joined');
  // The verb names the rows counted, and "times" how many.
  t.regex(sqlOf('customers who ordered more than 2 times'), new RegExp(`^SELECT COUNT\\(\\*\\) AS customer_count\\nFROM main\\.customers AS t0\\nWHERE ${COUNTED}\\) > 2$`));
  t.regex(sqlOf('how many products were ordered at least 3 times'), /COUNT\(DISTINCT r\.order_id\) FROM main\.order_items AS r WHERE r\.product_id = t0\.product_id\) >= 3$/);
  t.regex(sqlOf('customers who ordered in 2025'), /JOIN main\.orders AS t1/, 'a verb without a number of times is the join it was');
  t.regex(sqlOf('orders with more than 2 order items'), /\(SELECT COUNT\(\*\) FROM main\.order_items AS r WHERE r\.order_id = t0\.order_id\) > 2$/);
});

test('a period dates the rows counted, unless the question names another date', (t) => {
  t.regex(sqlOf('how many customers placed at least 2 orders in 2025'), new RegExp(`${COUNTED} AND r\\.order_date >= DATE '2025-01-01' AND r\\.order_date < DATE '2026-01-01'\\) >= 2$`));
  const signedUp = sqlOf('customers who signed up in 2025 with no orders');
  t.regex(signedUp, new RegExp(`${COUNTED}\\) = 0 AND t0\\.signup_date >= DATE '2025-01-01'`));
  t.notRegex(signedUp, /r\.order_date/);
});

test('a comparison on the rows counted is in the count; on the rows measured, outside it', (t) => {
  t.regex(sqlOf('customers with more than 2 orders over 100'), new RegExp(`^SELECT COUNT\\(\\*\\) AS customer_count\\nFROM main\\.customers AS t0\\nWHERE ${COUNTED} AND r\\.total_amount > 100\\) > 2$`));
  t.regex(sqlOf('customers with no orders over 500 in 2025'), new RegExp(`${COUNTED} AND r\\.order_date >= DATE '2025-01-01' AND r\\.order_date < DATE '2026-01-01' AND r\\.total_amount > 500\\) = 0$`));
  // Through a table between, on the counted rows joined in.
  t.regex(sqlOf('products with more than 1 order over 100'), /\(SELECT COUNT\(DISTINCT r\.order_id\) FROM main\.order_items AS r JOIN main\.orders AS c ON c\.order_id = r\.order_id WHERE r\.product_id = t0\.product_id AND c\.total_amount > 100\) > 1$/);
  // The orders measured are compared; those counted are all of the customer's.
  t.regex(sqlOf('orders over 100 from customers with more than 2 orders'), /WHERE t0\.total_amount > 100 AND \(SELECT COUNT\(\*\) FROM main\.orders AS r WHERE r\.customer_id = t1\.customer_id\) > 2$/);
});

test('with groups, filters and a measure of another table, the count is on the rows named', (t) => {
  t.regex(sqlOf('number of customers by country with more than 2 orders'), new RegExp(`^SELECT t0\\.country AS country, COUNT\\(\\*\\) AS customer_count\\nFROM main\\.customers AS t0\\nWHERE ${COUNTED}\\) > 2\\nGROUP BY 1`));
  t.regex(sqlOf('customers in Germany with no orders'), new RegExp(`WHERE t0\\.country = 'Germany' AND ${COUNTED}\\) = 0$`));
  // Revenue is the orders': their customer is joined (each order once) and counted by its own orders.
  t.regex(sqlOf('total amount of orders from customers with more than 2 orders'), /FROM main\.orders AS t0\nJOIN main\.customers AS t1 ON t0\.customer_id = t1\.customer_id\nWHERE \(SELECT COUNT\(\*\) FROM main\.orders AS r WHERE r\.customer_id = t1\.customer_id\) > 2$/);
});

test('through the one table that points to both, the counted rows are its distinct pointers to them', (t) => {
  for (const q of ['products that were never ordered', 'how many products have never been ordered', 'products that have not been ordered']) {
    t.regex(sqlOf(q), /^SELECT COUNT\(\*\) AS product_count\nFROM main\.products AS t0\nWHERE \(SELECT COUNT\(DISTINCT r\.order_id\) FROM main\.order_items AS r WHERE r\.product_id = t0\.product_id\) = 0$/, q);
  }
  t.regex(sqlOf('which products have never been ordered'), /^SELECT t0\.product_id, [^\n]*\nFROM main\.products AS t0\nWHERE \(SELECT COUNT\(DISTINCT r\.order_id\)[^\n]*\) = 0\nORDER BY/, 'listed');
  // A period of the counted rows joins them in, inside the count.
  t.regex(sqlOf('products with no orders in 2025'), /\(SELECT COUNT\(DISTINCT r\.order_id\) FROM main\.order_items AS r JOIN main\.orders AS c ON c\.order_id = r\.order_id WHERE r\.product_id = t0\.product_id AND c\.order_date >= DATE '2025-01-01' AND c\.order_date < DATE '2026-01-01'\) = 0$/);
  // Order lines reach customers only through orders: a chain, not a table pointing to both.
  t.regex(sqlOf('customers with more than 2 order items'), /^refused: .*no documented relationship, or one table between/);
});

test('the answers equal HAVING and NOT IN written by hand, and their titles say what was kept', async (t) => {
  const cases: [string, string, RegExp][] = [
    ['How many customers have more than 1 order?', 'SELECT COUNT(*) FROM (SELECT customer_id FROM orders GROUP BY 1 HAVING COUNT(*) > 1)', /^Number of customers with more than 1 order: /],
    ['How many customers have never ordered?', 'SELECT COUNT(*) FROM customers WHERE customer_id NOT IN (SELECT customer_id FROM orders)', /^Number of customers with no orders: /],
    ['Customers with at least 1 order in 2025 by segment', "SELECT c.segment, COUNT(*) FROM customers c WHERE c.customer_id IN (SELECT customer_id FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01') GROUP BY 1 ORDER BY 2 DESC, 1", /^Number of customers by segment with at least 1 order in 2025:/],
    ['How many customers placed an order in 2025?', "SELECT COUNT(DISTINCT customer_id) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'", /^Number of customers with at least 1 order in 2025: /],
    ['How many customers have more than 1 order over 100?', 'SELECT COUNT(*) FROM (SELECT customer_id FROM orders WHERE total_amount > 100 GROUP BY 1 HAVING COUNT(*) > 1)', /^Number of customers with more than 1 order of total amount over 100: /],
    ['How many products have more than 1 order?', 'SELECT COUNT(*) FROM (SELECT product_id FROM order_items GROUP BY 1 HAVING COUNT(DISTINCT order_id) > 1)', /^Number of products with more than 1 order: /],
    ['Total amount of orders from customers with more than 1 order', 'SELECT SUM(total_amount) FROM orders WHERE customer_id IN (SELECT customer_id FROM orders GROUP BY 1 HAVING COUNT(*) > 1)', /^Total amount of customers with more than 1 order: /],
  ];
  for (const [question, expected, title] of cases) {
    const { result, events } = await askOffline(wh, question);
    const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');
    t.is(result.status, 'completed', question);
    t.deepEqual(table?.rows.map((r) => r.map(String)), (await wh.rows(expected)).map((r) => r.map(String)), question);
    t.regex(result.text, title, question);
  }
});

test('a follow-up keeps the count, and a new one replaces it', async (t) => {
  const { events } = await askOffline(wh, 'and in Germany?', ['customers with more than 1 order']);
  const sql = events.find((e): e is Extract<AgentEvent, { type: 'sql' }> => e.type === 'sql')?.sql ?? '';
  t.regex(sql, /WHERE t0\.country = 'Germany' AND \(SELECT COUNT\(\*\) FROM main\.orders AS r WHERE r\.customer_id = t0\.customer_id\) > 1$/);
});

test('groups named in the plural are kept by their own measure, with HAVING', (t) => {
  t.regex(sqlOf('countries with more than 2 customers'), /^SELECT t0\.country AS country, COUNT\(\*\) AS customer_count\nFROM main\.customers AS t0\nGROUP BY 1\nHAVING COUNT\(\*\) > 2\nORDER BY 2 DESC, 1$/);
  t.regex(sqlOf('which channels have at least 3 orders in 2025'), /WHERE t0\.order_date >= DATE '2025-01-01' AND t0\.order_date < DATE '2026-01-01'\nGROUP BY 1\nHAVING COUNT\(\*\) >= 3\n/);
  t.regex(sqlOf('segments whose total amount is over 1k'), /^SELECT t1\.segment AS segment, SUM\(t0\.total_amount\)[\s\S]*GROUP BY 1\nHAVING SUM\(t0\.total_amount\) > 1000\n/);
  // A number in digits before a scale word is one amount: "1.5 thousand" is 1500, not 1.5 and 1000.
  t.regex(sqlOf('segments whose total amount is over 1.5 thousand'), /HAVING SUM\(t0\.total_amount\) > 1500\n/);
  t.regex(sqlOf('top 2 countries with more than 1 customer'), /HAVING COUNT\(\*\) > 1\nORDER BY 2 DESC, 1\nLIMIT 2$/);
  // One row's own value is compared row by row, as before; a table's rows by a count of theirs.
  t.regex(sqlOf('orders over 500'), /WHERE t0\.total_amount > 500$/);
  t.notRegex(sqlOf('customers with more than 2 orders'), /HAVING/);
  t.regex(sqlOf('countries with more than 2 customers as a percentage'), /^refused: .*keeps groups by their total and asks for other units/);
});

test('the groups kept are those HAVING written by hand keeps, and the title says so', async (t) => {
  const { result, events } = await askOffline(wh, 'Which countries have more than 1 customer?');
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');
  t.deepEqual(table?.rows.map((r) => r.map(String)), (await wh.rows('SELECT country, COUNT(*) FROM customers GROUP BY 1 HAVING COUNT(*) > 1 ORDER BY 2 DESC, 1')).map((r) => r.map(String)));
  t.regex(result.text, /^Number of customers by country, only those with more than 1:/);
});

/** The agent test warehouse with a governed metric of its orders: revenue, the sum of their amounts. */
const withRevenue = () => withOrderMetrics([{ name: 'revenue', description: 'Amount of all orders.', expression: 'SUM(total_amount)', format: 'USD', synonyms: ['spent'] }]);

test('rows of a table named in the plural are kept by a governed metric of their related rows, each labelled', (t) => {
  const schema = withRevenue();
  const kept = /^SELECT t1\.customer_id AS customer_id, t1\.name AS name, SUM\(t0\.total_amount\) AS revenue\nFROM main\.orders AS t0\nJOIN main\.customers AS t1 ON t0\.customer_id = t1\.customer_id\nGROUP BY 1, 2\nHAVING SUM\(t0\.total_amount\) > 1000\nORDER BY 3 DESC, 1, 2$/;
  for (const q of ['customers with revenue over 1000', 'customers with more than 1000 revenue', 'which customers have revenue above 1k dollars', 'customers whose revenue is over 1000', 'customers who spent more than 1000', 'which customers spent over $1000']) t.regex(sqlOf(q, undefined, schema), kept, q);
  // A column's groups the same way, with the measure right after them.
  t.regex(sqlOf('countries total amount over 1000', undefined, schema), /^SELECT t1\.country AS country, SUM\(t0\.total_amount\) AS total_amount\n[\s\S]*GROUP BY 1\nHAVING SUM\(t0\.total_amount\) > 1000\n/);
  t.regex(sqlOf('top 2 customers with revenue over 100', undefined, schema), /HAVING SUM\(t0\.total_amount\) > 100\nORDER BY 3 DESC, 1, 2\nLIMIT 2$/);
  // By a count of another table's rows they are counted one by one, as before; by a column's value each related row is compared.
  t.regex(sqlOf('customers with more than 2 orders', undefined, schema), new RegExp(`^SELECT COUNT\\(\\*\\) AS customer_count\\nFROM main\\.customers AS t0\\nWHERE ${COUNTED}\\) > 2$`));
  t.regex(sqlOf('customers with total amount over 1000', undefined, schema), /^SELECT COUNT\(DISTINCT t0\.customer_id\) AS customer_count\n[\s\S]*WHERE t1\.total_amount > 1000$/);
  t.regex(sqlOf('orders with total amount over 500', undefined, schema), /^SELECT COUNT\(\*\) AS order_count\nFROM main\.orders AS t0\nWHERE t0\.total_amount > 500$/);
  t.regex(sqlOf('customers with revenue over 1k euros', undefined, schema), /^refused: .*revenue is documented in USD, and I cannot convert euros/);
});

test('the customers kept by their revenue are those HAVING written by hand keeps', async (t) => {
  const { result, events } = await askOffline(wh, 'Which customers have revenue above 100?', [], withRevenue().tables);
  const table = events.find((e): e is Extract<AgentEvent, { type: 'table' }> => e.type === 'table');
  const expected = await wh.rows('SELECT c.customer_id, c.name, SUM(o.total_amount) FROM orders o JOIN customers c ON c.customer_id = o.customer_id GROUP BY 1, 2 HAVING SUM(o.total_amount) > 100 ORDER BY 3 DESC, 1, 2');
  t.true(expected.length > 0);
  t.deepEqual(table?.rows.map((r) => r.map(String)), expected.map((r) => r.map(String)));
  t.regex(result.text, /^Revenue by customer, only those with more than 100:/);
});

test('a ranking within each group numbers the first group within the others, and keeps the first of each', (t) => {
  t.regex(sqlOf('top 3 products per category by quantity'), /^SELECT \* FROM \(\nSELECT \*, ROW_NUMBER\(\) OVER \(PARTITION BY category ORDER BY total_quantity DESC, product_id, name\) AS rank_in_group\nFROM \(\n[\s\S]*GROUP BY 1, 2, 3\n\) AS per_group\n\) AS ranked\nWHERE rank_in_group <= 3\nORDER BY category, rank_in_group$/);
  t.regex(sqlOf('bottom 2 customers by total amount for each country'), /ORDER BY total_amount ASC, customer_id, name\) AS rank_in_group/);
  t.regex(sqlOf('top 3 products by quantity'), /ORDER BY 3 DESC, 1, 2\nLIMIT 3$/, 'without "each", a ranking of all');
  t.regex(sqlOf('top 3 products per category by quantity as a percentage'), /^refused: .*ranks within each group/);
});

test('a metric that counts rows is counted as its table, and another aggregate of a metric is of its column', (t) => {
  // As the jaffle shop documents them: "orders" a metric of SUM(1), "order total" a metric and a column.
  const schema = withOrderMetrics([{ name: 'orders', description: 'Number of orders.', expression: 'SUM(1)' }, { name: 'total_amount', description: 'Amount of all orders.', expression: 'SUM(total_amount)' }]);
  t.regex(sqlOf('how many customers have placed at least 2 orders', undefined, schema), new RegExp(`^SELECT COUNT\\(\\*\\) AS customer_count\\nFROM main\\.customers AS t0\\nWHERE ${COUNTED}\\) >= 2$`));
  t.regex(sqlOf('what is the median total amount', undefined, schema), /^SELECT PERCENTILE_CONT\(0\.5\) WITHIN GROUP \(ORDER BY t0\.total_amount\) AS median_total_amount\nFROM main\.orders AS t0$/);
});
