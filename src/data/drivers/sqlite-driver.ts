// SQLite files, opened read-only (and query_only) in a query process: better-sqlite3 is synchronous
// and SQLite cannot be interrupted from JavaScript, so a statement on the event loop would hold the
// whole gateway until it ends (a recursive CTE never does). See process/process-driver.ts.
import type { ConnectionSettings, Driver, DriverContext } from './driver.ts';
import { openProcessDriver } from './process/process-driver.ts';

/** Opens a SQLite file read-only in a query process; the file must exist. */
export function openSqlite(settings: ConnectionSettings, ctx: DriverContext = {}): Promise<Driver> {
  return openProcessDriver('sqlite', settings, ctx);
}
