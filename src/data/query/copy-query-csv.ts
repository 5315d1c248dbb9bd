// CSV exports through the warehouse's own CSV writer, at its rate: DuckDB's (copyDuckDbCsv) and
// PostgreSQL's COPY TO STDOUT (drivers/postgres-csv-copy.ts). Safe because what reaches `COPY (...)` is
// the governed statement: one SELECT after the guard and the caller's row filters, bound by the engine
// as one query before it runs, in a read-only session (DuckDB's locked down, external access off, and
// allowed to write only to a private, empty folder holding the file). Other warehouses, and results
// PostgreSQL's COPY cannot write as the row writer does, return undefined: callers use streamQuery
// and writeCsv.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../errors.ts';
import { finished } from '../export/drain.ts';
import { getConnection } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import type { ColumnMeta, CsvCopy } from '../drivers/driver.ts';
import { exportThreads } from './export-threads.ts';
import { failed, governStatement, type GovernedQueryArgs } from './stream-query.ts';

/** A governed CSV export, checked and ready: run it once, or cancel it. */
export interface GovernedCsvCopy {
  columns: ColumnMeta[];
  tables: string[];
  executedSql: string;
  /**
   * Starts the export and waits for its first bytes, so that a query failing before it wrote anything
   * fails here with its typed error, while the caller can still answer a status. Optional.
   */
  start(signal?: AbortSignal): Promise<void>;
  /** Writes the CSV (CRLF, header) into `out`, ended when done; logs the query. */
  write(out: Writable, signal?: AbortSignal): Promise<{ rows: number; bytes: number }>;
  /** Releases the session without running the export. */
  cancel(): Promise<void>;
}

const COPY_WAREHOUSES = new Set(['duckdb', 'postgresql']);

/** The fast CSV export of a governed query; undefined where the row writer must write it. */
export async function copyQueryCsv(deps: DataDeps, args: Omit<GovernedQueryArgs, 'rowLimit'>): Promise<GovernedCsvCopy | undefined> {
  // The warehouses' own CSV writers take no bound values: such a statement goes through the row writer.
  if ((args.params?.length ?? 0) > 0) return undefined;
  const connection = await getConnection(deps, args.principal.orgId, args.connectionId);
  if (!COPY_WAREHOUSES.has(connection.type)) return undefined;
  const opened = await openCsvCopy(deps, args, await exportThreads(deps, args, connection));
  if (!opened) return undefined;
  const { copy, executedSql, tables, log, remainingMs, release } = opened;
  let used = false;
  let cancelled = false;
  async function run(out: Writable, signal: AbortSignal | undefined): Promise<{ rows: number; bytes: number }> {
    let stats: { rows: number; bytes: number };
    try {
      stats = await copy.run(out, signal, remainingMs());
    } catch (err) {
      await release();
      // A download the caller chose not to write ends as the row stream's does when left early.
      if (cancelled) await log('ok', 0);
      else await log('failed', 0, err instanceof AppError ? err.code : 'INTERNAL_ERROR');
      throw err;
    }
    await release();
    // Logged before the end reaches the client, so a finished download is always in the log.
    await log('ok', stats.rows);
    out.end();
    await finished(out);
    return stats;
  }
  // Started by `start` (or `write`): DuckDB writes into `buffer` until the caller's stream is there.
  let early: { buffer: PassThrough; done: Promise<{ rows: number; bytes: number }> } | undefined;
  const begin = (signal: AbortSignal | undefined) => {
    if (used) throw new Error('A governed CSV copy runs once');
    used = true;
    const buffer = new PassThrough();
    // The failure is `done`'s to report; the stream's own error event would have no one else to hear it.
    buffer.on('error', () => undefined);
    const done = run(buffer, signal);
    // Bytes already passed on: a late failure ends the caller's stream as failed, not as complete.
    done.catch((err: unknown) => buffer.destroy(err instanceof Error ? err : new Error(String(err))));
    early = { buffer, done };
    return early;
  };
  return {
    columns: copy.columns,
    tables,
    executedSql,
    async start(signal) {
      const { buffer, done } = begin(signal);
      const stop = new AbortController();
      try {
        await Promise.race([once(buffer, 'readable', { signal: stop.signal }), done]);
      } finally {
        stop.abort();
      }
    },
    async write(out, signal) {
      const { buffer, done } = early ?? begin(signal);
      // A destination that goes away destroys `buffer`, and the COPY then fails with its own typed error.
      const piping = pipeline(buffer, out);
      piping.catch(() => undefined);
      const stats = await done;
      await piping;
      return stats;
    },
    async cancel() {
      if (early) {
        cancelled = true;
        early.buffer.destroy(new Error('The download was cancelled'));
        await early.done.catch(() => undefined);
      }
      if (used) return;
      used = true;
      await release();
      await log('ok', 0);
    },
  };
}

/**
 * Governs the statement and opens the warehouse's COPY (DuckDB's into a private export folder);
 * `release` closes both. Undefined, with nothing logged, when the driver leaves this result to the row writer.
 */
async function openCsvCopy(deps: DataDeps, args: Omit<GovernedQueryArgs, 'rowLimit'>, threads: number) {
  const dir = await mkdtemp(join(tmpdir(), 'sextant-export-'));
  let statement;
  try {
    // Insertion order is kept at any thread count (export-threads.ts): dropping it would let a fenced
    // scan run in parallel (bench/downloads.ts measured it), but a download without ORDER BY would then
    // come in another order than the result the user saw.
    statement = await governStatement(deps, { ...args, driverContext: { ...args.driverContext, exportDirectory: dir, threads } });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const { driver, executedSql, tables, log, remainingMs } = statement;
  const release = async () => {
    await driver.close();
    await rm(dir, { recursive: true, force: true });
  };
  let copy: CsvCopy | undefined;
  try {
    if (!driver.csvCopy) throw new Error(`The ${driver.type} driver has no CSV copy`);
    copy = await driver.csvCopy(executedSql);
  } catch (err) {
    await failed(driver, log, err);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  if (!copy) {
    await release();
    return undefined;
  }
  return { copy, executedSql, tables, log, remainingMs, release };
}
