// The fast path for DuckDB: DuckDB's own CSV writer (`COPY ... TO`) writes into a named pipe
// that we read and pipe to `out`. Node never converts a value, so the rate is DuckDB's, and the pipe's
// small kernel buffer gives backpressure both ways: a slow client slows DuckDB, memory stays flat.
// The pipe holds only 64 KB, so DuckDB waits on every read we make: the reader is a socket on the
// event loop (epoll), which drains the pipe as soon as it fills, rather than a file stream whose every
// read is a round trip through the thread pool (in a probe reading into /dev/null, one DuckDB thread
// went from about 0.55 to about 0.65 of its rate into a file; bench/downloads.ts is too noisy to show it).
// Linux/macOS only (mkfifo). For a locked-down instance, `dir` must be allowed (its temp_directory is).
import { execFile } from 'node:child_process';
import { constants, open as openCallback } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { DuckDBConnection } from '@duckdb/node-api';
import { assertWritable, ExportAborted } from './drain.ts';
import type { ExportStats } from './write-csv.ts';

export interface DuckDbCsvOptions {
  conn: DuckDBConnection;
  /** One SELECT, already checked by the guard; it is wrapped, never spliced into other text. */
  sql: string;
  out: Writable;
  /** A private folder for the pipe (created inside it and removed afterwards). */
  dir: string;
  /** End `out` when done; default true. */
  end?: boolean;
  /** Line ends: DuckDB's LF (default) or RFC 4180's CRLF, as writeCsv writes. */
  newLine?: 'lf' | 'crlf';
}

const run = promisify(execFile);
const openFd = promisify(openCallback);

/** The pipe's read end as a socket; opening waits (in the thread pool) until DuckDB opens the other end. */
async function openReader(fifo: string): Promise<Socket> {
  const fd = await openFd(fifo, constants.O_RDONLY);
  return new Socket({ fd, readable: true, writable: false });
}

/** Streams the result of `sql` as CSV (header, comma, LF line ends, DuckDB's value text) into `out`. */
export async function copyDuckDbCsv({ conn, sql, out, dir, end = true, newLine = 'lf' }: DuckDbCsvOptions): Promise<ExportStats> {
  assertWritable(out);
  const work = await mkdtemp(join(dir, 'csv-'));
  const fifo = join(work, 'out.csv');
  try {
    await run('mkfifo', ['-m', '600', fifo]);
    // The query sits on lines of its own so a trailing `--` comment cannot swallow the wrapper.
    const body = sql.replace(/[\s;]+$/, '');
    const lineEnd = newLine === 'crlf' ? ", NEW_LINE '\\r\\n'" : '';
    const copy = conn.run(`COPY (\n${body}\n) TO '${fifo.replaceAll("'", "''")}' (FORMAT csv, HEADER${lineEnd})`);
    // The socket counts the bytes it read, so no counting stage sits between the pipe and `out`.
    let reader: Socket | undefined;
    const piping = openReader(fifo).then((r) => pipeline((reader = r), out, { end }));
    const [copied, piped] = await Promise.allSettled([
      copy.catch(async (err: unknown) => {
        // DuckDB failed (maybe before opening the pipe): let the reader see an end instead of waiting.
        await release(fifo, constants.O_WRONLY);
        throw err;
      }),
      piping.catch(async (err: unknown) => {
        // The destination went away: stop DuckDB; a writer still waiting to open the pipe is released.
        conn.interrupt();
        await release(fifo, constants.O_RDONLY);
        throw err;
      }),
    ]);
    if (piped.status === 'rejected') throw destinationGone(piped.reason) ? new ExportAborted() : piped.reason;
    if (copied.status === 'rejected') throw copied.reason;
    return { rows: Number(copied.value.rowsChanged), bytes: reader?.bytesRead ?? 0 };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function destinationGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ERR_STREAM_DESTROYED' || code === 'EPIPE';
}

/** Opens the pipe's other end without blocking and closes it, waking a peer blocked in open(). */
async function release(fifo: string, mode: number): Promise<void> {
  try {
    const handle = await open(fifo, mode | constants.O_NONBLOCK);
    await handle.close();
  } catch {
    // No peer waiting (ENXIO) or already gone: nothing to wake.
  }
}
