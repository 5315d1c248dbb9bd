// CSV exports of DuckDB connections through DuckDB's own CSV writer (copyDuckDbCsv), at DuckDB's rate.
// Safe because what reaches `COPY (...) TO <file>` is the governed statement: one SELECT after the
// guard and the caller's row filters, bound by the engine as a SELECT, in a session that is locked
// down (external access off, configuration locked) and may write only to a private, empty folder
// holding the file. Other warehouses return undefined: callers use streamQuery and writeCsv.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { AppError } from '../../errors.ts';
import { finished } from '../export/drain.ts';
import { getConnection } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import type { ColumnMeta, CsvCopy } from '../drivers/driver.ts';
import { failed, governStatement, type GovernedQueryArgs } from './stream-query.ts';

/** A governed CSV export, checked and ready: run it once, or cancel it. */
export interface GovernedCsvCopy {
  columns: ColumnMeta[];
  tables: string[];
  executedSql: string;
  /** Writes the CSV (CRLF, header) into `out`, ended when done; logs the query. */
  write(out: Writable, signal?: AbortSignal): Promise<{ rows: number; bytes: number }>;
  /** Releases the session without running the export. */
  cancel(): Promise<void>;
}

/** The fast CSV export of a governed query on a DuckDB connection; undefined for other warehouses. */
export async function copyQueryCsv(deps: DataDeps, args: Omit<GovernedQueryArgs, 'rowLimit'>): Promise<GovernedCsvCopy | undefined> {
  if (getConnection(deps.db, args.principal.orgId, args.connectionId).type !== 'duckdb') return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'sextant-export-'));
  let statement;
  try {
    // One engine thread: on 2 cores COPY ran faster at one thread than at two (bench/downloads.ts prints
    // both), as a second one competes with the gateway and the client, and it held ~100 MB more.
    statement = await governStatement(deps, { ...args, driverContext: { ...args.driverContext, exportDirectory: dir, threads: 1 } });
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const { driver, executedSql, tables, log, remainingMs } = statement;
  const release = async () => {
    await driver.close();
    await rm(dir, { recursive: true, force: true });
  };
  let copy: CsvCopy;
  try {
    if (!driver.csvCopy) throw new Error('The DuckDB driver has no CSV copy');
    copy = await driver.csvCopy(executedSql);
  } catch (err) {
    await failed(driver, log, err);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  let used = false;
  return {
    columns: copy.columns,
    tables,
    executedSql,
    async write(out, signal) {
      if (used) throw new Error('A governed CSV copy runs once');
      used = true;
      let stats: { rows: number; bytes: number };
      try {
        stats = await copy.run(out, signal, remainingMs());
      } catch (err) {
        await release();
        log('failed', 0, err instanceof AppError ? err.code : 'INTERNAL_ERROR');
        throw err;
      }
      await release();
      // Logged before the end reaches the client, so a finished download is always in the log.
      log('ok', stats.rows);
      out.end();
      await finished(out);
      return stats;
    },
    async cancel() {
      if (used) return;
      used = true;
      await release();
      log('ok', 0);
    },
  };
}
