// A small deterministic DuckDB warehouse with the brief's demo schema, its knowledge files (YAML in
// the knowledge format) and a QueryRunner over it that records who ran what.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parse } from 'yaml';
import type { Principal } from '../../src/auth/index.ts';
import { AppError } from '../../src/errors.ts';
import type { QueryRequest, QueryRunner, RelationshipDocument, TableDocument } from '../../src/agent/ports.ts';

const COUNTRIES: [string, string][] = [['Germany', 'Berlin'], ['Germany', 'Munich'], ['France', 'Paris'], ['United States', 'Boston'], ['United States', 'Austin'], ['Japan', 'Osaka'], ['Brazil', 'Recife'], ['United Kingdom', 'Leeds'], ['Canada', 'Toronto'], ['Australia', 'Perth']];
const SEGMENTS = ['consumer', 'corporate', 'small_business'];
const CATEGORIES = ['Electronics', 'Home', 'Clothing', 'Sports', 'Books', 'Toys'];
const STATUSES = ['completed', 'completed', 'shipped', 'cancelled', 'returned', 'completed'];
const CHANNELS = ['web', 'store', 'mobile'];

/** Inserts the rows: 12 customers, 6 products, 40 orders (2024-01 to 2026-01), ~90 order items. */
async function seed(conn: DuckDBConnection): Promise<void> {
  await conn.run(`CREATE TABLE customers(customer_id INTEGER PRIMARY KEY, name VARCHAR, email VARCHAR, country VARCHAR, city VARCHAR, segment VARCHAR, signup_date DATE)`);
  await conn.run(`CREATE TABLE products(product_id INTEGER PRIMARY KEY, name VARCHAR, category VARCHAR, subcategory VARCHAR, unit_price DECIMAL(10,2), cost DECIMAL(10,2))`);
  await conn.run(`CREATE TABLE orders(order_id INTEGER PRIMARY KEY, customer_id INTEGER, order_date DATE, status VARCHAR, channel VARCHAR, total_amount DECIMAL(12,2))`);
  await conn.run(`CREATE TABLE order_items(order_item_id INTEGER PRIMARY KEY, order_id INTEGER, product_id INTEGER, quantity INTEGER, unit_price DECIMAL(10,2), discount DECIMAL(4,2))`);
  let seedValue = 42;
  const rnd = () => (seedValue = (seedValue * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rows: string[] = [];
  for (let i = 1; i <= 12; i++) {
    const [country, city] = COUNTRIES[i % COUNTRIES.length]!;
    rows.push(`(${i}, 'Customer ${String(i).padStart(2, '0')}', 'c${i}@example.com', '${country}', '${city}', '${SEGMENTS[i % 3]}', DATE '${2023 + (i % 3)}-${String((i % 12) + 1).padStart(2, '0')}-10')`);
  }
  await conn.run(`INSERT INTO customers VALUES ${rows.join(', ')}`);
  const prices = [499.99, 79.5, 39.9, 120, 15.25, 24.99];
  await conn.run(`INSERT INTO products VALUES ${CATEGORIES.map((c, i) => `(${i + 1}, '${c} item', '${c}', '${c} sub', ${prices[i]}, ${(prices[i]! * 0.6).toFixed(2)})`).join(', ')}`);
  const orders: string[] = [];
  const items: string[] = [];
  let itemId = 1;
  for (let o = 1; o <= 40; o++) {
    const customer = 1 + Math.floor(rnd() * 12);
    // 2024-01-03 plus o * 19 days: spreads orders over two years up to January 2026.
    const date = new Date(Date.UTC(2024, 0, 3) + o * 19 * 86_400_000).toISOString().slice(0, 10);
    let total = 0;
    const n = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < n; k++) {
      const product = 1 + Math.floor(rnd() * 6);
      const qty = 1 + Math.floor(rnd() * 4);
      const discount = [0, 0, 0.1, 0.05][Math.floor(rnd() * 4)]!;
      total += qty * prices[product - 1]! * (1 - discount);
      items.push(`(${itemId++}, ${o}, ${product}, ${qty}, ${prices[product - 1]}, ${discount})`);
    }
    orders.push(`(${o}, ${customer}, DATE '${date}', '${STATUSES[o % STATUSES.length]}', '${CHANNELS[Math.floor(rnd() * 3)]}', ${total.toFixed(2)})`);
  }
  await conn.run(`INSERT INTO orders VALUES ${orders.join(', ')}`);
  await conn.run(`INSERT INTO order_items VALUES ${items.join(', ')}`);
}

export const TABLE_YAML = [
  `connection: demo_warehouse
schema: main
name: customers
description: One row per customer.
active: true
columns:
  - { name: customer_id, type: INTEGER, description: Identifier of the customer. }
  - { name: name, type: VARCHAR, description: Full name of the customer. }
  - { name: email, type: VARCHAR, description: Email address. }
  - { name: country, type: VARCHAR, description: "Country of the customer: 'United States', 'United Kingdom', 'Germany', 'France', 'Canada', 'Australia', 'Japan' or 'Brazil'." }
  - { name: city, type: VARCHAR, description: City of the customer. }
  - { name: segment, type: VARCHAR, description: "Customer segment: 'consumer', 'corporate' or 'small_business'.", synonyms: [customer segment] }
  - { name: signup_date, type: DATE, description: Day the customer signed up., synonyms: [signed up, signup] }
`,
  `connection: demo_warehouse
schema: main
name: products
description: One row per product in the catalog.
columns:
  - { name: product_id, type: INTEGER }
  - { name: name, type: VARCHAR, description: Product name. }
  - { name: category, type: VARCHAR, description: "Product category: 'Electronics', 'Home', 'Clothing', 'Sports', 'Books' or 'Toys'.", synonyms: [product category] }
  - { name: subcategory, type: VARCHAR }
  - { name: unit_price, type: "DECIMAL(10,2)", description: List price of one unit., synonyms: [price, list price] }
  - { name: cost, type: "DECIMAL(10,2)", description: Cost of one unit. }
`,
  `connection: demo_warehouse
schema: main
name: orders
description: One row per customer order.
columns:
  - { name: order_id, type: INTEGER }
  - { name: customer_id, type: INTEGER }
  - { name: order_date, type: DATE, description: Day the order was placed., synonyms: [purchase date] }
  - { name: status, type: VARCHAR, description: "Order status: 'completed', 'shipped', 'cancelled' or 'returned'.", synonyms: [order status] }
  - { name: channel, type: VARCHAR, description: "Sales channel: 'web', 'store' or 'mobile'.", synonyms: [sales channel] }
  - { name: total_amount, type: "DECIMAL(12,2)", description: Amount paid for the order., synonyms: [revenue, sales, order value] }
`,
  `connection: demo_warehouse
schema: main
name: order_items
description: One row per product line of an order.
columns:
  - { name: order_item_id, type: INTEGER }
  - { name: order_id, type: INTEGER }
  - { name: product_id, type: INTEGER }
  - { name: quantity, type: INTEGER, description: Units ordered., synonyms: [quantity sold, units sold, units] }
  - { name: unit_price, type: "DECIMAL(10,2)", description: Price of one unit on this line. }
  - { name: discount, type: "DECIMAL(4,2)", description: Discount rate of the line. }
`,
];

export const RELATIONSHIP_YAML = [
  `{ id: orders_customers, kind: many_to_one, description: Each order belongs to a customer., from: { connection: demo_warehouse, schema: main, table: orders, column: customer_id }, to: { connection: demo_warehouse, schema: main, table: customers, column: customer_id } }`,
  `{ id: order_items_orders, kind: many_to_one, from: { connection: demo_warehouse, schema: main, table: order_items, column: order_id }, to: { connection: demo_warehouse, schema: main, table: orders, column: order_id } }`,
  `{ id: order_items_products, kind: many_to_one, from: { connection: demo_warehouse, schema: main, table: order_items, column: product_id }, to: { connection: demo_warehouse, schema: main, table: products, column: product_id } }`,
];

export const tableDocs = (): TableDocument[] => TABLE_YAML.map((y) => parse(y) as TableDocument);
export const relationshipDocs = (): RelationshipDocument[] => RELATIONSHIP_YAML.map((y) => parse(y) as RelationshipDocument);

export interface TestWarehouse {
  conn: DuckDBConnection;
  runner: QueryRunner;
  /** Every query with the principal it ran as. */
  calls: { principal: Principal; sql: string; connectionId: string }[];
  /** Rows of a query, as JSON-friendly arrays. */
  rows(sql: string): Promise<unknown[][]>;
  /** Waits for queries in flight (closing DuckDB under a running query crashes the process), then closes. */
  close(): Promise<void>;
}

/** Builds the warehouse in memory. `gate` can delay or refuse queries (permission tests). */
export async function startWarehouse(gate?: (req: QueryRequest) => Promise<void> | void): Promise<TestWarehouse> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  await seed(conn);
  const calls: TestWarehouse['calls'] = [];
  const inflight = new Set<Promise<unknown>>();
  const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowsJson() as unknown[][];
  const runner: QueryRunner = {
    async run(req) {
      calls.push({ principal: req.principal, sql: req.sql, connectionId: req.connectionId });
      await gate?.(req);
      if (req.connectionId !== 'demo_warehouse') throw new AppError('not_found', 'CONNECTION_NOT_FOUND', 'Connection not found');
      const started = performance.now();
      let reader;
      const running = conn.runAndReadAll(req.sql);
      inflight.add(running);
      try {
        reader = await running;
      } catch (err) {
        throw new AppError('bad_request', 'QUERY_FAILED', (err as Error).message);
      } finally {
        inflight.delete(running);
      }
      const all = reader.getRowsJson() as unknown[][];
      return {
        columns: reader.columnNames().map((name, i) => ({ name, type: String(reader.columnTypes()[i]) })),
        rows: all.slice(0, req.rowLimit),
        rowCount: Math.min(all.length, req.rowLimit),
        truncated: all.length > req.rowLimit,
        executionMs: Math.round(performance.now() - started),
        dialect: 'duckdb',
      };
    },
  };
  const close = async () => {
    while (inflight.size > 0) await Promise.allSettled([...inflight]);
    conn.closeSync();
    instance.closeSync();
  };
  return { conn, runner, calls, rows, close };
}
