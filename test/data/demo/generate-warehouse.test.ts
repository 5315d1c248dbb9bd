import test from 'ava';
import { DuckDBInstance } from '@duckdb/node-api';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEMO_SIZE, generateDemoWarehouse } from '../../../src/data/demo/generate-warehouse.ts';
import { executeQuery } from '../../../src/data/query/index.ts';
import { principalFor, getUser } from '../../../src/auth/index.ts';
import { startTestApp } from '../../helpers/app.ts';
import { tempDir } from '../warehouses.ts';

const SIZE = { customers: 100, products: 20, orders: 1000 };

async function facts(path: string) {
  const inst = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const c = await inst.connect();
  const q = async (sql: string) => (await c.runAndReadAll(sql)).getRowsJson();
  const out = {
    counts: await q('SELECT (SELECT count(*) FROM customers), (SELECT count(*) FROM products), (SELECT count(*) FROM orders), (SELECT count(*) FROM order_items)'),
    checksum: await q(
      'SELECT (SELECT sum(hash(c)) FROM customers c), (SELECT sum(hash(p)) FROM products p), (SELECT sum(hash(o)) FROM orders o), (SELECT sum(hash(i)) FROM order_items i)',
    ),
    dates: await q('SELECT min(order_date)::VARCHAR, max(order_date)::VARCHAR, min(signup_date)::VARCHAR FROM orders JOIN customers USING (customer_id)'),
    countries: await q('SELECT DISTINCT country FROM customers ORDER BY 1'),
    categories: await q('SELECT DISTINCT category FROM products ORDER BY 1'),
    statuses: await q('SELECT DISTINCT status FROM orders ORDER BY 1'),
    totals: await q('SELECT count(*) FROM orders o WHERE total_amount <> (SELECT round(sum(quantity * unit_price * (1 - discount)), 2) FROM order_items i WHERE i.order_id = o.order_id)'),
    orphans: await q('SELECT count(*) FROM order_items i LEFT JOIN products p USING (product_id) WHERE p.product_id IS NULL'),
  };
  c.closeSync();
  inst.closeSync();
  return out;
}

test('two generations of one demo warehouse at once (replicas on a shared folder) leave one complete file and no temp file', async (t) => {
  const dir = join(tempDir(), 'shared');
  const path = join(dir, 'demo.duckdb');
  const made = await Promise.all([generateDemoWarehouse(path, SIZE), generateDemoWarehouse(path, SIZE)]);
  t.is(made.filter(Boolean).length, 1, 'one of them put its file in place');
  t.deepEqual(readdirSync(dir), ['demo.duckdb']);
  t.is(statSync(path).nlink, 1, 'the file in place has one name (a replica refuses a file with other hard links)');
  const alone = join(tempDir(), 'alone', 'demo.duckdb');
  await generateDemoWarehouse(alone, SIZE);
  t.deepEqual(await facts(path), await facts(alone), 'the file in place is whole');
});

test('the demo warehouse is deterministic and follows the shared contract', async (t) => {
  const a = join(tempDir(), 'a', 'demo.duckdb');
  const b = join(tempDir(), 'b', 'demo.duckdb');
  t.true(await generateDemoWarehouse(a, SIZE));
  t.true(await generateDemoWarehouse(b, SIZE));
  t.false(await generateDemoWarehouse(a, SIZE), 'an existing file is kept');
  const fa = await facts(a);
  t.deepEqual(fa, await facts(b));
  const [customers, products, orders, items] = fa.counts[0]!.map(Number);
  t.deepEqual([customers, products, orders], [100, 20, 1000]);
  t.true(items! > 2000 && items! < 3000, 'about 2.5 items per order');
  t.true(fa.dates[0]![0]! >= '2022-01-01' && fa.dates[0]![1]! <= '2026-10-31');
  t.deepEqual(fa.countries.flat(), ['Australia', 'Brazil', 'Canada', 'France', 'Germany', 'Japan', 'United Kingdom', 'United States']);
  t.deepEqual(fa.categories.flat(), ['Books', 'Clothing', 'Electronics', 'Home', 'Sports', 'Toys']);
  t.deepEqual(fa.statuses.flat(), ['cancelled', 'completed', 'returned', 'shipped']);
  t.is(fa.totals[0]![0], '0', 'order totals equal the sum of their items');
  t.is(fa.orphans[0]![0], '0');
});

test("the demo knowledge's data coverage is what the demo warehouse holds: the first and last day of each documented date", async (t) => {
  const path = join(tempDir(), 'full', 'demo.duckdb');
  await generateDemoWarehouse(path, DEMO_SIZE);
  const inst = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const c = await inst.connect();
  const dir = join(import.meta.dirname, '../../../fixtures/knowledge/tables/demo_warehouse');
  const documented = readdirSync(dir).map((f) => parse(readFileSync(join(dir, f), 'utf8')) as { name: string; coverage?: { column: string; first: string; last: string } });
  const covered = documented.filter((d) => d.coverage);
  t.deepEqual(covered.map((d) => d.name).sort(), ['customers', 'orders']);
  for (const d of covered) {
    const { column, first, last } = d.coverage!;
    const [[min, max]] = (await c.runAndReadAll(`SELECT min(${column})::VARCHAR, max(${column})::VARCHAR FROM ${d.name}`)).getRowsJson() as [[string, string]];
    t.deepEqual([first, last].map(String), [min, max], `${d.name}.${column}`);
  }
  c.closeSync();
  inst.closeSync();
});

test('seeding the demo creates the demo_warehouse connection once, and it answers governed queries', async (t) => {
  const app = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '500' });
  try {
    const s = app.app.services;
    t.true(existsSync(join(app.config.dataDir, 'warehouse', 'demo', 'demo.duckdb')), "in the demo organization's own folder");
    const { seedDemo } = await import('../../../src/compose/demo/seed-demo.ts');
    await seedDemo(s);
    const rows = s.store.sqlite!.prepare("SELECT id, type FROM connections WHERE org_id = 'demo'").all();
    t.deepEqual(rows, [{ id: 'demo_warehouse', type: 'duckdb' }]);
    const adminId = (s.store.sqlite!.prepare("SELECT user_id FROM memberships WHERE org_id = 'demo' AND role = 'admin'").get() as { user_id: string }).user_id;
    const principal = (await principalFor(s.executor, (await getUser(s.executor, adminId))!, 'demo', 'session', []))!;
    const r = await executeQuery(s.data, { principal, environmentId: undefined, connectionId: 'demo_warehouse', sql: 'SELECT count(*) FROM orders' });
    t.deepEqual(r.rows, [['500']]);
  } finally {
    await app.stop();
  }
});
