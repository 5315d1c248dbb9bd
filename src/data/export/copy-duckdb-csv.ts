// The fast path for DuckDB: DuckDB's own CSV writer (`COPY ... TO`) writes a file in a private folder,
// and we stream that file to `out` while it grows. Node never converts a value, and DuckDB never waits
// for us: it writes at its own rate (a named pipe, tried before, holds 64 KB, so DuckDB stalled on every
// read and the two never overlapped: ~0.4 of COPY's rate against the 0.5 wanted). Memory stays flat: a
// slow client only leaves more of the file on disk until it is read, and the folder goes at the end.
// For a locked-down instance, `dir` must be allowed (its temp_directory is). Text columns and the
// header are neutralised in SQL the way src/shared/csv.ts neutralises them in Node (a leading
// apostrophe before a formula start), so both paths give a spreadsheet the same inert text.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { FORMULA_STARTS, neutraliseFormula } from '../../shared/csv.ts';
import { assertWritable, ExportAborted } from './drain.ts';
import type { ExportStats } from './write-csv.ts';

/** What the export needs of a DuckDB session: a DuckDBConnection, or a session in a query process. */
export interface CopyConnection {
  run(sql: string): Promise<{ rowsChanged: number | bigint }>;
  /** Stops the COPY (the destination went away). */
  interrupt(): void;
}

export interface DuckDbCsvOptions {
  conn: CopyConnection;
  /** One SELECT, already checked by the guard; it is wrapped, never spliced into other text. */
  sql: string;
  /** The SELECT's columns as DuckDB describes them (name and type), in order. */
  columns: readonly { name: string; type: string }[];
  out: Writable;
  /** A private folder for the file (created inside it and removed afterwards). */
  dir: string;
  /** End `out` when done; default true. */
  end?: boolean;
  /** Line ends: DuckDB's LF (default) or RFC 4180's CRLF, as writeCsv writes. */
  newLine?: 'lf' | 'crlf';
}

/** How the COPY is doing, as the file's reader needs to know. */
interface CopyState {
  done: boolean;
  error?: unknown;
}

const CHUNK = 1 << 20;
/** Below this a read is copied out of the reading buffer, which is then used again. */
const SMALL_READ = CHUNK / 4;
/** How long the reader waits when it has caught up with DuckDB. */
const CAUGHT_UP_MS = 2;

/** The file as DuckDB writes it: every byte once, ending when the COPY has ended and all is read; a failed COPY fails the stream. */
async function* growingFile(file: string, copy: CopyState): AsyncGenerator<Buffer> {
  let handle;
  while (!handle) {
    // Read before opening: a COPY that ended without creating the file has nothing to give.
    const ended = copy.done;
    try {
      handle = await open(file, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (ended) {
        if (copy.error !== undefined) throw copy.error;
        return;
      }
      await delay(CAUGHT_UP_MS);
    }
  }
  try {
    // One buffer until a read fills enough of it to hand over: a reader that has caught up with DuckDB
    // reads little or nothing, and a fresh megabyte per try was most of the gateway's garbage.
    let buffer = Buffer.allocUnsafe(CHUNK);
    for (let position = 0; ; ) {
      // Read before reading the file: what DuckDB wrote before it ended is then surely read.
      const ended = copy.done;
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      if (bytesRead >= SMALL_READ) {
        position += bytesRead;
        yield buffer.subarray(0, bytesRead);
        buffer = Buffer.allocUnsafe(CHUNK);
      } else if (bytesRead > 0) {
        position += bytesRead;
        // A copy, so that a small piece waiting downstream does not hold a megabyte.
        yield Buffer.from(buffer.subarray(0, bytesRead));
      } else if (ended) {
        if (copy.error !== undefined) throw copy.error;
        return;
      } else await delay(CAUGHT_UP_MS);
    }
  } finally {
    await handle.close();
  }
}

const TEXT_TYPE = /^(VARCHAR|ENUM|JSON)\b/i;
const sqlText = (s: string) => `'${s.replaceAll("'", "''")}'`;
/**
 * The formula starts' code points. The test is `list_contains` of a constant list over `ascii()` of
 * the value: DuckDB turns an IN list of six values (`left(v, 1) IN (...)`, or an OR of equalities) into
 * a mark hash join per text column, with its own build pipeline, for what is one comparison per value.
 */
const FORMULA_CODES = `[${FORMULA_STARTS.map((c) => c.charCodeAt(0)).join(', ')}]`;

/** The SELECT list over `columns` by position: text neutralised, headers too, everything else as DuckDB writes it. */
function neutralisedList(columns: DuckDbCsvOptions['columns']): string {
  return columns
    .map(({ name, type }, i) => {
      const alias = `"${neutraliseFormula(name).replaceAll('"', '""')}"`;
      if (!TEXT_TYPE.test(type)) return `#${i + 1} AS ${alias}`;
      const v = `#${i + 1}::VARCHAR`;
      return `CASE WHEN list_contains(${FORMULA_CODES}, ascii(${v})) THEN '''' || ${v} ELSE ${v} END AS ${alias}`;
    })
    .join(', ');
}

/** The COPY statement the export runs: `sql`'s rows, text neutralised, as CSV into `file`. */
export function duckDbCsvCopySql({ sql, columns, file, newLine = 'lf' }: Pick<DuckDbCsvOptions, 'sql' | 'columns' | 'newLine'> & { file: string }): string {
  // The query sits on lines of its own so a trailing `--` comment cannot swallow the wrapper.
  const body = sql.replace(/[\s;]+$/, '');
  const lineEnd = newLine === 'crlf' ? ", NEW_LINE '\\r\\n'" : '';
  return `COPY (SELECT ${neutralisedList(columns)} FROM (\n${body}\n)) TO ${sqlText(file)} (FORMAT csv, HEADER${lineEnd})`;
}

/** Streams the result of `sql` as CSV (header, comma, LF line ends, DuckDB's value text) into `out`. */
export async function copyDuckDbCsv({ conn, sql, columns, out, dir, end = true, newLine = 'lf' }: DuckDbCsvOptions): Promise<ExportStats> {
  assertWritable(out);
  const work = await mkdtemp(join(dir, 'csv-'));
  const file = join(work, 'out.csv');
  try {
    const state: CopyState = { done: false };
    const copy = conn.run(duckDbCsvCopySql({ sql, columns, file, newLine })).then(
      (result) => {
        state.done = true;
        return result;
      },
      (err: unknown) => {
        Object.assign(state, { done: true, error: err });
        throw err;
      },
    );
    let bytes = 0;
    const source = Readable.from(growingFile(file, state)).on('data', (chunk: Buffer) => (bytes += chunk.length));
    try {
      await pipeline(source, out, { end });
    } catch (err) {
      // The destination went away (or DuckDB failed): stop DuckDB, and wait for it before removing its file.
      conn.interrupt();
      await copy.catch(() => undefined);
      if (err === state.error) throw err;
      throw destinationGone(err) ? new ExportAborted() : err;
    }
    return { rows: Number((await copy).rowsChanged), bytes };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function destinationGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ERR_STREAM_DESTROYED' || code === 'EPIPE';
}
