// Governed queries whose statement is the same, run once. Every caller passes the guard, the
// governed-source check and row security on its own, so each gets exactly the statement its own
// permissions produce; callers whose resulting statement (on the same connection of the same
// organization, with the same row limit) is already running share that execution and its rows.
// A dashboard opened by many viewers at once asks the same tiles: only warehouse work is shared,
// never rows of a statement the caller's own governance did not produce. Every caller's query is
// logged as theirs. The execution stops when every caller sharing it has gone.
//
// Governance runs before a query process is taken, whenever the connection's default schema is known
// from an earlier session under the same settings (and the environment does not retarget it): so
// only the one caller that starts an execution waits for a process and opens the warehouse, and the
// execution checks that the warehouse still has the dialect and schema the statement was governed for.
import type { Clock } from '../../clock.ts';
import { AppError } from '../../errors.ts';
import { openConnection } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import type { ColumnMeta, Driver } from '../drivers/driver.ts';
import { DRIVERS } from '../drivers/registry.ts';
import { QueryRefused } from '../errors.ts';
import { governMemo, type GovernMemo } from './govern-memo.ts';
import { governSql } from './govern-sql.ts';
import { recentResults, type RecentResults } from './recent-results.ts';
import { directReads } from './request-reads.ts';
import { governStatement, narrowed, queryLogger, streamGoverned, type GovernedQueryArgs, type GovernedStatement } from './stream-query.ts';

export interface SharedRows {
  columns: ColumnMeta[];
  rows: unknown[][];
  truncated: boolean;
  /** True when the rows came from an execution another caller started. */
  shared: boolean;
  /** When the statement was sent to the warehouse (clock ms): a caller who joined later got rows read then. */
  readAt: number;
}

type Collected = Omit<SharedRows, 'shared'>;
type Log = GovernedStatement['log'];

interface Execution {
  result: Promise<Collected>;
  /** Callers still waiting; when the last one leaves, the execution stops. */
  waiters: number;
  stop: AbortController;
}

/** Running executions and recent results by statement, what sessions told of each connection, kept governance: one per process, built once by compose. */
export interface SharedExecutions {
  running: Map<string, Execution>;
  results: RecentResults;
  /** A connection's default schema as its last session reported it, under the settings it was opened with. */
  schemas: Map<string, { settings: string; schema: string }>;
  memo: GovernMemo;
}

/** An empty set, on `clock` (for the age of recent results). */
export const sharedExecutions = (clock: Clock): SharedExecutions => ({ running: new Map(), results: recentResults(clock), schemas: new Map(), memo: governMemo() });

/** The warehouse was not what the statement was governed for (its settings changed meanwhile): govern again. */
class StalePlan extends Error {}

async function collect(deps: DataDeps, g: GovernedStatement, rowLimit: number, signal: AbortSignal): Promise<Collected> {
  const readAt = deps.clock.now();
  const stream = await streamGoverned(g, { rowLimit, signal });
  const rows: unknown[][] = [];
  for await (const batch of stream.batches) rows.push(...batch);
  return { columns: stream.columns, rows, truncated: stream.truncated(), readAt };
}

const logFailure = (log: Log, err: unknown) => log(err instanceof QueryRefused ? 'refused' : 'failed', 0, err instanceof AppError ? err.code : 'INTERNAL_ERROR');

/** Waits for an execution as one more caller; `log` records the caller's own query. */
async function join(e: Execution, signal: AbortSignal | undefined, log?: Log): Promise<Collected> {
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
    if (log && !(err instanceof StalePlan)) await logFailure(log, err);
    throw err;
  } finally {
    signal?.removeEventListener('abort', leave);
  }
}

/** An execution callers may still join: not one every caller has left, which is stopping. */
const live = (e: Execution | undefined) => (e && !e.stop.signal.aborted ? e : undefined);

/** A recent result, as one more caller's rows. */
async function served(r: Collected, log: Log | undefined): Promise<SharedRows> {
  await log?.('ok', r.rows.length);
  return { ...r, shared: true };
}

/** Starts an execution of `key` that later callers may join, and keeps its result for a few seconds. */
async function begin(shared: SharedExecutions, key: string, signal: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<Collected>, log?: Log): Promise<SharedRows> {
  const stop = new AbortController();
  const mine: Execution = { waiters: 0, stop, result: start(stop.signal) };
  shared.running.set(key, mine);
  const done = () => {
    if (shared.running.get(key) === mine) shared.running.delete(key);
  };
  mine.result.then(done, done);
  const r = await join(mine, signal, log);
  shared.results.put(key, r);
  return { ...r, shared: false };
}

const connectionKey = (args: GovernedQueryArgs) => JSON.stringify([args.principal.orgId, args.connectionId]);
/**
 * What determines a statement's rows: the organization's connection under its settings, the row limit,
 * the session's context, the governed text and its bound values (the same text with other filter
 * values is another statement).
 */
const statementKey = (args: GovernedQueryArgs, settings: string, rowLimit: number, sql: string) => JSON.stringify([args.principal.orgId, args.connectionId, settings, rowLimit, args.driverContext ?? null, sql, args.params ?? []]);

function learn(shared: SharedExecutions, args: GovernedQueryArgs, settings: string, driver: Driver): void {
  shared.schemas.set(connectionKey(args), { settings, schema: driver.defaultSchema });
}

