// The team's question set for the offline model on the demo organization (fixtures knowledge, demo
// warehouse), written as analysts ask, before the planner was tuned. Each answerable question carries
// the DuckDB query that gives its expected result; the test computes that result from the same
// warehouse, so no number is typed in here. The clock stands on 2026-11-20 (data ends 2026-10-31):
// "last month" is October 2026, "this month" has no data yet, 2027 is the future.
//
// Questions that share a `chat` are asked in order in one chat (follow-ups). A standalone entry with
// `sql` is a ready evaluation question (evaluations/<id>.yaml: question, expected_sql).

export const DEMO_QUESTIONS_NOW = Date.UTC(2026, 10, 20, 12);

/** The body of POST /api/agentic_with_history, as these tests read it. */
export interface AgentAnswer {
  status: string;
  content: string;
  tables: { rows: unknown[][] }[];
  sql: { sql: string }[];
}

export type QuestionClass = 'definitions' | 'out_of_family' | 'grouping' | 'follow_up' | 'vocabulary' | 'basics'
  // The paraphrase families (test/helpers/demo-paraphrases.ts).
  | 'typos' | 'inflections' | 'numbers' | 'phrasing' | 'superlatives' | 'dates' | 'units' | 'labels' | 'ordinals' | 'comparisons';

export type Expected =
  /** `says`: what the answer text must contain, from the expected rows (numbers in the units asked). */
  | { sql: string; says?: (rows: unknown[][]) => string }
  /** The answer says there is no data for the period, and the coverage. */
  | { noData: true }
  /** Outside the family: refused, saying what the model can answer. */
  | { refuse: 'causal' | 'predictive' | 'unmapped' };

export interface DemoQuestion {
  question: string;
  class: QuestionClass;
  expected: Expected;
  chat?: string;
}

const REVENUE_ORDERS = "status IN ('completed', 'shipped')";
const Y = (col: string, year: number) => `${col} >= DATE '${year}-01-01' AND ${col} < DATE '${year + 1}-01-01'`;
const LINE_REVENUE = 'SUM(i.quantity * i.unit_price * (1 - i.discount))';

const q = (question: string, cls: QuestionClass, expected: Expected, chat?: string): DemoQuestion => ({ question, class: cls, expected, ...(chat ? { chat } : {}) });
const sql = (s: string): Expected => ({ sql: s });
const NO_DATA: Expected = { noData: true };
const refuse = (why: 'causal' | 'predictive' | 'unmapped'): Expected => ({ refuse: why });

