import type { Clock } from '../clock.ts';
import type { CheckHost } from '../outbound/index.ts';
import type { SecretBox } from '../security/index.ts';
import type { CommitGroup } from '../store/index.ts';
import type { QueryProcessPool } from './drivers/process/query-process-pool.ts';
import type { SqlTools } from './guard/index.ts';
import type { DataStore } from './tables.ts';
import type { TableDocsSource } from './types.ts';

/** What data-plane operations need; built once in the composition root. */
export interface DataDeps {
  /** The service database (connections, query log, row-security facts, relations) on either dialect. */
  store: DataStore;
  clock: Clock;
  secretBox: SecretBox;
  /** Parse-only DuckDB session for the DuckDB guard and rewriting. */
  tools: SqlTools;
  docs: TableDocsSource;
  /** Folders DuckDB and SQLite connection files may live in. */
  fileRoots: string[];
  /** Warehouse hosts obey the outbound address policy (SEXTANT_OUTBOUND_ALLOW); absent, only public addresses pass. */
  checkHost?: CheckHost;
  /** Time a query may keep its warehouse busy (SEXTANT_QUERY_TIMEOUT_MS). */
  statementTimeoutMs: number;
  /** Where DuckDB and SQLite statements run: processes the gateway can stop at any time. */
  queryProcesses: QueryProcessPool;
  /** Recursive CTE iterations where the warehouse can cap them (MariaDB, MySQL). */
  maxRecursion: number;
  /** Rows returned by the context-agent query when the caller sets no limit. */
  defaultRowLimit: number;
  /** Told the engine, outcome and duration of every governed query (metrics). */
  observeQuery?: (engine: string, status: string, seconds: number) => void;
  /** Query-log writes of one turn of the event loop committed together; absent, each commits alone. */
  logWrites?: CommitGroup;
}
