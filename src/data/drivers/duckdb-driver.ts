// DuckDB warehouse files, in a locked-down session of a query process (process/duckdb-session.ts).
// Not in the gateway's own process: `interrupt()` is checked between vectors, and one vector of huge
// strings took 12 s and 4 GB past DuckDB's memory limit; a process can be killed at the deadline.
import type { ConnectionSettings, Driver, DriverContext } from './driver.ts';
import { openProcessDriver } from './process/process-driver.ts';

/** Opens a locked-down DuckDB session over a warehouse file (or an empty in-memory catalog). */
export function openDuckDb(settings: ConnectionSettings, ctx: DriverContext = {}): Promise<Driver> {
  return openProcessDriver('duckdb', settings, ctx);
}
