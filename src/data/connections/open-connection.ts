// Opens a driver for a stored connection, and the admin "test connection" check.
import { AppError } from '../../errors.ts';
import type { Driver, DriverContext } from '../drivers/driver.ts';
import type { QueryProcessPool } from '../drivers/process/query-process-pool.ts';
import { DRIVERS } from '../drivers/registry.ts';
import { resolveWarehouseFile } from './confine-path.ts';
import { connectionSecrets, type ConnectionDeps, type ConnectionView } from './connections.ts';
import { pinWarehouseHost } from './warehouse-host.ts';

type OpenDeps = Pick<ConnectionDeps, 'store' | 'secretBox' | 'fileRoots' | 'checkHost'> & { statementTimeoutMs?: number; queryProcesses?: QueryProcessPool };

/** Opens a driver for one of the organization's connections; the caller closes it. */
export async function openConnection(deps: OpenDeps, orgId: string, id: string, ctx: DriverContext = {}): Promise<{ driver: Driver; connection: ConnectionView }> {
  const { view, settings: stored } = await connectionSecrets(deps, orgId, id);
  let settings = stored;
  // The file is checked again now, links resolved: it may have changed on disk since it was saved.
  if (DRIVERS[view.type].kind === 'file') settings.path = resolveWarehouseFile(deps.fileRoots, orgId, settings.path);
  // The host too, whenever the row was saved: the driver connects to the address checked here.
  else settings = await pinWarehouseHost(deps.checkHost, stored);
  const driver = await DRIVERS[view.type].open({ statementTimeoutMs: deps.statementTimeoutMs, ...settings }, { queryProcesses: deps.queryProcesses, ...ctx });
  return { driver, connection: view };
}

export interface ConnectionTestResult {
  ok: boolean;
  /** Tables visible to the connection when it works. */
  table_count?: number;
  error?: string;
  /** The failure's code (WAREHOUSE_UNAVAILABLE, WAREHOUSE_PATH_REFUSED...) and its reason when it has one, for words a person reads. */
  code?: string;
  reason?: string;
  duration_ms: number;
}

/** Connects, pings and counts tables; failures come back as a value, not an error. */
export async function testConnection(deps: OpenDeps, orgId: string, id: string): Promise<ConnectionTestResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  let driver: Driver | undefined;
  try {
    driver = (await openConnection(deps, orgId, id)).driver;
    await driver.ping();
    const tables = await driver.introspect();
    return { ok: true, table_count: tables.length, duration_ms: ms() };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'CONNECTION_NOT_FOUND' || code === 'CONNECTION_HOST_REFUSED') throw err;
    const reason = err instanceof AppError ? err.data?.['reason'] : undefined;
    return { ok: false, error: (err as Error).message, ...(err instanceof AppError ? { code } : {}), ...(typeof reason === 'string' ? { reason } : {}), duration_ms: ms() };
  } finally {
    await driver?.close();
  }
}