interface Plan {
  executedSql: string;
  tables: string[];
  log: Log;
  dialect: string;
  defaultSchema: string;
  remainingMs(): number;
}

/** Governs the statement before any process is taken; `settings` alone when that cannot be done yet. */
async function plan(deps: DataDeps, shared: SharedExecutions, input: GovernedQueryArgs): Promise<{ settings: string; plan?: Plan }> {
  const started = performance.now();
  const args = narrowed(input);
  const connection = await (args.reads ?? directReads).connection(deps, args.principal.orgId, args.connectionId);
  const settings = JSON.stringify([connection.type, connection.settings]);
  const known = shared.schemas.get(connectionKey(args));
  if (args.driverContext || !known || known.settings !== settings) return { settings };
  const wh = { dialect: DRIVERS[connection.type].dialect, defaultSchema: known.schema };
  const seen = { tables: [] as string[], dialect: wh.dialect };
  const log = queryLogger(deps, args, started, seen);
  let executedSql: string | undefined;
  try {
    executedSql = await governSql(deps, args, wh, seen, shared.memo);
  } catch (err) {
    await logFailure(log, err);
    throw err;
  }
  if (executedSql === undefined) return { settings };
  const timeoutMs = connection.settings.statementTimeoutMs ?? deps.statementTimeoutMs;
  const remainingMs = () => Math.max(1, Math.floor(timeoutMs - (performance.now() - started)));
  return { settings, plan: { executedSql, tables: seen.tables, log, ...wh, remainingMs } };
}

/** The execution of a planned statement: a process, the warehouse opened, checked to be the one planned for, the rows. */
async function runPlanned(deps: DataDeps, shared: SharedExecutions, args: GovernedQueryArgs, p: Plan & { settings: string; rowLimit: number }, signal: AbortSignal): Promise<Collected> {
  const ctx = { owner: args.principal.userId, signal, maxRecursion: deps.maxRecursion };
  const { driver } = await openConnection({ ...deps }, args.principal.orgId, args.connectionId, ctx);
  learn(shared, args, p.settings, driver);
  if (driver.dialect !== p.dialect || driver.defaultSchema !== p.defaultSchema) {
    await driver.close();
    throw new StalePlan();
  }
  // Each caller logs its own query when the rows arrive.
  const g: GovernedStatement = { driver, executedSql: p.executedSql, params: args.params ?? [], tables: p.tables, log: async () => '', remainingMs: p.remainingMs };
  return collect(deps, g, p.rowLimit, signal);
}

/** Where a statement's rows come from: a recent result, a running execution, or one started by `start`. */
async function obtain(shared: SharedExecutions, key: string, opts: ShareOptions & { log: Log; start: (signal: AbortSignal) => Promise<Collected> }): Promise<SharedRows> {
  const recent = opts.fresh ? undefined : shared.results.get(key);
  if (recent) return served(recent, opts.log);
  const running = opts.fresh ? undefined : live(shared.running.get(key));
  if (running) return { ...(await join(running, opts.signal, opts.log)), shared: true };
  return begin(shared, key, opts.signal, opts.start, opts.log);
}

/** Governance with a session open first (a connection not seen yet, an environment's targets), then shared as above. */
async function executeOpened(deps: DataDeps, shared: SharedExecutions, args: GovernedQueryArgs, settings: string, opts: ShareOptions & { rowLimit: number }): Promise<SharedRows> {
  const g = await governStatement(deps, args, shared.memo);
  learn(shared, args, settings, g.driver);
  const key = statementKey(args, settings, opts.rowLimit, g.executedSql);
  const recent = opts.fresh ? undefined : shared.results.get(key);
  const running = opts.fresh ? undefined : live(shared.running.get(key));
  // The statement's own stream writes its log entry.
  if (!recent && !running) return begin(shared, key, opts.signal, (signal) => collect(deps, g, opts.rowLimit, signal));
  // Joined before the session closes, so the execution cannot end for want of callers meanwhile.
  const rows = recent ? served(recent, g.log) : join(running!, opts.signal, g.log).then((r) => ({ ...r, shared: true }));
  const [r] = await Promise.all([rows, g.driver.close()]);
  return r;
}

export interface ShareOptions {
  /** Read afresh (a refresh): no recent result, no execution that began earlier; later callers may share this one. */
  fresh?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * Runs a governed query collected into memory (default row limit: the configured one): a result of
 * the same statement read in the last seconds, or an identical running execution, serves it.
 */
export async function executeShared(deps: DataDeps, shared: SharedExecutions, args: GovernedQueryArgs & { fresh?: boolean | undefined }, retried = false): Promise<SharedRows> {
  const opts = { rowLimit: args.rowLimit ?? deps.defaultRowLimit, fresh: args.fresh, signal: args.signal };
  const { settings, plan: p } = await plan(deps, shared, args);
  if (!p || retried) return executeOpened(deps, shared, args, settings, opts);
  try {
    return await obtain(shared, statementKey(args, settings, opts.rowLimit, p.executedSql), { ...opts, log: p.log, start: (signal) => runPlanned(deps, shared, args, { ...p, settings, rowLimit: opts.rowLimit }, signal) });
  } catch (err) {
    if (err instanceof StalePlan) return executeShared(deps, shared, args, true);
    throw err;
  }
}
