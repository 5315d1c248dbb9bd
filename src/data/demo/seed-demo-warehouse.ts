// The demo organization's warehouse: generated at first start into its own folder under the first
// warehouse root (`<root>/<org_id>/demo.duckdb`) and registered as the `demo_warehouse` connection.
// Idempotent.
import { join } from 'node:path';
import type { Clock } from '../../clock.ts';
import { Conflict } from '../../errors.ts';
import type { Logger } from '../../log.ts';
import type { SecretBox } from '../../security/index.ts';
import { createConnection } from '../connections/index.ts';
import { orgWarehouseFolders } from '../connections/confine-path.ts';
import type { DataStore } from '../tables.ts';
import { DEMO_SIZE, generateDemoWarehouse } from './generate-warehouse.ts';

export const DEMO_CONNECTION_ID = 'demo_warehouse';
const DEMO_FILE = 'demo.duckdb';

/** Generates the demo warehouse file if missing and creates its connection in `orgId` if missing. */
export async function seedDemoWarehouse(
  deps: { store: DataStore; clock: Clock; secretBox: SecretBox; log: Logger; fileRoots: string[]; orders?: number },
  orgId: string,
): Promise<void> {
  const folder = orgWarehouseFolders(deps.fileRoots, orgId)[0];
  if (!folder) {
    deps.log.warn({ org_id: orgId }, 'no demo warehouse: SEXTANT_WAREHOUSE_ROOTS is empty');
    return;
  }
  const path = join(folder, DEMO_FILE);
  const orders = deps.orders ?? DEMO_SIZE.orders;
  const size = { ...DEMO_SIZE, orders, customers: Math.max(50, Math.round((DEMO_SIZE.customers * orders) / DEMO_SIZE.orders)) };
  const started = performance.now();
  if (await generateDemoWarehouse(path, size)) deps.log.info({ path, ms: Math.round(performance.now() - started), ...size }, 'generated the demo warehouse');
  const { store } = deps;
  const exists = await store.one(store.db.selectFrom('connections').select('id').where('org_id', '=', orgId).where('id', '=', DEMO_CONNECTION_ID));
  if (exists) return;
  await createConnection(deps, orgId, null, { id: DEMO_CONNECTION_ID, name: 'Demo warehouse', type: 'duckdb', settings: { path: DEMO_FILE, schema: 'main' } }).catch((err: unknown) => {
    // A replica seeding at the same moment created it first.
    if (!(err instanceof Conflict && err.code === 'CONNECTION_EXISTS')) throw err;
  });
}
