// DuckDB's own `COPY ... TO` CSV: the reference the download paths are held against, measured in the
// same run. It runs at one thread (as download sessions do) and at the driver's usual two, each in a
// fresh instance as a download opens one, and the faster of the two is the reference: a shared,
// busy machine can make either setting the slower, and the reference must never be the weaker one.
import { DuckDBInstance } from '@duckdb/node-api';
import { statSync } from 'node:fs';

export const REFERENCE_THREADS = [1, 2] as const;

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

/** COPYs `sql` to `file` once per thread count; `attach` is a warehouse file to read from as `wh`. */
export async function copyReferences(measured: Measured, { sql, file, rows, attach }: { sql: string; file: string; rows: number; attach?: string }): Promise<RawMeasure[]> {
  const results: RawMeasure[] = [];
  for (const threads of REFERENCE_THREADS) {
    const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
    const conn = await instance.connect();
    try {
      if (attach) await conn.run(`ATTACH '${attach}' AS wh (READ_ONLY)`);
      const c = await measured(() => conn.run(`COPY (${sql}) TO '${file}' (FORMAT csv, HEADER)`));
      results.push({ method: `DuckDB COPY ... TO csv, ${threads} thread${threads > 1 ? 's' : ''} (reference)`, rows, seconds: c.seconds, peakRss: c.peakRss, startRss: c.startRss, bytes: statSync(file).size });
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }
  return results;
}

/** The reference: the fastest COPY measured. */
export function fastestCopy<T extends { method: string; seconds: number }>(results: T[]): T | undefined {
  return results.filter((r) => r.method.startsWith('DuckDB COPY')).sort((a, b) => a.seconds - b.seconds)[0];
}
