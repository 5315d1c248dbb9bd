// Queries over a chat's uploaded files, on the query processes like warehouse queries: the DuckDB
// that reads the files runs in a leased process (upload-session.ts), under the same budget (timeout,
// the caller's disconnect) and stopped the same way (the process is killed), so a `repeat()` or a
// cartesian product over an upload never holds the gateway's event loop.
import { QueryFailed } from '../errors.ts';
import { DEFAULT_QUERY_MEMORY_MB } from '../drivers/driver.ts';
import { QueryProcessPool } from '../drivers/process/query-process-pool.ts';
import { QueryBudget } from '../drivers/query-budget.ts';
import { UploadQueryFailed, UploadQueryRefused } from './errors.ts';
import type { UploadQueryResult } from './upload-types.ts';

export interface UploadQueryOptions {
  /** Default 10,000. */
  maxRows?: number;
  /** The query is stopped after this long; default 30 s. */
  timeoutMs?: number;
  /** Workbooks are parsed in memory (about 20x their size): larger ones are not loaded. Default 20 MB. */
  maxXlsxBytes?: number;
  /** The gateway's query processes; without them (scripts, tests) the query brings its own process. */
  processes?: QueryProcessPool | undefined;
  /** Whose query it is (the pool's fair share). */
  owner?: string | undefined;
  /** The caller went away: the query is stopped. */
  signal?: AbortSignal | undefined;
}

/** Runs one SELECT over the data files of `sessionDir` (each file is a table named after it). */
export async function queryUploads(sessionDir: string, sql: string, options: UploadQueryOptions = {}): Promise<UploadQueryResult> {
  const { maxRows = 10_000, timeoutMs = 30_000, maxXlsxBytes = 20 * 1024 * 1024, signal } = options;
  const pool = options.processes ?? new QueryProcessPool({ max: 1, maxIdle: 0, memoryMb: DEFAULT_QUERY_MEMORY_MB });
  const proc = await pool.lease({ owner: options.owner, waitMs: timeoutMs, signal, engine: 'duckdb' });
  const budget = new QueryBudget({ timeoutMs, signal, stop: () => proc.kill() });
  try {
    const reply = await budget.track(proc.call({ op: 'uploads', sessionDir, sql, maxRows, maxXlsxBytes }));
    if ('refused' in reply) throw new UploadQueryRefused(reply.refused);
    return reply.result;
  } catch (err) {
    // The engine's failures read as the upload's; stops, memory and a lost process keep their own codes.
    if (err instanceof QueryFailed && proc.alive) throw new UploadQueryFailed(err.message);
    throw err;
  } finally {
    budget.dispose();
    pool.release(proc, proc.alive && proc.idle && !budget.stopReason);
    if (!options.processes) await pool.close();
  }
}
