// The demo retail warehouse, generated deterministically with DuckDB SQL: every pseudo-random
// choice is an integer hash of (row, salt), so the same sizes always give the same data,
// whatever the date, thread count or machine.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

export interface WarehouseSize {
  customers: number;
  products: number;
  orders: number;
}

/** The sizes of the shared contract: 5,000 customers, 200 products, 120,000 orders (~300,000 items). */
export const DEMO_SIZE: WarehouseSize = { customers: 5_000, products: 200, orders: 120_000 };

// 2022-01-01 .. 2026-10-31 inclusive.
const DAYS = 1764;

const MACROS = [
  'CREATE MACRO mix32(x) AS (xor(x >> 16, x) * 73244475) % 4294967296',
  'CREATE MACRO h32(x) AS xor(mix32(mix32(x)) >> 16, mix32(mix32(x)))',
  // A uniform number in [0, 1) for row i and salt s.
  'CREATE MACRO rnd(i, s) AS h32((i::BIGINT * 2654435 + s::BIGINT * 1000003) % 4294967296) / 4294967296.0',
  'CREATE MACRO pick(l, i, s) AS l[1 + floor(rnd(i, s) * len(l))::INTEGER]',
];

const sqlList = (xs: string[]) => `[${xs.map((x) => `'${x.replace(/'/g, "''")}'`).join(', ')}]`;

