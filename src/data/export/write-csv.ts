// Streams a result as CSV (RFC 4180 with formulas neutralised, by the one writer in src/shared/csv.ts),
// honouring the destination's backpressure so that memory holds about one batch whatever the row count.
import type { Writable } from 'node:stream';
import { csvLine, csvRows } from '../../shared/csv.ts';
import { csvCellOf, type CsvCell } from './cell.ts';
import { assertWritable, drained, ExportAborted, finished } from './drain.ts';
import type { ColumnInfo, RowBatch } from './row-batch.ts';

export interface CsvOptions {
  /** Write the header line; default true. */
  header?: boolean;
  /** Start with a UTF-8 byte order mark (helps Excel detect the encoding); default false. */
  bom?: boolean;
  /** End `out` when done (and wait until it is flushed); default true. */
  end?: boolean;
  /** Stops the export between batches. */
  signal?: AbortSignal;
}

export interface ExportStats {
  rows: number;
  bytes: number;
}

const CHUNK_CHARS = 64 * 1024;

/** Writes `rows` as CSV to `out`; resolves with the number of data rows and bytes once written. */
export async function writeCsv(rows: AsyncIterable<RowBatch>, columns: readonly ColumnInfo[], out: Writable, options: CsvOptions = {}): Promise<ExportStats> {
  const { header = true, bom = false, end = true, signal } = options;
  assertWritable(out);
  const formats = columns.map((c) => csvCellOf(c.type));
  const width = formats.length;
  let count = 0;
  let bytes = 0;
  let pending = '';
  const flush = async () => {
    if (pending.length === 0) return;
    const chunk = Buffer.from(pending, 'utf8');
    pending = '';
    bytes += chunk.length;
    if (!out.write(chunk)) await drained(out);
  };
  if (bom) pending += '\uFEFF';
  if (header) pending += csvLine(columns.map((c) => c.name));
  for await (const batch of rows) {
    if (signal?.aborted) throw new ExportAborted('The export was cancelled');
    if (out.destroyed) throw new ExportAborted();
    const lines = batch.rows.map((row) => {
      const cells = new Array<CsvCell>(width);
      for (let i = 0; i < width; i++) cells[i] = formats[i]!(row[i]);
      return cells;
    });
    count += lines.length;
    pending += csvRows(lines);
    if (pending.length >= CHUNK_CHARS) await flush();
  }
  await flush();
  if (end) {
    out.end();
    await finished(out);
  }
  return { rows: count, bytes };
}
