// Replicas starting together on one database and one shared folder both seed the demo warehouse:
// both starts succeed, with one file and one connection between them.
import type { ExecutionContext } from 'ava';
import { sql } from 'kysely';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FakeClock } from '../../../src/clock.ts';
import { generateDemoWarehouse } from '../../../src/data/demo/generate-warehouse.ts';
import { seedDemoWarehouse } from '../../../src/data/demo/seed-demo-warehouse.ts';
import { createLogger } from '../../../src/log.ts';
import { createSecretBox } from '../../../src/security/index.ts';
import { dialectTest, type DialectCase } from '../../helpers/executors.ts';
import { tempDir } from '../warehouses.ts';

async function seedTwiceAtOnce(t: ExecutionContext, c: DialectCase, root: string) {
  await c.x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('demo', 'Demo', 0)`);
  const deps = { clock: new FakeClock(), secretBox: createSecretBox(Buffer.alloc(32, 1).toString('base64')), log: createLogger('silent'), fileRoots: [root], orders: 100 };
  await Promise.all([seedDemoWarehouse({ ...deps, store: c.x }, 'demo'), seedDemoWarehouse({ ...deps, store: c.other }, 'demo')]);
  t.deepEqual(readdirSync(join(root, 'demo')), ['demo.duckdb']);
  const rows = await c.x.all(sql`SELECT id FROM connections WHERE org_id = 'demo'`);
  t.deepEqual(rows, [{ id: 'demo_warehouse' }]);
}

dialectTest('two replicas seeding the demo warehouse at once both succeed, leaving one file and one connection', async (t, c) => {
  await seedTwiceAtOnce(t, c, tempDir());
});

dialectTest('two replicas finding the demo warehouse file both create its connection at once: both succeed, one connection', async (t, c) => {
  const root = tempDir();
  await generateDemoWarehouse(join(root, 'demo', 'demo.duckdb'), { customers: 50, products: 10, orders: 100 });
  await seedTwiceAtOnce(t, c, root);
});