const COUNTRIES: [string, string[]][] = [
  ['United States', ['New York', 'Chicago', 'Austin', 'Seattle']],
  ['United Kingdom', ['London', 'Manchester', 'Edinburgh']],
  ['Germany', ['Berlin', 'Munich', 'Hamburg']],
  ['France', ['Paris', 'Lyon', 'Marseille']],
  ['Canada', ['Toronto', 'Vancouver', 'Montreal']],
  ['Australia', ['Sydney', 'Melbourne', 'Brisbane']],
  ['Japan', ['Tokyo', 'Osaka', 'Kyoto']],
  ['Brazil', ['Sao Paulo', 'Rio de Janeiro', 'Curitiba']],
];
const CATEGORIES: [string, string[]][] = [
  ['Electronics', ['Headphones', 'Phones', 'Laptops', 'Cameras']],
  ['Home', ['Kitchen', 'Furniture', 'Lighting']],
  ['Clothing', ['Shirts', 'Shoes', 'Jackets']],
  ['Sports', ['Fitness', 'Cycling', 'Outdoor']],
  ['Books', ['Fiction', 'Business', 'Children']],
  ['Toys', ['Puzzles', 'Board Games', 'Building Sets']],
];
const FIRST = ['Ada', 'Ben', 'Chloe', 'Diego', 'Emma', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kara', 'Liam', 'Mia', 'Noah', 'Olga', 'Paul', 'Quinn', 'Rosa', 'Sam', 'Tara', 'Uma', 'Victor', 'Wen', 'Yara', 'Zoe'];
const LAST = ['Smith', 'Jones', 'Müller', 'Martin', 'Tanaka', 'Silva', 'Brown', 'Wilson', 'Schmidt', 'Dubois', 'Sato', 'Costa', 'Taylor', 'Lee', 'Walker', 'Fischer', 'Moreau', 'Suzuki', 'Santos', 'Clark'];
const ADJ = ['Classic', 'Pro', 'Essential', 'Deluxe', 'Compact', 'Eco', 'Ultra', 'Smart'];

function statements(size: WarehouseSize): string[] {
  const cityCase = COUNTRIES.map(([c, cities]) => `WHEN '${c}' THEN pick(${sqlList(cities)}, customer_id, 5)`).join(' ');
  const subCase = CATEGORIES.map(([c, subs]) => `WHEN '${c}' THEN pick(${sqlList(subs)}, product_id, 13)`).join(' ');
  return [
    ...MACROS,
    `CREATE TABLE customers AS
     SELECT customer_id, first || ' ' || last AS name,
       lower(replace(first || '.' || last, 'ü', 'u')) || customer_id || '@example.com' AS email,
       country, CASE country ${cityCase} END AS city, segment, signup_date
     FROM (SELECT i::INTEGER AS customer_id, pick(${sqlList(FIRST)}, i, 1) AS first, pick(${sqlList(LAST)}, i, 2) AS last,
             pick(${sqlList(COUNTRIES.map((c) => c[0]))}, i, 3) AS country,
             CASE WHEN rnd(i, 4) < 0.6 THEN 'consumer' WHEN rnd(i, 4) < 0.85 THEN 'small_business' ELSE 'corporate' END AS segment,
             (DATE '2022-01-01' + floor(rnd(i, 6) * ${DAYS} * 0.8)::INTEGER) AS signup_date
           FROM range(1, ${size.customers + 1}) t(i))`,
    `CREATE TABLE products AS
     SELECT product_id, pick(${sqlList(ADJ)}, product_id, 12) || ' ' || subcategory || ' ' || product_id AS name, category, subcategory,
       unit_price, round(unit_price * (0.4 + rnd(product_id, 15) * 0.3), 2)::DECIMAL(10,2) AS cost
     FROM (SELECT product_id, category, CASE category ${subCase} END AS subcategory,
             round(5 + pow(rnd(product_id, 14), 2) * 995, 2)::DECIMAL(10,2) AS unit_price
           FROM (SELECT i::INTEGER AS product_id, pick(${sqlList(CATEGORIES.map((c) => c[0]))}, i, 11) AS category FROM range(1, ${size.products + 1}) t(i)))`,
    `CREATE TABLE orders_base AS
     SELECT i::INTEGER AS order_id, (1 + floor(rnd(i, 21) * ${size.customers}))::INTEGER AS customer_id,
       CASE WHEN rnd(i, 23) < 0.75 THEN 'completed' WHEN rnd(i, 23) < 0.87 THEN 'shipped' WHEN rnd(i, 23) < 0.95 THEN 'cancelled' ELSE 'returned' END AS status,
       CASE WHEN rnd(i, 24) < 0.55 THEN 'web' WHEN rnd(i, 24) < 0.8 THEN 'store' ELSE 'mobile' END AS channel,
       (1 + floor(rnd(i, 25) * 4))::INTEGER AS n_items, rnd(i, 22) AS day_r
     FROM range(1, ${size.orders + 1}) t(i)`,
    `CREATE TABLE order_items AS
     SELECT row_number() OVER (ORDER BY o.order_id, k)::INTEGER AS order_item_id, o.order_id, p.product_id,
       (1 + floor(pow(rnd(o.order_id * 8 + k, 32), 2) * 5))::INTEGER AS quantity, p.unit_price,
       (CASE WHEN rnd(o.order_id * 8 + k, 33) < 0.7 THEN 0 ELSE floor(rnd(o.order_id * 8 + k, 34) * 4 + 1) * 0.05 END)::DECIMAL(4,2) AS discount
     FROM orders_base o CROSS JOIN range(1, 5) r(k)
     JOIN products p ON p.product_id = (1 + floor(rnd(o.order_id * 8 + k, 31) * ${size.products}))::INTEGER
     WHERE k <= o.n_items`,
    `CREATE TABLE orders AS
     SELECT o.order_id, o.customer_id,
       (c.signup_date + floor(o.day_r * (DATE '2026-10-31' - c.signup_date + 1))::INTEGER)::DATE AS order_date,
       o.status, o.channel, coalesce(t.total, 0)::DECIMAL(12,2) AS total_amount
     FROM orders_base o JOIN customers c USING (customer_id)
     LEFT JOIN (SELECT order_id, round(sum(quantity * unit_price * (1 - discount)), 2) AS total FROM order_items GROUP BY order_id) t USING (order_id)
     ORDER BY o.order_id`,
    'DROP TABLE orders_base',
    'DROP MACRO pick',
    'DROP MACRO rnd',
    'DROP MACRO h32',
    'DROP MACRO mix32',
    'ALTER TABLE customers ADD PRIMARY KEY (customer_id)',
    'ALTER TABLE products ADD PRIMARY KEY (product_id)',
    'ALTER TABLE orders ADD PRIMARY KEY (order_id)',
    'ALTER TABLE order_items ADD PRIMARY KEY (order_item_id)',
  ];
}

/**
 * Writes the demo warehouse to `path` unless it exists; written to a temp file first. Replicas sharing
 * the data folder may generate it at the same moment: each writes a temp file of its own and renames
 * it into place. A link would refuse the second (rename replaces), but for a moment the file would have
 * two names, and a replica checking it then refuses a file with other hard links (confine-path.ts):
 * one replica's start failed so under load. A replica that finishes second replaces the file with the
 * same data (the generator is deterministic); one that opened the first keeps reading it.
 */
export async function generateDemoWarehouse(path: string, size: WarehouseSize = DEMO_SIZE): Promise<boolean> {
  if (existsSync(path)) return false;
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.partial-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    // Loaded here, not with the module: a gateway that finds the warehouse written never loads DuckDB for it.
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(tmp);
    const conn = await instance.connect();
    try {
      for (const sql of statements(size)) await conn.run(sql);
      await conn.run('CHECKPOINT');
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    if (existsSync(path)) return false;
    renameSync(tmp, path);
    return true;
  } finally {
    rmSync(tmp, { force: true });
    rmSync(`${tmp}.wal`, { force: true });
  }
}
