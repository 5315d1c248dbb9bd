// The rows the download benchmarks export: 1,000,000 (BENCH_ROWS) orders shaped like the demo's, with a
// text column that needs quoting. DuckDB generates them in the query, so no table sits in memory;
// PostgreSQL reads them from a table the bench writes once into a database of its own.

/** A DuckDB query producing `rows` orders. */
export function ordersQuery(rows: number): string {
  return `
    SELECT i AS order_id,
           (i * 7919) % 5000 + 1 AS customer_id,
           DATE '2022-01-01' + ((i * 31) % 1765)::INTEGER AS order_date,
           ['completed', 'shipped', 'cancelled', 'returned'][(i % 4) + 1] AS status,
           ['web', 'store', 'mobile'][(i % 3) + 1] AS channel,
           ((i * 104729) % 100000 / 100.0)::DECIMAL(12, 2) AS total_amount,
           'Customer "' || (i % 5000) || '", note' AS note
    FROM range(${rows}) t(i)`;
}

/** The same orders as a PostgreSQL table `orders`. */
export function pgOrdersTable(rows: number): string {
  return `CREATE TABLE orders AS
    SELECT i AS order_id,
           (i * 7919) % 5000 + 1 AS customer_id,
           DATE '2022-01-01' + ((i * 31) % 1765)::integer AS order_date,
           (ARRAY['completed', 'shipped', 'cancelled', 'returned'])[(i % 4) + 1] AS status,
           (ARRAY['web', 'store', 'mobile'])[(i % 3) + 1] AS channel,
           ((i * 104729) % 100000 / 100.0)::numeric(12, 2) AS total_amount,
           'Customer "' || (i % 5000) || '", note' AS note
    FROM generate_series(0::bigint, ${rows - 1}) AS t(i)`;
}

/** What both PostgreSQL paths export. */
export const PG_ORDERS = 'SELECT * FROM orders';
