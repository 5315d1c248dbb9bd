// Paraphrases of the offline model's question family on the demo organization, worded as people
// write: typos, inflected verbs, numbers in words, "break down ... by", "in total", "for each", the
// cheapest or most expensive rows, units and scale ("in thousands", "as a percentage"), the labels of
// periods and rankings, ordinals ("the second most") and comparisons ("fewer than", "no more than").
// Each answerable one carries the DuckDB query of its expected
// result, like the team's set (demo-questions.ts), on the same clock; out-of-family questions, typos
// included, must still be refused. Asked through the same harness: no answer may be wrong.
import type { DemoQuestion, Expected, QuestionClass } from './demo-questions.ts';

const REVENUE_ORDERS = "status IN ('completed', 'shipped')";
const Y = (col: string, year: number) => `${col} >= DATE '${year}-01-01' AND ${col} < DATE '${year + 1}-01-01'`;
const LINE_REVENUE = 'SUM(i.quantity * i.unit_price * (1 - i.discount))';

const q = (question: string, cls: QuestionClass, expected: Expected): DemoQuestion => ({ question, class: cls, expected });
const sql = (s: string): Expected => ({ sql: s });
const refuse = (why: 'causal' | 'predictive' | 'unmapped'): Expected => ({ refuse: why });

const CUSTOMERS = sql('SELECT COUNT(*) FROM customers');
const ORDERS = sql('SELECT COUNT(*) FROM orders');
const PRODUCTS = sql('SELECT COUNT(*) FROM products');
const REVENUE = sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS}`);
const revenueIn = (year: number) => sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', year)}`);
const revenueBy = (column: string) => sql(`SELECT ${column}, SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1`);
const REVENUE_BY_COUNTRY = sql(`SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1`);
const REVENUE_BY_CATEGORY = sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1`);
const unitsIn = (year: number) => sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) WHERE ${Y('o.order_date', year)}`);
const UNITS_BY_CATEGORY = sql('SELECT p.category, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1 ORDER BY 2 DESC, 1');
const unitsByProduct = (limit: number, year?: number) =>
  sql(
    `SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id)${year ? ` JOIN orders o USING (order_id) WHERE ${Y('o.order_date', year)}` : ''} GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT ${limit}`,
  );
