// One export path of bench/downloads.ts, measured in a process of its own so that its peak RSS is the
// export's and not the bench's seeding: started by the bench with tsx, it loads only what the path
// needs, reads its RSS once ready (the start), runs the export into a file, and prints one JSON line
// (a RawMeasure). Usage: download-child.ts <method> <rows> <file> [<PostgreSQL database>].
// Methods: csv (DuckDB stream -> RowBatch -> writeCsv), copy (copyDuckDbCsv, one thread), xlsx (DuckDB
// stream -> RowBatch -> writeXlsx), pg-copy (PostgreSQL's own COPY ... TO STDOUT, the reference), pg-csv
// (the PostgreSQL driver's CSV export as downloads run it: csvCopy, else the cursor and writeCsv).
import { createWriteStream, statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { RawMeasure } from './copy-reference.ts';
import { ordersQuery, PG_ORDERS } from './download-queries.ts';

const [method, rowsArg, file, database] = process.argv.slice(2);
if (!method || !rowsArg || !file) throw new Error('usage: download-child.ts <method> <rows> <file> [<database>]');
const rows = Number(rowsArg);
const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', database };

/** Prepares the path (modules loaded, warehouse open) and returns the export to time. */
async function prepare(): Promise<{ run: (out: Writable) => Promise<number>; close: () => Promise<void> }> {
  if (method === 'pg-copy') {
    const { default: pg } = await import('pg');
    const { to } = await import('pg-copy-streams');
    const { pipeline } = await import('node:stream/promises');
    const client = new pg.Client(PG);
    await client.connect();
    return {
      run: async (out) => {
        const copy = client.query(to(`COPY (${PG_ORDERS}) TO STDOUT WITH (FORMAT csv, HEADER)`));
        await pipeline(copy, out);
        return copy.rowCount;
      },
      close: () => client.end(),
    };
  }
  if (method === 'pg-csv') {
    const { openPostgres } = await import('../src/data/drivers/postgres-driver.ts');
    const { writeCsv } = await import('../src/data/export/index.ts');
    const driver = await openPostgres(PG);
    return {
      run: async (out) => {
        const copy = await driver.csvCopy?.(PG_ORDERS);
        if (copy) {
          const { rows: n } = await copy.run(out);
          out.end();
          return n;
        }
        const s = await driver.stream(PG_ORDERS);
        const batches = (async function* () {
          for await (const r of s.batches) yield { columns: s.columns, rows: r };
        })();
        return (await writeCsv(batches, s.columns, out)).rows;
      },
      close: () => driver.close(),
    };
  }
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const { copyDuckDbCsv, duckDbBatches, duckDbColumns, writeCsv, writeXlsx } = await import('../src/data/export/index.ts');
  // As a download session runs COPY: one engine thread; the streamed paths at the driver's two.
  const instance = await DuckDBInstance.create(':memory:', { threads: method === 'copy' ? '1' : '2' });
  const conn = await instance.connect();
  const sql = ordersQuery(rows);
  const close = async () => {
    conn.closeSync();
    instance.closeSync();
  };
  if (method === 'copy') {
    const { tmpdir } = await import('node:os');
    const prepared = await conn.prepare(sql);
    const columns = Array.from({ length: prepared.columnCount }, (_, i) => ({ name: prepared.columnName(i), type: String(prepared.columnType(i)) }));
    return { run: async (out) => (await copyDuckDbCsv({ conn, sql, columns, dir: tmpdir(), out })).rows, close };
  }
  const write = method === 'xlsx' ? writeXlsx : method === 'csv' ? writeCsv : undefined;
  if (!write) throw new Error(`unknown method ${method}`);
  return {
    run: async (out) => {
      const result = await conn.stream(sql);
      return (await write(duckDbBatches(result), duckDbColumns(result), out)).rows;
    },
    close,
  };
}

const path = await prepare();
const startRss = process.memoryUsage.rss();
let peakRss = startRss;
const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 10);
const started = process.hrtime.bigint();
const cpu = process.cpuUsage();
const out = createWriteStream(file);
const count = await path.run(out);
if (!out.writableFinished) await finished(out);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const used = process.cpuUsage(cpu);
clearInterval(timer);
peakRss = Math.max(peakRss, process.memoryUsage.rss());
await path.close();
const measure: RawMeasure & { cpuSeconds: number } = { method, rows: count, seconds, peakRss, startRss, bytes: statSync(file).size, cpuSeconds: (used.user + used.system) / 1e6 };
console.log(JSON.stringify(measure));
