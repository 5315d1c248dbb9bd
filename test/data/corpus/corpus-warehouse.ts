// The warehouse the SQL corpora (test/fixtures/sql/) run against, on all four engines, twice: the
// full warehouse, and its oracle holding only what the German user may see (customers and orders of
// Germany; products and order items whole). A query the German user runs on the full warehouse must
// answer what the same text answers on the oracle: anything else is a hidden row seen (or a rewrite
// that changed the query's meaning).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { SqlDialect, TableDoc } from '../../../src/data/types.ts';

export const DIALECTS: SqlDialect[] = ['postgresql', 'mysql', 'sqlite', 'duckdb'];
export const VISIBLE = 'Germany';
const COUNTRIES = ['Germany', 'France', 'Japan', 'United States'];
const SEGMENTS = ['consumer', 'corporate', 'small_business', null];
const STATUSES = ['completed', 'shipped', 'cancelled', 'returned', 'completed'];
const CATEGORIES = ['Electronics', 'Home', 'Books', 'Toys'];

type Value = string | number | null;
const lit = (v: Value) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replaceAll("'", "''")}'`);
const day = (base: string, days: number) => new Date(Date.parse(`${base}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Rows of the four tables, deterministic. */
function rows() {
  const customers: Value[][] = [];
  for (let i = 1; i <= 16; i++) {
    const name = i === 5 ? "Siobhan O'Brien" : i === 9 ? 'Zoë Müller' : `Customer ${String(i).padStart(2, '0')}`;
    customers.push([i, name, COUNTRIES[(i - 1) % 4]!, SEGMENTS[i % 4]!, day('2023-01-05', i * 23)]);
  }
  const orders: Value[][] = [];
  const items: Value[][] = [];
  for (let o = 1; o <= 80; o++) {
    const customer = ((o * 7) % 16) + 1;
    const total = o === 13 ? null : Math.round(((o * 37) % 500) * 100 + 1999) / 100;
    orders.push([o, customer, customers[customer - 1]![2]!, STATUSES[o % 5]!, day('2024-01-03', o * 9), total]);
    for (let k = 0; k < 2; k++) items.push([o * 2 - 1 + k, o, ((o + k * 3) % 8) + 1, 1 + ((o + k) % 4), 5 + ((o * 3 + k) % 40)]);
  }
  const products: Value[][] = Array.from({ length: 8 }, (_, i) => [i + 1, `Product ${i + 1}`, CATEGORIES[i % 4]!, 10 + i * 7.5]);
  return { customers, orders, items, products };
}

const VIEWS = [
  // Over a filtered table, no filter of its own: refused to users the filter applies to.
  "CREATE VIEW orders_by_country AS SELECT country, count(*) AS n, sum(total_amount) AS total FROM orders GROUP BY country",
  "CREATE VIEW customer_orders AS SELECT c.name, o.order_id, o.total_amount FROM customers c JOIN orders o ON o.customer_id = c.customer_id",
  // Over an unfiltered table: readable by everyone.
  'CREATE VIEW product_catalog AS SELECT product_id, name, category FROM products',
  // Documented with a row filter of its own: read with that filter.
  "CREATE VIEW order_totals AS SELECT order_id, country, total_amount FROM orders WHERE status <> 'cancelled'",
  // A view over that view, without a filter of its own: refused.
  'CREATE VIEW big_orders AS SELECT * FROM order_totals WHERE total_amount > 100',
];

/** DDL and data of the full warehouse, or of its oracle (`oracle: true`). */
export function warehouseSql({ oracle = false }: { oracle?: boolean } = {}): string[] {
  const r = rows();
  const visible = (country: Value) => !oracle || country === VISIBLE;
  const insert = (table: string, list: Value[][]) => (list.length ? [`INSERT INTO ${table} VALUES ${list.map((x) => `(${x.map(lit).join(', ')})`).join(', ')}`] : []);
  return [
    'CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, name VARCHAR(60), country VARCHAR(40), segment VARCHAR(20), signup_date DATE)',
    'CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER, country VARCHAR(40), status VARCHAR(20), order_date DATE, total_amount DECIMAL(12,2))',
    'CREATE TABLE products (product_id INTEGER PRIMARY KEY, name VARCHAR(60), category VARCHAR(30), unit_price DECIMAL(10,2))',
    'CREATE TABLE order_items (order_item_id INTEGER PRIMARY KEY, order_id INTEGER, product_id INTEGER, quantity INTEGER, unit_price DECIMAL(10,2))',
    'CREATE TABLE secrets (id INTEGER PRIMARY KEY, secret VARCHAR(60))',
    ...insert('customers', r.customers.filter((c) => visible(c[2]!))),
    ...insert('orders', r.orders.filter((o) => visible(o[2]!))),
    ...insert('products', r.products),
    ...insert('order_items', r.items),
    ...insert('secrets', oracle ? [] : [[1, 'TOPSECRET-hunter2']]),
    ...VIEWS,
  ];
}

/** Strings only a hidden row holds: seeing one is a leak even in an error message. */
export const HIDDEN_MARKERS = ['France', 'Japan', 'United States', 'TOPSECRET'];

/** Table documentation of a corpus connection. */
export function corpusDocs(connection: string, schema: string): TableDoc[] {
  const filter = [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }];
  const doc = (name: string, row_filters?: TableDoc['row_filters']): TableDoc => ({ connection, schema, name, active: true, ...(row_filters ? { row_filters } : {}) });
  return [
    doc('customers', filter), doc('orders', filter), doc('products'), doc('order_items'),
    doc('orders_by_country'), doc('customer_orders'), doc('product_catalog'), doc('order_totals', filter), doc('big_orders'),
  ];
}

/** One corpus entry as written in the fixture: one text for all dialects or one per dialect. */
interface RawEntry {
  id?: string;
  class?: string;
  sql?: string;
  postgresql?: string;
  mysql?: string;
  sqlite?: string;
  duckdb?: string;
  only?: SqlDialect[];
  /** Valid queries whose answer is not deterministic (sampling, random) are only checked to run. */
  compare?: boolean;
  /** Hostile statements the warehouse stops (not the guard): the error code they must end with. */
  expect?: string;
}

export interface CorpusEntry {
  id: string;
  class: string;
  sql: string;
  compare: boolean;
  /** The error code a hostile statement must end with; QUERY_REFUSED (by the guard) unless told. */
  expect: string;
}

/** The entries of `test/fixtures/sql/<name>.yaml` that apply to `dialect`. */
export function loadCorpus(name: 'valid' | 'hostile' | 'escapes', dialect: SqlDialect): CorpusEntry[] {
  const raw = parse(readFileSync(new URL(`../../fixtures/sql/${name}.yaml`, import.meta.url), 'utf8')) as RawEntry[];
  return raw.flatMap((e, i) => {
    const sql = e[dialect] ?? e.sql;
    if (sql === undefined || (e.only && !e.only.includes(dialect))) return [];
    return [{ id: e.id ?? `${name}-${i + 1}`, class: e.class ?? name, sql, compare: e.compare !== false, expect: e.expect ?? 'QUERY_REFUSED' }];
  });
}