const byPrice = (dir: 'ASC' | 'DESC', limit: number) => sql(`SELECT product_id, name, SUM(unit_price) FROM products GROUP BY 1, 2 ORDER BY 3 ${dir}, 1, 2 LIMIT ${limit}`);
const ordersBy = (column: string) => sql(`SELECT ${column}, COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1`);
const customersBy = (column: string) => sql(`SELECT ${column}, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1`);
const D = (col: string, from: string, to?: string) => `${col} >= DATE '${from}'${to ? ` AND ${col} < DATE '${to}'` : ''}`;
const revenueFrom = (from: string, to?: string) => sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${D('order_date', from, to)}`);
const ordersFrom = (from: string, to?: string) => sql(`SELECT COUNT(*) FROM orders WHERE ${D('order_date', from, to)}`);
const AOV_BY_CHANNEL = sql(`SELECT channel, AVG(total_amount) FROM orders WHERE ${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1`);


// Numbers as the answer text must print them, from the expected rows: scaled, as shares, in USD.
const n = (v: unknown) => Number(v);
const scaled = (factor: number) => (v: unknown) => (n(v) / factor).toLocaleString('en-US', { maximumFractionDigits: 2 });
const usd = (v: unknown) => n(v).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const share = (rows: unknown[][], i: number) => (n(rows[i]!.at(-1)) / rows.reduce((s, r) => s + n(r.at(-1)), 0)).toLocaleString('en-US', { style: 'percent', maximumFractionDigits: 1 });
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const month = (v: unknown) => `${MONTHS[Number(String(v).slice(5, 7)) - 1]} ${String(v).slice(0, 4)}`;
const quarter = (v: unknown) => `${String(v).slice(0, 4)} Q${Math.floor((Number(String(v).slice(5, 7)) - 1) / 3) + 1}`;
const says = (expected: Expected, text: (rows: unknown[][]) => string): Expected => ({ ...(expected as { sql: string }), says: text });
const first = (rows: unknown[][]) => rows[0]![0];
const firstValue = (rows: unknown[][]) => rows[0]!.at(-1);

export const DEMO_PARAPHRASES: DemoQuestion[] = [
  // Typos near exactly one word of the knowledge or of the reader.
  q('How many custmers do we have?', 'typos', CUSTOMERS),
  q('How many cusotmers do we have?', 'typos', CUSTOMERS),
  q('How many ordres are there?', 'typos', ORDERS),
  q('How many ordres were placed in 2024?', 'typos', sql(`SELECT COUNT(*) FROM orders WHERE ${Y('order_date', 2024)}`)),
  q('How many prodcuts are there?', 'typos', PRODUCTS),
  q('What was revnue in 2025?', 'typos', revenueIn(2025)),
  q('What is our total reveneu?', 'typos', REVENUE),
  q('Revenue by contry', 'typos', REVENUE_BY_COUNTRY),
  q('Revenue by cateogry', 'typos', REVENUE_BY_CATEGORY),
  q('Revenue by chanel', 'typos', revenueBy('channel')),
  q('Average order vlaue by chanel', 'typos', AOV_BY_CHANNEL),
  q('Number of custmers per segmnet', 'typos', customersBy('segment')),
  q('Number of orders per staus', 'typos', ordersBy('status')),
  q('Number of customers per coutnry', 'typos', customersBy('country')),
  q('Total quantiy of order items by product category', 'typos', UNITS_BY_CATEGORY),
  q('Averge unit price of products', 'typos', sql('SELECT AVG(unit_price) FROM products')),
  q('How many customers signed up in 2024 by contry?', 'typos', sql(`SELECT country, COUNT(*) FROM customers WHERE ${Y('signup_date', 2024)} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('Why did revnue drop in March 2025?', 'typos', refuse('causal')),
  q('Forecast revneue for next quarter', 'typos', refuse('predictive')),
  q('What is the medain order value?', 'typos', refuse('unmapped')),
  q('Write me a peom about the sea', 'typos', refuse('unmapped')),

  // Verbs in any form, when the knowledge uses the verb of a table the question names.
  q('Which categories sold the most units?', 'inflections', UNITS_BY_CATEGORY),
  q('Which category sold the most units?', 'inflections', sql('SELECT p.category, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1')),
  q('Which product sold the most units in 2025?', 'inflections', unitsByProduct(1, 2025)),
  q('How many units did we sell in 2025?', 'inflections', unitsIn(2025)),
  q('How many units were sold in 2024?', 'inflections', unitsIn(2024)),
  q('How many units do we sell per category?', 'inflections', UNITS_BY_CATEGORY),
  q('Units sold by category', 'inflections', UNITS_BY_CATEGORY),
  q('How many units did we sell in the Electronics category in 2024?', 'inflections', sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE p.category = 'Electronics' AND ${Y('o.order_date', 2024)}`)),
  // Selling products is not counting them: the verb belongs to order items, which this one does not name.
  q('How many products did we sell?', 'inflections', refuse('unmapped')),
  q('Which customers bought the most?', 'inflections', refuse('unmapped')),

  // Numbers written as words.
  q('Top five products by units sold', 'numbers', unitsByProduct(5)),
  q('Top ten products by units sold in 2025', 'numbers', unitsByProduct(10, 2025)),
  q('Top three customers by revenue', 'numbers', sql(`SELECT c.customer_id, c.name, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 3`)),
  q('Bottom two countries by revenue', 'numbers', sql(`SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 2`)),
  q('Which three categories had the highest revenue in 2025?', 'numbers', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`)),
  q('How many orders with a total amount over five hundred?', 'numbers', sql('SELECT COUNT(*) FROM orders WHERE total_amount > 500')),
  q('How many orders with a total amount under fifty?', 'numbers', sql('SELECT COUNT(*) FROM orders WHERE total_amount < 50')),

  // Phrasings of grouping and totals.
  q('Break down revenue by country', 'phrasing', REVENUE_BY_COUNTRY),
  q('Break revenue down by channel', 'phrasing', revenueBy('channel')),
  q('Break down the number of orders by status', 'phrasing', ordersBy('status')),
  q('Revenue split by channel', 'phrasing', revenueBy('channel')),
  q('Split revenue by product category', 'phrasing', REVENUE_BY_CATEGORY),
  q('Revenue for each channel', 'phrasing', revenueBy('channel')),
  q('Number of customers for each country', 'phrasing', customersBy('country')),
  q('How many orders in total?', 'phrasing', ORDERS),
  q('How many customers do we have in total?', 'phrasing', CUSTOMERS),
  q('What is our revenue in total?', 'phrasing', REVENUE),
  q('Units ordered in total in 2025', 'phrasing', unitsIn(2025)),

  // Periods as people write them; without a year, the latest that has begun (the clock stands on 2026-11-20).
  q('Revenue from January to March 2025', 'dates', revenueFrom('2025-01-01', '2025-04-01')),
  q('How many orders between April and June 2024?', 'dates', ordersFrom('2024-04-01', '2024-07-01')),
  q('How many orders from Janaury to Marhc 2025?', 'dates', ordersFrom('2025-01-01', '2025-04-01')),
  q('Revenue from November 2024 to February 2025', 'dates', revenueFrom('2024-11-01', '2025-03-01')),
  q('Revenue in H2 2024', 'dates', revenueFrom('2024-07-01', '2025-01-01')),
  q('Revenue in the first half of 2025', 'dates', revenueFrom('2025-01-01', '2025-07-01')),
  q('How many orders in the second half of 2023?', 'dates', ordersFrom('2023-07-01', '2024-01-01')),
  q('How many orders in Q1?', 'dates', ordersFrom('2026-01-01', '2026-04-01')),
  q('Revenue since June', 'dates', revenueFrom('2026-06-01')),
  q('How many customers signed up since March 2025?', 'dates', sql(`SELECT COUNT(*) FROM customers WHERE ${D('signup_date', '2025-03-01')}`)),
  q('Revenue in March', 'dates', revenueFrom('2026-03-01', '2026-04-01')),
  q('How many orders in the past ninety days?', 'dates', ordersFrom('2026-08-23', '2026-11-21')),
  q('Revenue last quarter', 'dates', revenueFrom('2026-07-01', '2026-10-01')),
  q('Revenue year to date', 'dates', revenueFrom('2026-01-01', '2026-11-21')),
  q('Revenue by channel from July to September 2025', 'dates', sql(`SELECT channel, SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${D('order_date', '2025-07-01', '2025-10-01')} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('How many orders in November?', 'dates', { noData: true }),
  q('Revenue from March to January 2025', 'dates', refuse('unmapped')),
  q('Revenue between 2024 and 2025', 'dates', refuse('unmapped')),
  q('Forecast revenue for the second half of 2027', 'dates', refuse('predictive')),

  // The cheapest and most expensive rows of a table, by their price.
  q('What are the three cheapest products?', 'superlatives', byPrice('ASC', 3)),
  q('The 2 cheapest products', 'superlatives', byPrice('ASC', 2)),
  q('Which product is the cheapest?', 'superlatives', byPrice('ASC', 1)),
  q('Which product is the most expensive?', 'superlatives', byPrice('DESC', 1)),
  q('Show me the five most expensive products', 'superlatives', byPrice('DESC', 5)),
  q('Most expensive product', 'superlatives', byPrice('DESC', 1)),
  // A category's price is not one number (its average? its dearest product?): not read.
  q('Which category is the most expensive?', 'superlatives', refuse('unmapped')),
  // Word order and more of the same families.
  q('How many customers have we got in total?', 'phrasing', CUSTOMERS),
  q('What was the revnue last month?', 'typos', revenueFrom('2026-10-01', '2026-11-01')),
  q('Revenue by product categroy in 2025', 'typos', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('How many orders by channle?', 'typos', ordersBy('channel')),
  q('Number of orders by chanel in 2024', 'typos', sql(`SELECT channel, COUNT(*) FROM orders WHERE ${Y('order_date', 2024)} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('Avrage order value in 2025', 'typos', sql(`SELECT AVG(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)}`)),
  q('How many custoemrs signed up in 2024?', 'typos', sql(`SELECT COUNT(*) FROM customers WHERE ${Y('signup_date', 2024)}`)),
  q('Break down units sold by category', 'phrasing', UNITS_BY_CATEGORY),
  q('Break down revenue by channel for 2025', 'phrasing', sql(`SELECT channel, SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('Revenue split by country in 2024', 'phrasing', sql(`SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2024)} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('Units sold for each category in 2025', 'phrasing', sql(`SELECT p.category, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) JOIN orders o USING (order_id) WHERE ${Y('o.order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('How many orders were placed in total in 2024?', 'phrasing', sql(`SELECT COUNT(*) FROM orders WHERE ${Y('order_date', 2024)}`)),
  q('Top four countries by revenue', 'numbers', sql(`SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 4`)),
  q('Bottom three categories by revenue', 'numbers', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 3`)),
  q('Top twenty products by units sold', 'numbers', unitsByProduct(20)),
  q('Which two channels brought the least revenue in 2024?', 'numbers', sql(`SELECT channel, SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2024)} GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 2`)),
  q('How many orders with a total amount over one thousand?', 'numbers', sql('SELECT COUNT(*) FROM orders WHERE total_amount > 1000')),
  q('The ten cheapest products', 'superlatives', byPrice('ASC', 10)),
  q('Revenue from February to April 2026', 'dates', revenueFrom('2026-02-01', '2026-05-01')),
  q('How many customers signed up in the first half of 2024?', 'dates', sql(`SELECT COUNT(*) FROM customers WHERE ${D('signup_date', '2024-01-01', '2024-07-01')}`)),
  q('Revenue by month from January to June 2025', 'dates', sql(`SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${D('order_date', '2025-01-01', '2025-07-01')} GROUP BY 1 ORDER BY 1`)),
  q('Revenue in Q3', 'dates', revenueFrom('2026-07-01', '2026-10-01')),
  q('How many orders since September?', 'dates', ordersFrom('2026-09-01')),
  q('Revenue in H1 2026', 'dates', revenueFrom('2026-01-01', '2026-07-01')),
  q('Which customers churned in 2025?', 'inflections', refuse('unmapped')),
  q('Why were sales so low in H2 2024?', 'dates', refuse('causal')),
  q('Predict revenue for the secnd half of 2027', 'typos', refuse('predictive')),
  // Units and scale: the text prints the numbers as asked and says so; the query and the table keep them raw.
  q('Revenue in 2025 in thousands', 'units', says(revenueIn(2025), (r) => `Revenue in 2025, in thousands of USD: ${scaled(1e3)(first(r))}.`)),
  q('What was revenue in 2025 in millions of dollars?', 'units', says(revenueIn(2025), (r) => `Revenue in 2025, in millions of USD: ${scaled(1e6)(first(r))}.`)),
  q('Total revenue in millions', 'units', says(REVENUE, (r) => `Revenue, in millions of USD: ${scaled(1e6)(first(r))}.`)),
  q('What is our revenue in US dollars?', 'units', says(REVENUE, (r) => `Revenue, in USD: ${usd(first(r))}.`)),
  q('Revenue by country in thousands', 'units', says(REVENUE_BY_COUNTRY, (r) => `Revenue by country, in thousands of USD:\n- ${String(r[0]![0])}: ${scaled(1e3)(r[0]![1])}`)),
  q('Revenue by channel in dollars', 'units', says(revenueBy('channel'), (r) => `Revenue by channel, in USD:\n- ${String(r[0]![0])}: ${usd(r[0]![1])}`)),
  q('How many orders in thousands?', 'units', says(ORDERS, (r) => `Number of orders, in thousands: ${scaled(1e3)(first(r))}.`)),
  q('Average order value in 2025 in dollars', 'units', says(sql(`SELECT AVG(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)}`), (r) => `in USD: ${usd(first(r))}.`)),
  q('Revenue last quarter in thousands of dollars', 'units', says(revenueFrom('2026-07-01', '2026-10-01'), (r) => `Revenue last quarter, in thousands of USD: ${scaled(1e3)(first(r))}.`)),
  q('Revenue by month in 2025 in thousands', 'units', says(sql(`SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 1`), (r) => `- ${month(r[0]![0])}: ${scaled(1e3)(r[0]![1])}`)),
  q('Units sold by category in thousands', 'units', says(UNITS_BY_CATEGORY, (r) => `in thousands:\n- ${String(r[0]![0])}: ${scaled(1e3)(r[0]![1])}`)),
  q('Revenue by channel as a percentage', 'units', says(revenueBy('channel'), (r) => `Revenue by channel, as a share of the total:\n- ${String(r[0]![0])}: ${share(r, 0)}\n- ${String(r[1]![0])}: ${share(r, 1)}`)),
  q('Number of customers per country as a percentage', 'units', says(customersBy('country'), (r) => `as a share of the total:\n- ${String(r[0]![0])}: ${share(r, 0)}`)),
  q('Revenue by product category as a share of the total', 'units', says(REVENUE_BY_CATEGORY, (r) => `- ${String(r[0]![0])}: ${share(r, 0)}`)),
  q('Units sold by category as a percentage', 'units', says(UNITS_BY_CATEGORY, (r) => `- ${String(r[0]![0])}: ${share(r, 0)}`)),
  q('Break down orders by status as a percentage', 'units', says(ordersBy('status'), (r) => `- ${String(r[0]![0])}: ${share(r, 0)}`)),
  q('Revenue by chanel in milions', 'units', says(revenueBy('channel'), (r) => `in millions of USD:\n- ${String(r[0]![0])}: ${scaled(1e6)(r[0]![1])}`)),
  // What cannot be honoured is refused: no exchange rates, no currency where none is documented, no share without groups.
  q('Revenue in euros', 'units', refuse('unmapped')),
  q('Revenue by country in pounds', 'units', refuse('unmapped')),
  q('What is the average unit price of products in dollars?', 'units', refuse('unmapped')),
  q('Revenue as a percentage', 'units', refuse('unmapped')),
  q('Average order value by channel as a percentage', 'units', refuse('unmapped')),
  q('Top 3 countries by revenue as a percentage', 'units', refuse('unmapped')),
  q('When was the earliest order in thousands?', 'units', refuse('unmapped')),

  // Labels: periods by their names, a ranking's one row by its name, amounts with their currency.
  q('Revenue by quarter in 2025', 'labels', says(sql(`SELECT date_trunc('quarter', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 1`), (r) => `- ${quarter(r[0]![0])}: ${usd(r[0]![1])}\n- ${quarter(r[1]![0])}: ${usd(r[1]![1])}`)),
  q('Monthly revenue in 2024', 'labels', says(sql(`SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2024)} GROUP BY 1 ORDER BY 1`), (r) => `- ${month(r[0]![0])}: ${usd(r[0]![1])}`)),
  q('Number of orders per quarter in 2024', 'labels', says(sql(`SELECT date_trunc('quarter', order_date), COUNT(*) FROM orders WHERE ${Y('order_date', 2024)} GROUP BY 1 ORDER BY 1`), (r) => `- ${quarter(r[3]![0])}: `)),
  q('Which segment has the most customers?', 'labels', says(sql('SELECT segment, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1'), (r) => `Segment with the most customers: ${String(first(r))} (${n(firstValue(r)).toLocaleString('en-US')}).`)),
  q('Which channel has the fewest orders?', 'labels', says(sql('SELECT channel, COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 1'), (r) => `Channel with the fewest orders: ${String(first(r))} (`)),
  q('Which category had the highest revenue in 2025?', 'labels', says(sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`), (r) => `Category with the highest revenue in 2025: ${String(first(r))} (${usd(firstValue(r))}).`)),
  q('What is the highest order value?', 'labels', says(sql('SELECT MAX(total_amount) FROM orders'), (r) => `: ${usd(first(r))}.`)),
  q('What is the lowest order value?', 'labels', says(sql('SELECT MIN(total_amount) FROM orders'), (r) => `: ${usd(first(r))}.`)),
  q('Maximum total amount of orders in 2025', 'labels', says(sql(`SELECT MAX(total_amount) FROM orders WHERE ${Y('order_date', 2025)}`), (r) => `: ${usd(first(r))}.`)),
  // Ordinals: one row of a ranking of groups, after the ones before it; nowhere else.
  q('Which country has the second most customers?', 'ordinals', says(sql('SELECT country, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1 OFFSET 1'), (r) => `Country with the second most customers: ${String(first(r))} (`)),
  q('Which segment has the 2nd most customers?', 'ordinals', sql('SELECT segment, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1 OFFSET 1')),
  q('Which channel brought the second highest revenue?', 'ordinals', says(sql(`SELECT channel, SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1 OFFSET 1`), (r) => `Channel with the second highest revenue: ${String(first(r))} (${usd(firstValue(r))}).`)),
  q('Which category had the third highest revenue in 2025?', 'ordinals', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1 OFFSET 2`)),
  q('Which product category has the second lowest revenue?', 'ordinals', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 1 OFFSET 1`)),
  q('Which country has the second fewest customers?', 'ordinals', sql('SELECT country, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 1 OFFSET 1')),
  q('Which city has the third most customers in Germany?', 'ordinals', sql("SELECT city, COUNT(*) FROM customers WHERE country = 'Germany' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1 OFFSET 2")),
  q('Which channel has the second most orders in 2024?', 'ordinals', sql(`SELECT channel, COUNT(*) FROM orders WHERE ${Y('order_date', 2024)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1 OFFSET 1`)),
  // Without groups to rank, an ordinal is not read as the first.
  q('What is the second highest order value?', 'ordinals', refuse('unmapped')),
  q('Second highest revenue', 'ordinals', refuse('unmapped')),
  q('Which countries have the second most customers?', 'ordinals', refuse('unmapped')),

  // More than, fewer than, at least, no more than N: filters on a measure column.
  q('How many orders with a total amount of more than 500?', 'comparisons', sql('SELECT COUNT(*) FROM orders WHERE total_amount > 500')),
  q('How many orders had a total amount greater than 1000?', 'comparisons', sql('SELECT COUNT(*) FROM orders WHERE total_amount > 1000')),
  q('How many orders with a total amount of no more than 100?', 'comparisons', sql('SELECT COUNT(*) FROM orders WHERE total_amount <= 100')),
  q('How many orders with a total amount of at least two hundred?', 'comparisons', sql('SELECT COUNT(*) FROM orders WHERE total_amount >= 200')),
  q('How many orders with a total amount exceeding 750 in 2025?', 'comparisons', sql(`SELECT COUNT(*) FROM orders WHERE total_amount > 750 AND ${Y('order_date', 2025)}`)),
  q('Number of orders by channel with a total amount above 500', 'comparisons', sql('SELECT channel, COUNT(*) FROM orders WHERE total_amount > 500 GROUP BY 1 ORDER BY 2 DESC, 1')),
  q('How many order items with a quantity of fewer than 3?', 'comparisons', sql('SELECT COUNT(*) FROM order_items WHERE quantity < 3')),
  q('How many order items have a quantity of more than five?', 'comparisons', sql('SELECT COUNT(*) FROM order_items WHERE quantity > 5')),
  // A condition on a group's count is not a filter on a column: refused, not read as one.
  q('How many customers with more than 5 orders?', 'comparisons', refuse('unmapped')),
  q('Countries with more than 100 customers', 'comparisons', refuse('unmapped')),
];
