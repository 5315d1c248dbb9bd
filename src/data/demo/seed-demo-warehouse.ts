// The demo organization's warehouse: generated at first start into <dataDir>/warehouse/demo.duckdb
// and registered as the `demo_warehouse` connection. Idempotent.
import { join } from 'node:path';
import type { Clock } from '../../clock.ts';
import type { Logger } from '../../log.ts';
import type { SecretBox } from '../../security/index.ts';
import type { Db } from '../../store/index.ts';
import { createConnection } from '../connections/index.ts';
import { DEMO_SIZE, generateDemoWarehouse } from './generate-warehouse.ts';

export const DEMO_CONNECTION_ID = 'demo_warehouse';

/** Generates the demo warehouse file if missing and creates its connection in `orgId` if missing. */
export async function seedDemoWarehouse(
  deps: { db: Db; clock: Clock; secretBox: SecretBox; log: Logger; dataDir: string; fileRoots: string[]; orders?: number },
  orgId: string,
): Promise<void> {
  const path = join(deps.dataDir, 'warehouse', 'demo.duckdb');
  const orders = deps.orders ?? DEMO_SIZE.orders;
  const size = { ...DEMO_SIZE, orders, customers: Math.max(50, Math.round((DEMO_SIZE.customers * orders) / DEMO_SIZE.orders)) };
  const started = performance.now();
  if (await generateDemoWarehouse(path, size)) deps.log.info({ path, ms: Math.round(performance.now() - started), ...size }, 'generated the demo warehouse');
  const exists = deps.db.prepare('SELECT 1 FROM connections WHERE org_id = ? AND id = ?').get(orgId, DEMO_CONNECTION_ID);
  if (exists) return;
  // The demo file is always allowed, even if SEXTANT_WAREHOUSE_ROOTS points elsewhere.
  createConnection({ ...deps, fileRoots: [...deps.fileRoots, join(deps.dataDir, 'warehouse')] }, orgId, null, {
    id: DEMO_CONNECTION_ID,
    name: 'Demo warehouse',
    type: 'duckdb',
    settings: { path, schema: 'main' },
  });
}
