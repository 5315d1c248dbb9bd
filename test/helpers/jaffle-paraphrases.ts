// Paraphrases on the jaffle shop (fixtures/dbt/jaffle_shop, imported from dbt): a warehouse the
// offline model was not written for, with its own tables, metrics and words (locations, food and
// drink orders). Each question carries the SQL of its expected rows over the warehouse that
// test/helpers/jaffle-warehouse.ts builds (400 orders in 2024); `null` marks one that must be refused.
// [family, question, expected SQL or null]
export const JAFFLE_PARAPHRASES: [string, string, string | null][] = [
  ['typos', 'What is the total revnue?', 'SELECT SUM(product_price) FROM main.order_items'],
  ['typos', 'How many ordres are there?', 'SELECT COUNT(*) FROM main.orders'],
  ['typos', 'How many custmers do we have?', 'SELECT COUNT(*) FROM main.customers'],
  ['typos', 'How many prodcuts are there?', 'SELECT COUNT(*) FROM main.products'],
  ['typos', 'How many locatoins are there?', 'SELECT COUNT(*) FROM main.locations'],
  ['typos', 'What was the revenue in Marhc 2024?', "SELECT SUM(product_price) FROM main.order_items WHERE ordered_at >= DATE '2024-03-01' AND ordered_at < DATE '2024-04-01'"],
  ['typos', 'How many ordres were placed in June 2024?', "SELECT COUNT(*) FROM main.orders WHERE ordered_at >= DATE '2024-06-01' AND ordered_at < DATE '2024-07-01'"],
  ['phrasing', 'Break down revenue by location', 'SELECT l.location_id, l.location_name, SUM(oi.product_price) FROM main.order_items oi JOIN main.orders o ON o.order_id = oi.order_id JOIN main.locations l ON l.location_id = o.location_id GROUP BY 1, 2'],
  ['phrasing', 'Orders split by location', 'SELECT l.location_id, l.location_name, COUNT(*) FROM main.orders o JOIN main.locations l ON l.location_id = o.location_id GROUP BY 1, 2'],
  ['phrasing', 'How many orders in total?', 'SELECT COUNT(*) FROM main.orders'],
  ['phrasing', 'What is the revenue in total?', 'SELECT SUM(product_price) FROM main.order_items'],
  ['phrasing', 'How many food orders in total?', 'SELECT COUNT(*) FROM main.orders WHERE is_food_order'],
  ['numbers', 'How many orders in the first half of 2024?', "SELECT COUNT(*) FROM main.orders WHERE ordered_at >= DATE '2024-01-01' AND ordered_at < DATE '2024-07-01'"],
  ['dates', 'Revenue from January to March 2024', "SELECT SUM(product_price) FROM main.order_items WHERE ordered_at >= DATE '2024-01-01' AND ordered_at < DATE '2024-04-01'"],
  ['dates', 'How many orders between April and June 2024?', "SELECT COUNT(*) FROM main.orders WHERE ordered_at >= DATE '2024-04-01' AND ordered_at < DATE '2024-07-01'"],
  ['dates', 'Revenue in H2 2024', "SELECT SUM(product_price) FROM main.order_items WHERE ordered_at >= DATE '2024-07-01' AND ordered_at < DATE '2025-01-01'"],
  ['dates', 'How many orders in the second half of 2024?', "SELECT COUNT(*) FROM main.orders WHERE ordered_at >= DATE '2024-07-01' AND ordered_at < DATE '2025-01-01'"],
  ['dates', 'Revenue from October to December 2024', "SELECT SUM(product_price) FROM main.order_items WHERE ordered_at >= DATE '2024-10-01' AND ordered_at < DATE '2025-01-01'"],
  // Units, ordinals and comparisons: the rows stay raw whatever the text prints.
  ['units', 'Revenue by location as a percentage', 'SELECT l.location_id, l.location_name, SUM(oi.product_price) FROM main.order_items oi JOIN main.orders o ON o.order_id = oi.order_id JOIN main.locations l ON l.location_id = o.location_id GROUP BY 1, 2'],
  ['units', 'How many orders in thousands?', 'SELECT COUNT(*) FROM main.orders'],
  ['units', 'Revenue in euros', null],
  ['ordinals', 'Which location has the second most orders?', 'SELECT l.location_id, l.location_name, COUNT(*) FROM main.orders o JOIN main.locations l ON l.location_id = o.location_id GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 1 OFFSET 1'],
  ['ordinals', 'What is the second highest revenue?', null],
  ['out_of_family', 'Why did revnue drop in March 2024?', null],
  ['out_of_family', 'Forecast revenue for the first half of 2027', null],
  ['out_of_family', 'Write me a peom about jaffles', null],
];
