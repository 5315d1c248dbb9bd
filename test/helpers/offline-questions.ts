// The offline model's question family: each question with a query written by hand that gives the
// expected result. Dates assume the test clock of 2026-01-15 ("last month" is December 2025).
// [question, expected SQL written by hand]
export const OFFLINE_QUESTIONS: [string, string][] = [
  ['How many orders are there?', 'SELECT COUNT(*) FROM orders'],
  ['How many customers do we have?', 'SELECT COUNT(*) FROM customers'],
  ['Number of products', 'SELECT COUNT(*) FROM products'],
  ['What is the total amount of all orders?', 'SELECT SUM(total_amount) FROM orders'],
  ['What is our total revenue?', 'SELECT SUM(total_amount) FROM orders'],
  ['What is the average order value?', 'SELECT ROUND(AVG(total_amount), 2) FROM orders'],
  ['What is the highest order value?', 'SELECT MAX(total_amount) FROM orders'],
  ['What is the lowest unit price of products?', 'SELECT MIN(unit_price) FROM products'],
  ['How many orders by status?', 'SELECT status, COUNT(*) c FROM orders GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['Number of customers per country', 'SELECT country, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['Total revenue by channel', 'SELECT channel, SUM(total_amount) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['Average order value by customer segment', 'SELECT c.segment, ROUND(AVG(o.total_amount), 2) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['How many orders were placed in 2024?', "SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2024-01-01' AND order_date < DATE '2025-01-01'"],
  ['Total revenue in 2025', "SELECT SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'"],
  ['How many orders last month?', "SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-12-01' AND order_date < DATE '2026-01-01'"],
  // Greetings and thanks ask for nothing.
  ['Hi, how many orders last month? Thank you!', "SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-12-01' AND order_date < DATE '2026-01-01'"],
  ['What is the revenue this year?', "SELECT SUM(total_amount) FROM orders WHERE order_date >= DATE '2026-01-01'"],
  ['How many completed orders are there?', "SELECT COUNT(*) FROM orders WHERE status = 'completed'"],
  ['How many orders were cancelled?', "SELECT COUNT(*) FROM orders WHERE status = 'cancelled'"],
  ['How many orders come from customers in Germany?', "SELECT COUNT(*) FROM orders o JOIN customers c USING (customer_id) WHERE c.country = 'Germany'"],
  ['Total revenue in Germany in 2025', "SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE c.country = 'Germany' AND o.order_date >= DATE '2025-01-01' AND o.order_date < DATE '2026-01-01'"],
  // Rows of a table are grouped by their key and shown by name: two customers of the same name stay apart.
  ['Top 3 customers by revenue', 'SELECT c.customer_id, c.name, SUM(o.total_amount) v FROM orders o JOIN customers c USING (customer_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 3'],
  // "Best selling" ranks the rows of a table by the units the knowledge documents.
  ['What is the best selling product?', 'SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 1'],
  ['Top 2 best-selling products', 'SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 2'],
  ['Top 2 selling products', 'SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 2'],
  // And the other end; "bottom 2" is a ranking, never a typo of "bottom" that would drop the number.
  ['Bottom 2 selling products', 'SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 ASC, 1, 2 LIMIT 2'],
  ['What is the least popular product?', 'SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 ASC, 1, 2 LIMIT 1'],
  ['The worst selling products', 'SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 ASC, 1, 2 LIMIT 10'],
  // "The share of ... by ...": the groups' values, the text in shares of the total.
  ['Share of orders by channel', 'SELECT channel, COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['Top 2 products by quantity sold', 'SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 2'],
  ['Which country has the most customers?', 'SELECT country, COUNT(*) FROM customers GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1'],
  ['Which sales channel has the highest total revenue?', 'SELECT channel, SUM(total_amount) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1'],
  ['Monthly revenue in 2025', "SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  ['Number of orders per year', "SELECT date_trunc('year', order_date), COUNT(*) FROM orders GROUP BY 1 ORDER BY 1"],
  ['What is the average discount of order items?', 'SELECT ROUND(AVG(discount), 2) FROM order_items'],
  // The day of the week, by name and in the week's order (DuckDB's own dayname and isodow here).
  ['Orders by weekday', 'SELECT dayname(order_date), COUNT(*) FROM orders GROUP BY 1 ORDER BY MIN(isodow(order_date))'],
  ['Total revenue by day of the week in 2025', "SELECT dayname(order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY MIN(isodow(order_date))"],
  ['Which day of the week has the most orders?', 'SELECT dayname(order_date), COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, MIN(isodow(order_date)) LIMIT 1'],
  // The first rows of each group, numbered by the measure within it ("top N per group").
  ['Top 2 customers by total amount in each country', 'SELECT customer_id, name, country, v, r FROM (SELECT c.customer_id, c.name, c.country, SUM(o.total_amount) v, row_number() OVER (PARTITION BY c.country ORDER BY SUM(o.total_amount) DESC, c.customer_id, c.name) r FROM orders o JOIN customers c USING (customer_id) GROUP BY 1, 2, 3) WHERE r <= 2 ORDER BY country, r'],
  ['What is the cheapest product in each category?', 'SELECT product_id, name, category, unit_price, r FROM (SELECT product_id, name, category, unit_price, row_number() OVER (PARTITION BY category ORDER BY unit_price, product_id, name) r FROM products) WHERE r <= 1 ORDER BY category, r'],
  ['Top 2 products per country by quantity sold', 'SELECT product_id, name, country, q, r FROM (SELECT p.product_id, p.name, c.country, SUM(i.quantity) q, row_number() OVER (PARTITION BY c.country ORDER BY SUM(i.quantity) DESC, p.product_id, p.name) r FROM order_items i JOIN products p USING (product_id) JOIN orders o USING (order_id) JOIN customers c USING (customer_id) GROUP BY 1, 2, 3) WHERE r <= 2 ORDER BY country, r'],
  // A median, as PostgreSQL and DuckDB both write it; here against DuckDB's own MEDIAN.
  ['What is the median order value?', 'SELECT MEDIAN(total_amount) FROM orders'],
  ['Median unit price of products by category', 'SELECT category, MEDIAN(unit_price) FROM products GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['Total quantity of order items by product category', 'SELECT p.category, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['How many shipped or returned orders in 2025?', "SELECT COUNT(*) FROM orders WHERE status IN ('shipped', 'returned') AND order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'"],
  ['Total revenue by country', 'SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['How many customers signed up in 2024?', "SELECT COUNT(*) FROM customers WHERE signup_date >= DATE '2024-01-01' AND signup_date < DATE '2025-01-01'"],
  ['Bottom 2 countries by number of orders', 'SELECT c.country, COUNT(*) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 2'],
  ['How many orders with a total amount over 500?', 'SELECT COUNT(*) FROM orders WHERE total_amount > 500'],
  // A column and a period grouped by, joined by "and" in either order.
  ['Revenue by month and country', "SELECT c.country, date_trunc('month', o.order_date), SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1, 2 ORDER BY 1, 2"],
  ['Orders by channel and quarter in 2025', "SELECT channel, date_trunc('quarter', order_date), COUNT(*) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1, 2 ORDER BY 1, 2"],
  ['Revenue by quarter in 2025', "SELECT date_trunc('quarter', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  // Two neighbouring periods compared: one row for each (the clock stands in January 2026).
  ['Revenue in 2025 compared to 2024', "SELECT date_trunc('year', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2024-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  ['How many orders this year vs last year?', "SELECT date_trunc('year', order_date), COUNT(*) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2027-01-01' GROUP BY 1 ORDER BY 1"],
  ['Revenue in Q1 2025 versus Q2 2025 by channel', "SELECT channel, date_trunc('quarter', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2025-07-01' GROUP BY 1, 2 ORDER BY 1, 2"],
  ['Average quantity of order items in the Electronics category', "SELECT ROUND(AVG(i.quantity), 2) FROM order_items i JOIN products p USING (product_id) WHERE p.category = 'Electronics'"],
  ['How many orders were placed on the web channel in Q3 2024?', "SELECT COUNT(*) FROM orders WHERE channel = 'web' AND order_date >= DATE '2024-07-01' AND order_date < DATE '2024-10-01'"],
  ['Maximum unit price by product category', 'SELECT category, MAX(unit_price) FROM products GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['How many customers in the corporate segment per country?', "SELECT country, COUNT(*) FROM customers WHERE segment = 'corporate' GROUP BY 1 ORDER BY 2 DESC, 1"],
  // Grouped by the unit it counts back in, "the last N months" is N whole months before this one.
  ['Monthly revenue in the last 3 months', "SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-10-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  ['Revenue by quarter in the last 4 quarters', "SELECT date_trunc('quarter', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  // Grouped by months or quarters, a year or a quarter counted back is as many whole months or quarters.
  ['Monthly revenue over the past year', "SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  ['Revenue by quarter in the last 2 years', "SELECT date_trunc('quarter', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2024-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  // "The past year" is the year counted back from today; "last year" the calendar year before.
  ['How many orders in the past year?', "SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-01-16' AND order_date < DATE '2026-01-16'"],
  ['Revenue over the last quarter', "SELECT SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-10-01' AND order_date < DATE '2026-01-01'"],
  ['Revenue for each of the last 2 months', "SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-11-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  ['Number of orders every quarter in 2025', "SELECT date_trunc('quarter', order_date), COUNT(*) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  ['How many orders before 2025?', "SELECT COUNT(*) FROM orders WHERE order_date < DATE '2025-01-01'"],
  ['Total revenue after June 2025', "SELECT SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-07-01'"],
  ['How many customers signed up until March 2024?', "SELECT COUNT(*) FROM customers WHERE signup_date < DATE '2024-04-01'"],
  ['How many orders in the last 3 months?', "SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-10-16' AND order_date < DATE '2026-01-16'"],
  // "New" rows are counted by the one date they were created on.
  ['How many new customers in 2024?', "SELECT COUNT(*) FROM customers WHERE signup_date >= DATE '2024-01-01' AND signup_date < DATE '2025-01-01'"],
  ['How many customers did we acquire in 2024?', "SELECT COUNT(*) FROM customers WHERE signup_date >= DATE '2024-01-01' AND signup_date < DATE '2025-01-01'"],
  ['Customers we gained in 2024', "SELECT COUNT(*) FROM customers WHERE signup_date >= DATE '2024-01-01' AND signup_date < DATE '2025-01-01'"],
  ['New customers last year', "SELECT COUNT(*) FROM customers WHERE signup_date >= DATE '2025-01-01' AND signup_date < DATE '2026-01-01'"],
  ['New customers by month in 2025', "SELECT date_trunc('month', signup_date), COUNT(*) FROM customers WHERE signup_date >= DATE '2025-01-01' AND signup_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  // A date's own word in the plural counts the rows it dates ("signup" names customers.signup_date).
  ['Signups last month', "SELECT COUNT(*) FROM customers WHERE signup_date >= DATE '2025-12-01' AND signup_date < DATE '2026-01-01'"],
  ['New signups by month in 2025', "SELECT date_trunc('month', signup_date), COUNT(*) FROM customers WHERE signup_date >= DATE '2025-01-01' AND signup_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 1"],
  ['Signups in 2025 by country', "SELECT country, COUNT(*) FROM customers WHERE signup_date >= DATE '2025-01-01' AND signup_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 2 DESC, 1"],
  // Two listed values compared: a row for each.
  ['Revenue in Germany vs France', "SELECT c.country, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE c.country IN ('Germany', 'France') GROUP BY 1 ORDER BY 2 DESC, 1"],
  ['Compare orders web versus mobile', "SELECT channel, COUNT(*) FROM orders WHERE channel IN ('web', 'mobile') GROUP BY 1 ORDER BY 2 DESC, 1"],
  ['What is the revenue split between web and mobile?', "SELECT channel, SUM(total_amount) FROM orders WHERE channel IN ('web', 'mobile') GROUP BY 1 ORDER BY 2 DESC, 1"],
  // Periods ranked by the measure: "which month", "the best month", "top 3 months".
  ['Which month had the highest revenue in 2025?', "SELECT date_trunc('month', order_date), SUM(total_amount) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1"],
  ['Top 3 months by number of orders', "SELECT date_trunc('month', order_date), COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 3"],
  ['What was the worst quarter for orders?', "SELECT date_trunc('quarter', order_date), COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 1"],
  ['Most popular product', 'SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 1'],
  // Rows of a table count once each already: "unique" adds nothing.
  ['How many unique customers ordered in 2025?', "SELECT COUNT(DISTINCT customer_id) FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'"],
  // Values left out: "not", "excluding", "non-", "except those in"; rows without a value stay in.
  ['How many orders were not cancelled?', "SELECT COUNT(*) FROM orders WHERE status IS DISTINCT FROM 'cancelled'"],
  ['Total revenue excluding the web channel', "SELECT SUM(total_amount) FROM orders WHERE channel IS DISTINCT FROM 'web'"],
  ['Number of non-corporate customers', "SELECT COUNT(*) FROM customers WHERE segment IS DISTINCT FROM 'corporate'"],
  // The earliest date of each group ranks them from the first ("which ... first": the one).
  // "The top customer" is one; "the top customers" a handful.
  ['Top customer by total amount', 'SELECT c.customer_id, c.name, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 1'],
  ['Top customers by total amount', 'SELECT c.customer_id, c.name, SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 10'],
  ['Which country had the first customer?', 'SELECT country, MIN(signup_date) FROM customers GROUP BY 1 ORDER BY 2 ASC, 1 LIMIT 1'],
  ['Earliest signup date by country', 'SELECT country, MIN(signup_date) FROM customers GROUP BY 1 ORDER BY 2 ASC, 1'],
  // A listed value names its rows in the plural too.
  ['Total order value from consumers', "SELECT SUM(o.total_amount) FROM orders o JOIN customers c USING (customer_id) WHERE c.segment = 'consumer'"],
  ['How many customers are outside Germany?', "SELECT COUNT(*) FROM customers WHERE country IS NULL OR country NOT IN ('Germany')"],
  ['Number of customers not in Germany or France by country', "SELECT country, COUNT(*) FROM customers WHERE country IS NULL OR country NOT IN ('Germany', 'France') GROUP BY 1 ORDER BY 2 DESC, 1"],
  // Amounts as people write them, after a measure column or a table with only one.
  ['How many orders over $1,000?', 'SELECT COUNT(*) FROM orders WHERE total_amount > 1000'],
  ['How many orders above 0.5k in 2025?', "SELECT COUNT(*) FROM orders WHERE total_amount > 500 AND order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'"],
  ['Orders between 100 and 2000 by channel', 'SELECT channel, COUNT(*) FROM orders WHERE total_amount BETWEEN 100 AND 2000 GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['Number of products with a unit price between 20 and 100', 'SELECT COUNT(*) FROM products WHERE unit_price BETWEEN 20 AND 100'],
  // Days and ranges of days.
  ['How many orders on 2025-06-18?', "SELECT COUNT(*) FROM orders WHERE order_date = DATE '2025-06-18'"],
  ['Total revenue from January 1 to March 31 2025', "SELECT SUM(total_amount) FROM orders WHERE order_date BETWEEN DATE '2025-01-01' AND DATE '2025-03-31'"],
  ['How many orders in the second quarter of 2025?', "SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-04-01' AND order_date < DATE '2025-07-01'"],
  // "Top" without a number: a handful, ten.
  ['Top products by quantity sold', 'SELECT p.product_id, p.name, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 10'],
  // "Best selling" ranks a column's values too.
  ['What is the best selling category?', 'SELECT p.category, SUM(i.quantity) FROM order_items i JOIN products p USING (product_id) GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1'],
  // Rows of a table: its documented columns, newest first by its one date, then by its key.
  ['List customers in Germany', "SELECT customer_id, name, email, country, city, segment, signup_date FROM customers WHERE country = 'Germany' ORDER BY signup_date DESC, customer_id DESC"],
  ['Show me the 5 most recent orders', 'SELECT order_id, customer_id, order_date, status, channel, total_amount FROM orders ORDER BY order_date DESC, order_id DESC LIMIT 5'],
  ['Latest orders', 'SELECT order_id, customer_id, order_date, status, channel, total_amount FROM orders ORDER BY order_date DESC, order_id DESC LIMIT 10'],
  ['The 3 earliest customers', 'SELECT customer_id, name, email, country, city, segment, signup_date FROM customers ORDER BY signup_date, customer_id LIMIT 3'],
  ['Show cancelled orders in 2025', "SELECT order_id, customer_id, order_date, status, channel, total_amount FROM orders WHERE status = 'cancelled' AND order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' ORDER BY order_date DESC, order_id DESC"],
  ['List orders from customers in France', "SELECT o.order_id, o.customer_id, o.order_date, o.status, o.channel, o.total_amount FROM orders o JOIN customers c USING (customer_id) WHERE c.country = 'France' ORDER BY o.order_date DESC, o.order_id DESC"],
  ['Show orders with a total amount over 1000', 'SELECT order_id, customer_id, order_date, status, channel, total_amount FROM orders WHERE total_amount > 1000 ORDER BY order_date DESC, order_id DESC'],
  ['List 5 orders', 'SELECT order_id, customer_id, order_date, status, channel, total_amount FROM orders ORDER BY order_date DESC, order_id DESC LIMIT 5'],
  // A verb that asks to see things over a ranking: the ranking's number stays its own.
  ['List the top 3 customers by revenue', 'SELECT c.customer_id, c.name, SUM(o.total_amount) v FROM orders o JOIN customers c USING (customer_id) GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 3'],
  // "The largest order": by the table's only measure column, then newest first.
  ['What was the largest order?', 'SELECT order_id, customer_id, order_date, status, channel, total_amount FROM orders ORDER BY total_amount DESC, order_date DESC, order_id DESC LIMIT 1'],
  ['The 3 smallest orders in 2025', "SELECT order_id, customer_id, order_date, status, channel, total_amount FROM orders WHERE order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' ORDER BY total_amount, order_date DESC, order_id DESC LIMIT 3"],
  // The values of a column people group by, each with its table's rows counted.
  ['List the categories', 'SELECT category, COUNT(*) FROM products GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['What are the sales channels?', 'SELECT channel, COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1'],
  ['What are the statuses?', 'SELECT status, COUNT(*) FROM orders GROUP BY 1 ORDER BY 2 DESC, 1'],
  // A contact detail is its row's own: its rows are listed with it, not counted by it.
  ['List customer emails', 'SELECT customer_id, name, email, country, city, segment, signup_date FROM customers ORDER BY signup_date DESC, customer_id DESC'],
  // A table without a date lists by its key.
  ['List products in the Books category', "SELECT product_id, name, category, subcategory, unit_price, cost FROM products WHERE category = 'Books' ORDER BY product_id"],
  // "Which customers ..." asks for the customers themselves, where nothing ranks or measures them.
  ['Which customers are in Germany?', "SELECT customer_id, name, email, country, city, segment, signup_date FROM customers WHERE country = 'Germany' ORDER BY signup_date DESC, customer_id DESC"],
  // "customers signed up" is the customers' signup date to the knowledge: its rows are still the customers'.
  ['Which customers signed up in 2025?', "SELECT customer_id, name, email, country, city, segment, signup_date FROM customers WHERE signup_date >= DATE '2025-01-01' AND signup_date < DATE '2026-01-01' ORDER BY signup_date DESC, customer_id DESC"],
  ['Customers signed up in 2025', "SELECT COUNT(*) FROM customers WHERE signup_date >= DATE '2025-01-01' AND signup_date < DATE '2026-01-01'"],
  ['Which orders were cancelled in 2025?', "SELECT order_id, customer_id, order_date, status, channel, total_amount FROM orders WHERE status = 'cancelled' AND order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01' ORDER BY order_date DESC, order_id DESC"],
  // A table narrowed by values, an amount or a period, without a measure, is counted, as "orders by channel" is.
  ['Orders last month', "SELECT COUNT(*) FROM orders WHERE order_date >= DATE '2025-12-01' AND order_date < DATE '2026-01-01'"],
  ['Customers in Germany', "SELECT COUNT(*) FROM customers WHERE country = 'Germany'"],
  ['Cancelled orders in 2025', "SELECT COUNT(*) FROM orders WHERE status = 'cancelled' AND order_date >= DATE '2025-01-01' AND order_date < DATE '2026-01-01'"],
  ['Web orders over 500', "SELECT COUNT(*) FROM orders WHERE channel = 'web' AND total_amount > 500"],
  // The verbs of buying name the table of purchases: customers with an order of such a product, counted once each.
  ['How many customers bought Electronics?', "SELECT COUNT(*) FROM customers c WHERE EXISTS (SELECT 1 FROM orders o JOIN order_items i USING (order_id) JOIN products p USING (product_id) WHERE o.customer_id = c.customer_id AND p.category = 'Electronics')"],
  // The period dates the buying, not the customer's signup.
  // Listed, each customer once: the join to their order lines would repeat them.
  ['Which customers bought Electronics in 2025?', "SELECT customer_id, name, email, country, city, segment, signup_date FROM customers c WHERE EXISTS (SELECT 1 FROM orders o JOIN order_items i USING (order_id) JOIN products p USING (product_id) WHERE o.customer_id = c.customer_id AND p.category = 'Electronics' AND o.order_date >= DATE '2025-01-01' AND o.order_date < DATE '2026-01-01') ORDER BY signup_date DESC, customer_id DESC"],
  ['How many customers purchased Toys in 2025?', "SELECT COUNT(*) FROM customers c WHERE EXISTS (SELECT 1 FROM orders o JOIN order_items i USING (order_id) JOIN products p USING (product_id) WHERE o.customer_id = c.customer_id AND p.category = 'Toys' AND o.order_date >= DATE '2025-01-01' AND o.order_date < DATE '2026-01-01')"],
];
