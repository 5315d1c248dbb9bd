// Streams a result as RFC 4180 CSV (comma separated, CRLF line ends, quotes doubled), honouring the
// destination's backpressure so that memory holds about one batch whatever the row count.
import type { Writable } from 'node:stream';
import { csvField, csvFormatter } from './cell.ts';
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
  const formats = columns.map((c) => csvFormatter(c.type));
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
  if (header) pending += columns.map((c) => csvField(c.name, 'VARCHAR')).join(',') + '\r\n';
  for await (const batch of rows) {
    if (signal?.aborted) throw new ExportAborted('The export was cancelled');
    if (out.destroyed) throw new ExportAborted();
    const lines: string[] = [];
    const fields: string[] = new Array<string>(width);
    for (const row of batch.rows) {
      for (let i = 0; i < width; i++) fields[i] = formats[i]!(row[i]);
      lines.push(fields.join(','));
    }
    count += lines.length;
    if (lines.length > 0) pending += lines.join('\r\n') + '\r\n';
    if (pending.length >= CHUNK_CHARS) await flush();
  }
  await flush();
  if (end) {
    out.end();
    await finished(out);
  }
  return { rows: count, bytes };
}