export const DEMO_QUESTIONS: DemoQuestion[] = [
  // Business definitions in the knowledge: metrics and the data coverage.
  q('What is our total revenue?', 'definitions', sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS}`)),
  q('What was revenue in 2025?', 'definitions', sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)}`)),
  q('How much revenue did we make last month?', 'definitions', sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND order_date >= DATE '2026-10-01' AND order_date < DATE '2026-11-01'`)),
  q('Revenue by country in 2025', 'definitions', sql(`SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('What is the average order value?', 'definitions', sql(`SELECT AVG(total_amount) FROM orders WHERE ${REVENUE_ORDERS}`)),
  q('Average order value by channel', 'definitions', sql(`SELECT channel, AVG(total_amount) FROM orders WHERE ${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('How many orders did we get in 2024?', 'definitions', sql(`SELECT COUNT(*) FROM orders WHERE ${Y('order_date', 2024)}`)),
  q('Revenue by product category', 'definitions', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('Monthly revenue in 2025', 'definitions', sql(`SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 1`)),
  q('What was revenue this month?', 'definitions', NO_DATA),
  q('How many orders did we receive in November 2026?', 'definitions', NO_DATA),
  q('How many orders were placed in 2021?', 'definitions', NO_DATA),
  q('What is the revenue this year?', 'definitions', sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2026)}`)),
  q('Revenue by quarter in 2026', 'definitions', sql(`SELECT date_trunc('quarter', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2026)} GROUP BY 1 ORDER BY 1`)),
  q('What was the average order value in Q2 2025?', 'definitions', sql(`SELECT AVG(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND order_date >= DATE '2025-04-01' AND order_date < DATE '2025-07-01'`)),

  // Outside the family: causes, the future, and what the knowledge does not define.
  q('Why did revenue drop in March 2025?', 'out_of_family', refuse('causal')),
  q('What caused the spike in orders in December 2025?', 'out_of_family', refuse('causal')),
  q('Forecast revenue for next quarter', 'out_of_family', refuse('predictive')),
  q('Will we have more than 10,000 orders in 2027?', 'out_of_family', refuse('predictive')),
  q('How many orders will we get next month?', 'out_of_family', refuse('predictive')),
  q('What will revenue be in 2027?', 'out_of_family', refuse('predictive')),
  q('Revenue next quarter', 'out_of_family', refuse('predictive')),
  q('Predict units sold next year', 'out_of_family', refuse('predictive')),
  q('Which customers are likely to churn?', 'out_of_family', refuse('predictive')),
  q('Revenue in Q1 2027', 'out_of_family', refuse('predictive')),
  q('What is our profit margin by category?', 'out_of_family', refuse('unmapped')),
  q('How did revenue grow compared to last year?', 'out_of_family', refuse('unmapped')),
  q('What share of revenue comes from the web channel?', 'out_of_family', refuse('unmapped')),
  q('What is the median order value?', 'out_of_family', refuse('unmapped')),
  q('Write me a poem about the sea', 'out_of_family', refuse('unmapped')),
  q('Delete all cancelled orders', 'out_of_family', refuse('unmapped')),
  q('What is the revenue per customer in 2025?', 'out_of_family', refuse('unmapped')),
  q('Revenue between 2024 and 2025', 'out_of_family', refuse('unmapped')),

  // Grouping and measures.
  q('Which 3 categories had the highest revenue in 2025?', 'grouping', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`)),
  q('Which product category has the lowest revenue?', 'grouping', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 1`)),
  q('How many units were ordered in 2025?', 'grouping', sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) WHERE ${Y('o.order_date', 2025)}`)),
  q('Units ordered by category', 'grouping', sql('SELECT p.category, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1 ORDER BY 2 DESC, 1')),
  q('Top 5 products by units sold', 'grouping', sql('SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 5')),
  q('Which channel has the most orders?', 'grouping', sql('SELECT channel, COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1')),
  q('Which country has the most customers?', 'grouping', sql('SELECT country, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1')),
  q('Average unit price of products by category', 'grouping', sql('SELECT category, AVG(unit_price) FROM products GROUP BY 1 ORDER BY 2 DESC, 1')),
  q('Which segment has the highest average order value?', 'grouping', sql(`SELECT c.segment, AVG(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`)),
  q('Bottom 3 countries by revenue', 'grouping', sql(`SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 3`)),
  q('Number of customers per segment', 'grouping', sql('SELECT segment, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1')),
  q('Which 2 channels brought the least revenue in 2024?', 'grouping', sql(`SELECT channel, SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2024)} GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 2`)),
  q('Top 3 customers by revenue', 'grouping', sql(`SELECT c.customer_id, c.name, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 3`)),
  q('Which city has the most customers in Germany?', 'grouping', sql("SELECT city, COUNT(*) FROM customers WHERE country = 'Germany' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1")),

  // Follow-ups: each chat's questions in order.
  q('What was revenue in Germany in 2025?', 'follow_up', sql(`SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND c.country = 'Germany' AND ${Y('o.order_date', 2025)}`), 'a'),
  q('And in France?', 'follow_up', sql(`SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND c.country = 'France' AND ${Y('o.order_date', 2025)}`), 'a'),
  q('How many orders did we get in 2023?', 'follow_up', sql(`SELECT COUNT(*) FROM orders WHERE ${Y('order_date', 2023)}`), 'b'),
  q('What about 2024?', 'follow_up', sql(`SELECT COUNT(*) FROM orders WHERE ${Y('order_date', 2024)}`), 'b'),
  q('Revenue by channel in 2025', 'follow_up', sql(`SELECT channel, SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1`), 'c'),
  q('and by country?', 'follow_up', sql(`SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2025)} GROUP BY 1 ORDER BY 2 DESC, 1`), 'c'),
  q('How many units were ordered in 2024?', 'follow_up', sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) WHERE ${Y('o.order_date', 2024)}`), 'd'),
  q('And for the Electronics category?', 'follow_up', sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE p.category = 'Electronics' AND ${Y('o.order_date', 2024)}`), 'd'),
  q('Average order value in 2025', 'follow_up', sql(`SELECT AVG(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)}`), 'e'),
  q('and for corporate customers?', 'follow_up', sql(`SELECT AVG(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND c.segment = 'corporate' AND ${Y('o.order_date', 2025)}`), 'e'),
  q('Which 3 categories had the highest revenue in 2024?', 'follow_up', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2024)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`), 'f'),
  q('and in 2023?', 'follow_up', sql(`SELECT p.category, ${LINE_REVENUE} FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE o.${REVENUE_ORDERS} AND ${Y('o.order_date', 2023)} GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3`), 'f'),
  q('How many customers are in Japan?', 'follow_up', sql("SELECT COUNT(*) FROM customers WHERE country = 'Japan'"), 'g'),
  q('and in Brazil?', 'follow_up', sql("SELECT COUNT(*) FROM customers WHERE country = 'Brazil'"), 'g'),
  q('What about Canada?', 'follow_up', sql("SELECT COUNT(*) FROM customers WHERE country = 'Canada'"), 'g'),
  // Added after the first run, from probing the planner with questions of a second analyst.
  q('Revenue in 2025', 'follow_up', sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)}`), 'h'),
  q('and the units?', 'follow_up', sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) WHERE ${Y('o.order_date', 2025)}`), 'h'),
  q('And how many customers do we have?', 'follow_up', sql('SELECT COUNT(*) FROM customers'), 'h'),
  q('Revenue by month in 2025', 'follow_up', sql(`SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 1`), 'i'),
  q('and only on the web channel?', 'follow_up', sql(`SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND channel = 'web' AND ${Y('order_date', 2025)} GROUP BY 1 ORDER BY 1`), 'i'),

  // Vocabulary: words the tables do not use, dates in joined tables, first and last dates.
  q('Total sales in 2025', 'vocabulary', sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2025)}`)),
  q('Sales by channel', 'vocabulary', sql(`SELECT channel, SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} GROUP BY 1 ORDER BY 2 DESC, 1`)),
  q('What were sales last month?', 'vocabulary', sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND order_date >= DATE '2026-10-01' AND order_date < DATE '2026-11-01'`)),
  q('Turnover in 2024', 'vocabulary', sql(`SELECT SUM(total_amount) FROM orders WHERE ${REVENUE_ORDERS} AND ${Y('order_date', 2024)}`)),
  q('Units ordered in Q3 2025', 'vocabulary', sql("SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) WHERE o.order_date >= DATE '2025-07-01' AND o.order_date < DATE '2025-10-01'")),
  q('What is the average discount of order items in 2025?', 'vocabulary', sql(`SELECT AVG(i.discount) FROM order_items i JOIN orders o USING (order_id) WHERE ${Y('o.order_date', 2025)}`)),
  q('Units sold in the Electronics category in 2024', 'vocabulary', sql(`SELECT SUM(i.quantity) FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id) WHERE p.category = 'Electronics' AND ${Y('o.order_date', 2024)}`)),
  q('When was the earliest order?', 'vocabulary', sql('SELECT MIN(order_date) FROM orders')),
  q('What is the latest order date?', 'vocabulary', sql('SELECT MAX(order_date) FROM orders')),
  q('When did the first customer sign up?', 'vocabulary', sql('SELECT MIN(signup_date) FROM customers')),
  q('When was the most recent order placed in France?', 'vocabulary', sql("SELECT MAX(o.order_date) FROM orders o JOIN customers c USING (customer_id) WHERE c.country = 'France'")),
  q('How many orders were placed through the mobile channel?', 'vocabulary', sql("SELECT COUNT(*) FROM orders WHERE channel = 'mobile'")),
  q('How many customers in Germany ordered in 2025?', 'vocabulary', sql(`SELECT COUNT(DISTINCT c.customer_id) FROM customers c JOIN orders o USING (customer_id) WHERE c.country = 'Germany' AND ${Y('o.order_date', 2025)}`)),
  q('Revenue from corporate customers in 2025', 'vocabulary', sql(`SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE o.${REVENUE_ORDERS} AND c.segment = 'corporate' AND ${Y('o.order_date', 2025)}`)),

  // The family the offline model always answered.
  q('How many customers do we have?', 'basics', sql('SELECT COUNT(*) FROM customers')),
  q('How many products are there?', 'basics', sql('SELECT COUNT(*) FROM products')),
  q('How many orders were cancelled in 2025?', 'basics', sql(`SELECT COUNT(*) FROM orders WHERE status = 'cancelled' AND ${Y('order_date', 2025)}`)),
  q('How many customers signed up in 2024?', 'basics', sql(`SELECT COUNT(*) FROM customers WHERE ${Y('signup_date', 2024)}`)),
  q('Number of customers per country', 'basics', sql('SELECT country, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1')),
  q('How many orders by status?', 'basics', sql('SELECT status, COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1')),
  q('What is the highest order value?', 'basics', sql('SELECT MAX(total_amount) FROM orders')),
  q('What is the average unit price of products?', 'basics', sql('SELECT AVG(unit_price) FROM products')),
  q('How many orders with a total amount over 500?', 'basics', sql('SELECT COUNT(*) FROM orders WHERE total_amount > 500')),
  q('Number of orders per year', 'basics', sql("SELECT date_trunc('year', order_date), COUNT(*) FROM orders GROUP BY 1 ORDER BY 1")),
];
