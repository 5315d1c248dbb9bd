// DuckDB's own `COPY ... TO` CSV: the reference the download paths are held against, measured in the
// same run. It runs at one thread (as download sessions do) and at the driver's usual two, each in a
// fresh instance as a download opens one, and the faster of the two is the reference: a shared,
// busy machine can make either setting the slower, and the reference must never be the weaker one.
import { DuckDBInstance } from '@duckdb/node-api';
import { statSync } from 'node:fs';
import { duckDbCsvCopySql } from '../src/data/export/index.ts';
import { OPTIMIZATION_FENCE } from '../src/data/guard/table-ref.ts';

export const REFERENCE_THREADS = [1, 2] as const;
/** Each timed method runs this many times; its median time is reported (single runs on a shared VM vary ~1.5x). */
export const REPEATS = 3;

/** One measured method: times and the process's RSS (bytes) at its start and peak. */
export interface RawMeasure {
  method: string;
  rows: number;
  seconds: number;
  peakRss: number;
  startRss: number;
  bytes: number;
}

export type Measured = <T>(fn: () => Promise<T>) => Promise<{ value: T; seconds: number; peakRss: number; startRss: number }>;

/** Runs `once` REPEATS times: the run with the median time, with the highest peak RSS of all runs. */
export async function medianOf(once: () => Promise<RawMeasure>): Promise<RawMeasure> {
  const runs: RawMeasure[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await once());
  const median = [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(REPEATS / 2)]!;
  const peak = runs.reduce((a, b) => (b.peakRss - b.startRss > a.peakRss - a.startRss ? b : a));
  return { ...median, method: `${median.method}, median of ${REPEATS}`, peakRss: peak.peakRss, startRss: peak.startRss };
}

/** COPYs `sql` to `file` per thread count (median of REPEATS); `attach` is a warehouse file to read from as `wh`. */
export async function copyReferences(measured: Measured, { sql, file, rows, attach }: { sql: string; file: string; rows: number; attach?: string }): Promise<RawMeasure[]> {
  const results: RawMeasure[] = [];
  for (const threads of REFERENCE_THREADS) {
    const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
    const conn = await instance.connect();
    try {
      if (attach) await conn.run(`ATTACH '${attach}' AS wh (READ_ONLY)`);
      const method = `DuckDB COPY ... TO csv, ${threads} thread${threads > 1 ? 's' : ''} (reference)`;
      results.push(
        await medianOf(async () => {
          const cpu0 = process.cpuUsage();
          const c = await measured(() => conn.run(`COPY (${sql}) TO '${file}' (FORMAT csv, HEADER)`));
          const cpu = process.cpuUsage(cpu0);
          console.log(`${method}: CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, wall ${(c.seconds * 1000).toFixed(0)} ms`);
          return { method, rows, seconds: c.seconds, peakRss: c.peakRss, startRss: c.startRss, bytes: statSync(file).size };
        }),
      );
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }
  return results;
}

export const BOUND_METHOD = "DuckDB alone: the download's COPY, 1 thread, insertion order kept (bound)";

/**
 * The hardware and DuckDB bound of the governed download: DuckDB alone running the COPY the gateway's
 * query process runs (the row filter in its fenced subquery as the guard rewrites it, text neutralised,
 * CRLF, one thread and insertion order kept as the download runs it), into a file, with no gateway, socket or client.
 */
export async function governedCopyBound(measured: Measured, { file, rows, attach, table, rowFilter }: { file: string; rows: number; attach: string; table: string; rowFilter: string }): Promise<RawMeasure> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  try {
    await conn.run(`ATTACH '${attach}' AS wh (READ_ONLY)`);
    await conn.run('USE wh');
    const sql = `SELECT * FROM (SELECT * FROM main.${table} WHERE (${rowFilter})${OPTIMIZATION_FENCE.duckdb}) AS ${table}`;
    const prepared = await conn.prepare(sql);
    const columns = Array.from({ length: prepared.columnCount }, (_, i) => ({ name: prepared.columnName(i), type: String(prepared.columnType(i)) }));
    prepared.destroySync();
    const copy = duckDbCsvCopySql({ sql, columns, file, newLine: 'crlf' });
    return await medianOf(async () => {
      const cpu0 = process.cpuUsage();
      const c = await measured(() => conn.run(copy));
      const cpu = process.cpuUsage(cpu0);
      console.log(`${BOUND_METHOD}: CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, wall ${(c.seconds * 1000).toFixed(0)} ms`);
      return { method: BOUND_METHOD, rows, seconds: c.seconds, peakRss: c.peakRss, startRss: c.startRss, bytes: statSync(file).size };
    });
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** The reference: the fastest COPY measured. */
export function fastestCopy<T extends { method: string; seconds: number }>(results: T[]): T | undefined {
  return results.filter((r) => r.method.startsWith('DuckDB COPY')).sort((a, b) => a.seconds - b.seconds)[0];
}
