// The governed query pipeline every caller goes through (REST, agent, MCP, exports):
// connection in the caller's organization -> guard -> governed-source check -> row-level security
// and environment targets -> read-only driver session -> query log.
import { hasRole, type Principal } from '../../auth/index.ts';
import { AppError } from '../../errors.ts';
import { openConnection } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import type { Driver, DriverContext, RowStream } from '../drivers/driver.ts';
import { QueryCancelled, QueryRefused, QueryTimedOut, WarehouseBusy } from '../errors.ts';
import type { SqlDialect, SqlParam } from '../types.ts';
import type { GovernMemo } from './govern-memo.ts';
import { governSql } from './govern-sql.ts';
import { logQuery, type QueryStatus } from './query-log.ts';
import type { RequestReads } from './request-reads.ts';

export interface GovernedQueryArgs {
  principal: Principal;
  /** `X-Service-Environment`; undefined = production. */
  environmentId: string | undefined;
  connectionId: string;
  sql: string;
  /**
   * Values bound to placeholders the caller wrote into `sql` itself (a dashboard's filters); the
   * guard refuses a placeholder without one. Never a user's or the model's: they write no placeholders.
   */
  params?: readonly SqlParam[] | undefined;
  /** Stop after this many rows; undefined streams everything (exports). */
  rowLimit?: number;
  /** Who asked, for the log: `context_agent`, `execute_query`, `agent`, `mcp`, `export`... */
  source?: string;
  /** DuckDB: directories the session may read (a chat's uploads). */
  driverContext?: DriverContext;
  /** Aborting stops the query in the warehouse (the client went away, the run was stopped). */
  signal?: AbortSignal | undefined;
  /**
   * Governance reads the table docs (row filters, governed sources) at this commit: the one an
   * answer is pinned to. Default: the environment's head at the time of the query.
   */
  knowledgeCommit?: string | undefined;
  /** The request's reads, shared by its queries (a dashboard run's tiles); default: each query reads the store. */
  reads?: RequestReads | undefined;
}

/** Rows of a governed query; iterate `batches` once. The log entry is written when iteration ends. */
export interface GovernedStream extends RowStream {
  /** `schema.table` names the query reads (production identity). */
  tables: string[];
  /** The SQL sent to the warehouse (filters applied, targets resolved). */
  executedSql: string;
  /** The warehouse's dialect. */
  dialect: SqlDialect;
  /** True when the row limit cut the result short; final once iteration ended. */
  truncated(): boolean;
  /** The query log id; set once iteration ended. */
  queryId(): string | undefined;
}

/** A statement that passed governance, on an open driver; the caller closes the driver and logs once. */
export interface GovernedStatement {
  driver: Driver;
  executedSql: string;
  /** The values bound to `executedSql`'s placeholders, in order (row security keeps them in place). */
  params: readonly SqlParam[];
  tables: string[];
  /** Writes the query log entry and returns its id. */
  log(status: QueryStatus, rowCount: number, errorCode?: string): Promise<string>;
  /**
   * What is left of the query's time budget for the statement itself: waiting for a query process,
   * opening the warehouse and the checks spent the rest, so the whole request ends within it.
   */
  remainingMs(): number;
}

/** The query log entry of one caller's query, timed from `started`; `seen` fills in as governance learns. */
export function queryLogger(deps: DataDeps, args: GovernedQueryArgs, started: number, seen: { tables: string[]; dialect?: string }) {
  return (status: QueryStatus, rowCount: number, errorCode?: string) => {
    deps.observeQuery?.(seen.dialect ?? 'unopened', status, (performance.now() - started) / 1000);
    return logQuery(deps.store, deps.clock, {
      orgId: args.principal.orgId,
      userId: args.principal.userId,
      connectionId: args.connectionId,
      environmentId: args.environmentId,
      sql: args.sql,
      params: args.params,
      tables: seen.tables,
      status,
      ...(errorCode ? { errorCode } : {}),
      rowCount,
      durationMs: performance.now() - started,
      source: args.source ?? 'api',
    }, deps.logWrites);
  };
}

