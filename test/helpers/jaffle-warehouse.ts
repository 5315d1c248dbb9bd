// The jaffle shop's DuckDB warehouse, built the way dbt builds it (fixtures/dbt/jaffle_shop/README.md):
// the four seed CSVs and two generated raw tables (raw_orders, raw_items: a fixed seed, the year 2024)
// in schema `raw`, then every model's compiled_code in dependency order as `main.<name>`.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const JAFFLE_DIR = new URL('../../fixtures/dbt/jaffle_shop/', import.meta.url).pathname;
export const JAFFLE_ORDERS = 400;

interface Node {
  unique_id: string;
  resource_type: string;
  name: string;
  compiled_code?: string;
  depends_on: { nodes: string[] };
}

async function column(conn: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await (await conn.run(sql)).getRows()) as unknown[][];
}

/** raw_orders and raw_items: each order has 1 to 3 items; totals in cents from the products' prices and the store's tax rate. */
async function generateRaw(conn: DuckDBConnection): Promise<void> {
  const customers = (await column(conn, 'SELECT id FROM raw.raw_customers ORDER BY id')).map((r) => String(r[0]));
  const stores = await column(conn, 'SELECT id, tax_rate FROM raw.raw_stores ORDER BY id');
  const products = await column(conn, 'SELECT sku, price FROM raw.raw_products ORDER BY sku');
  let seed = 20240101;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const orders: string[] = [];
  const items: string[] = [];
  let item = 1;
  for (let o = 1; o <= JAFFLE_ORDERS; o++) {
    const [store, rate] = pick(stores) as [string, number];
    const at = new Date(Date.UTC(2024, 0, 1) + Math.floor(rnd() * 366 * 24) * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    let subtotal = 0;
    const n = 1 + Math.floor(rnd() * 3);
    for (let k = 0; k < n; k++) {
      const [sku, price] = pick(products) as [string, number];
      subtotal += Number(price);
      items.push(`('item-${String(item++).padStart(5, '0')}', 'order-${String(o).padStart(4, '0')}', '${sku}')`);
    }
    const tax = Math.round(subtotal * Number(rate));
    orders.push(`('order-${String(o).padStart(4, '0')}', '${pick(customers)}', TIMESTAMP '${at}', '${store}', ${subtotal}, ${tax}, ${subtotal + tax})`);
  }
  await conn.run('CREATE TABLE raw.raw_orders (id VARCHAR, customer VARCHAR, ordered_at TIMESTAMP, store_id VARCHAR, subtotal INTEGER, tax_paid INTEGER, order_total INTEGER)');
  await conn.run(`INSERT INTO raw.raw_orders VALUES ${orders.join(', ')}`);
  await conn.run('CREATE TABLE raw.raw_items (id VARCHAR, order_id VARCHAR, sku VARCHAR)');
  await conn.run(`INSERT INTO raw.raw_items VALUES ${items.join(', ')}`);
}

/** Models in an order where each comes after the models it depends on. */
function dependencyOrder(models: Node[]): Node[] {
  const byId = new Map(models.map((m) => [m.unique_id, m]));
  const done = new Set<string>();
  const out: Node[] = [];
  const visit = (m: Node) => {
    if (done.has(m.unique_id)) return;
    done.add(m.unique_id);
    for (const dep of m.depends_on.nodes) if (byId.has(dep)) visit(byId.get(dep)!);
    out.push(m);
  };
  for (const m of models) visit(m);
  return out;
}

/** Builds the warehouse file (named jaffle_shop.duckdb: the compiled code names that database) and returns its path. */
export async function buildJaffleWarehouse(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'sextant-jaffle-')), 'jaffle_shop.duckdb');
  const instance = await DuckDBInstance.create(path);
  const conn = await instance.connect();
  try {
    await conn.run('CREATE SCHEMA raw');
    for (const name of ['raw_customers', 'raw_products', 'raw_stores', 'raw_supplies']) {
      await conn.run(`CREATE TABLE raw.${name} AS SELECT * FROM read_csv('${join(JAFFLE_DIR, 'seeds', `${name}.csv`)}', header = true)`);
    }
    await generateRaw(conn);
    const manifest = JSON.parse(readFileSync(join(JAFFLE_DIR, 'manifest.json'), 'utf8')) as { nodes: Record<string, Node> };
    const models = Object.values(manifest.nodes).filter((n) => n.resource_type === 'model');
    for (const m of dependencyOrder(models)) await conn.run(`CREATE TABLE main.${m.name} AS ${m.compiled_code!}`);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return path;
}
