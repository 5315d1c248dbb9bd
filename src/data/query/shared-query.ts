// Governed queries whose statement is the same, run once. Every caller passes the guard, the
// governed-source check and row security on its own, so each gets exactly the statement its own
// permissions produce; callers whose resulting statement (on the same connection of the same
// organization, with the same row limit) is already running share that execution and its rows.
// A dashboard opened by many viewers at once asks the same tiles: only warehouse work is shared,
// never rows of a statement the caller's own governance did not produce. Every caller's query is
// logged as theirs. The execution stops when every caller sharing it has gone.
import { AppError } from '../../errors.ts';
import type { DataDeps } from '../deps.ts';
import type { ColumnMeta } from '../drivers/driver.ts';
import { QueryRefused } from '../errors.ts';
import { governStatement, streamGoverned, type GovernedQueryArgs, type GovernedStatement } from './stream-query.ts';

export interface SharedRows {
  columns: ColumnMeta[];
  rows: unknown[][];
  truncated: boolean;
  /** True when the rows came from an execution another caller started. */
  shared: boolean;
}

interface Execution {
  result: Promise<Omit<SharedRows, 'shared'>>;
  /** Callers still waiting; when the last one leaves, the execution stops. */
  waiters: number;
  stop: AbortController;
}

/** The executions running now, by statement: one per process, built once by compose. */
export type SharedExecutions = Map<string, Execution>;

export const sharedExecutions = (): SharedExecutions => new Map();

async function collect(g: GovernedStatement, rowLimit: number, signal: AbortSignal) {
  const stream = await streamGoverned(g, { rowLimit, signal });
  const rows: unknown[][] = [];
  for await (const batch of stream.batches) rows.push(...batch);
  return { columns: stream.columns, rows, truncated: stream.truncated() };
}

/** Waits for an execution as one more caller; `log` records the caller's own query. */
async function join(e: Execution, signal: AbortSignal | undefined, log?: GovernedStatement['log']) {
  e.waiters++;
  const leave = () => {
    if (--e.waiters === 0) e.stop.abort();
  };
  if (signal?.aborted) leave();
  else signal?.addEventListener('abort', leave, { once: true });
  try {
    const r = await e.result;
    await log?.('ok', r.rows.length);
    return r;
  } catch (err) {
    await log?.(err instanceof QueryRefused ? 'refused' : 'failed', 0, err instanceof AppError ? err.code : 'INTERNAL_ERROR');
    throw err;
  } finally {
    signal?.removeEventListener('abort', leave);
  }
}

/** Runs a governed query collected into memory (default row limit: the configured one), sharing an identical running execution. */
export async function executeShared(deps: DataDeps, running: SharedExecutions, args: GovernedQueryArgs): Promise<SharedRows> {
  const rowLimit = args.rowLimit ?? deps.defaultRowLimit;
  const g = await governStatement(deps, args);
  // The bound values are part of the statement: the same text with other filter values is another one.
  const key = JSON.stringify([args.principal.orgId, args.connectionId, rowLimit, g.executedSql, g.params]);
  const other = running.get(key);
  // An execution every caller has left is stopping: start afresh rather than share its cancellation.
  if (other && !other.stop.signal.aborted) {
    await g.driver.close();
    return { ...(await join(other, args.signal, g.log)), shared: true };
  }
  const stop = new AbortController();
  const mine: Execution = { waiters: 0, stop, result: collect(g, rowLimit, stop.signal) };
  running.set(key, mine);
  const done = () => {
    if (running.get(key) === mine) running.delete(key);
  };
  mine.result.then(done, done);
  return { ...(await join(mine, args.signal)), shared: false };
}