/** The arguments as governance reads them: regular users always see production (interface part 5), whatever header they send. */
export function narrowed(input: GovernedQueryArgs): GovernedQueryArgs {
  return { ...input, environmentId: hasRole(input.principal, 'modeler') ? input.environmentId : undefined };
}

/** Opens the connection and takes a query through guard, governed sources, row filters and targets. */
export async function governStatement(deps: DataDeps, input: GovernedQueryArgs, memo?: GovernMemo): Promise<GovernedStatement> {
  const started = performance.now();
  const args = narrowed(input);
  const seen: { tables: string[]; dialect?: string } = { tables: [] };
  const log = queryLogger(deps, args, started, seen);
  const ctx: DriverContext = { ...args.driverContext, owner: args.principal.userId, signal: args.signal, maxRecursion: deps.maxRecursion };
  let driver: Driver;
  let timeoutMs = deps.statementTimeoutMs;
  try {
    let connection;
    ({ driver, connection } = await openConnection({ ...deps }, args.principal.orgId, args.connectionId, ctx));
    timeoutMs = connection.settings.statementTimeoutMs ?? timeoutMs;
    seen.dialect = driver.dialect;
  } catch (err) {
    // A query stopped before it reached its warehouse (no process free in time, its time spent or
    // its caller gone while the warehouse opened) is logged like one stopped later.
    if (err instanceof QueryTimedOut || err instanceof QueryCancelled || err instanceof WarehouseBusy) await log('failed', 0, err.code);
    throw err;
  }
  try {
    // With a session open, governance always ends in a statement.
    const executedSql = (await governSql(deps, args, driver, seen, memo))!;
    const remainingMs = () => Math.max(1, Math.floor(timeoutMs - (performance.now() - started)));
    return { driver, executedSql, params: args.params ?? [], tables: seen.tables, log, remainingMs };
  } catch (err) {
    await failed(driver, log, err);
    throw err;
  }
}

/** Closes the driver and logs a refusal or failure. */
export async function failed(driver: Driver, log: GovernedStatement['log'], err: unknown): Promise<void> {
  await driver.close();
  await log(err instanceof QueryRefused ? 'refused' : 'failed', 0, err instanceof AppError ? err.code : 'INTERNAL_ERROR');
}

/** Runs a governed query and streams its rows; refusals and failures are logged, then thrown. */
export async function streamQuery(deps: DataDeps, input: GovernedQueryArgs): Promise<GovernedStream> {
  return streamGoverned(await governStatement(deps, input), input);
}

/** Streams the rows of a statement that passed governance; its driver is closed and the run logged once iteration ends. */
export async function streamGoverned(g: GovernedStatement, input: Pick<GovernedQueryArgs, 'rowLimit' | 'signal'>): Promise<GovernedStream> {
  const { driver, executedSql, params, tables, log, remainingMs } = g;
  let stream: RowStream;
  try {
    // The timeout is the connection's own setting, else SEXTANT_QUERY_TIMEOUT_MS, less what was spent opening.
    stream = await driver.stream(executedSql, { timeoutMs: remainingMs(), params, ...(input.signal ? { signal: input.signal } : {}) });
  } catch (err) {
    await failed(driver, log, err);
    throw err;
  }
  let truncated = false;
  let queryId: string | undefined;
  const limit = input.rowLimit;
  async function* batches() {
    let rows = 0;
    let status: 'ok' | 'failed' = 'ok';
    let code: string | undefined;
    try {
      for await (const batch of stream.batches) {
        if (limit !== undefined && rows + batch.length > limit) {
          truncated = true;
          const part = batch.slice(0, limit - rows);
          rows += part.length;
          if (part.length > 0) yield part;
          break;
        }
        rows += batch.length;
        yield batch;
      }
    } catch (err) {
      status = 'failed';
      code = err instanceof AppError ? err.code : 'INTERNAL_ERROR';
      throw err;
    } finally {
      // A reader that stopped because its client went away did not get the result: not an `ok`.
      if (status === 'ok' && input.signal?.aborted) [status, code] = ['failed', 'QUERY_CANCELLED'];
      await driver.close();
      queryId = await log(status, rows, code);
    }
  }
  return { columns: stream.columns, batches: batches(), tables, executedSql, dialect: driver.dialect, truncated: () => truncated, queryId: () => queryId };
}
