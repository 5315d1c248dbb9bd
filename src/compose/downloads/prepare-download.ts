// The download of an answer's data (download_big_csv, download_excel and their agentic twins): find
// the answer the caller may read (src/chats), re-run its SQL through the governed pipeline as the
// caller (guard, their row filters, their governed sources), and stream it as CSV or XLSX.
// Nothing is held beyond one batch, so memory stays flat whatever the row count.
import type { Writable } from 'node:stream';
import type { Principal } from '../../auth/index.ts';
import { ChatNotFound, findDownloadSource, type AnswerLocator, type ChatDeps } from '../../chats/index.ts';
import type { DataDeps } from '../../data/deps.ts';
import { writeCsv, writeXlsx, type ColumnInfo, type RowBatch } from '../../data/export/index.ts';
import { copyQueryCsv, streamQuery, type GovernedQueryArgs } from '../../data/query/index.ts';
import { downloadFilename } from './filename.ts';
import { typedForSheet } from './sheet-values.ts';

export type DownloadFormat = 'csv' | 'xlsx';

export const CONTENT_TYPES: Record<DownloadFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export interface DownloadDeps {
  chats: ChatDeps;
  data: DataDeps;
}

export interface DownloadRequest {
  principal: Principal;
  /** `X-Service-Environment`; the governed pipeline ignores it for regular users. */
  environmentId: string | undefined;
  chatId: string;
  at: AnswerLocator;
  /** The `org_id` query parameter: when given it must be the caller's organization. */
  orgId?: string | undefined;
  format: DownloadFormat;
  /** Aborting stops the query in the warehouse (the client went away). */
  signal?: AbortSignal;
}

/** A download whose query already runs: write it once, or cancel it. */
export interface PreparedDownload {
  filename: string;
  contentType: string;
  columns: ColumnInfo[];
  /** Streams the file into `out` (ended when done) with its backpressure; resolves with the row count. */
  writeTo(out: Writable, signal?: AbortSignal): Promise<{ rows: number }>;
  /** Stops the query when the file will not be written. */
  cancel(): Promise<void>;
}

/**
 * Resolves the answer and starts its query up to the first rows, so that "not found", refusals and
 * query errors surface before anything is sent; the rows then flow through `writeTo`.
 */
export async function prepareDownload(deps: DownloadDeps, req: DownloadRequest): Promise<PreparedDownload> {
  const { principal } = req;
  // Another organization's id is answered like a chat that does not exist.
  if (req.orgId !== undefined && req.orgId !== principal.orgId) throw new ChatNotFound();
  const source = await findDownloadSource(deps.chats, principal, req.chatId, req.at);
  const args: GovernedQueryArgs = {
    principal,
    environmentId: req.environmentId,
    connectionId: source.connection_id,
    sql: source.sql,
    source: req.format === 'csv' ? 'download_csv' : 'download_excel',
    signal: req.signal,
  };
  return prepareQueryDownload(deps.data, { args, filename: downloadFilename(source, req.format), format: req.format, signal: req.signal });
}

/**
 * Starts a governed query up to its first rows (refusals and query errors surface here, before a
 * byte is sent) and returns the download that streams the rest: the one path of answer downloads
 * and saved-question exports.
 */
export async function prepareQueryDownload(
  data: DataDeps,
  req: { args: GovernedQueryArgs; filename: string; format: DownloadFormat; signal?: AbortSignal | undefined },
): Promise<PreparedDownload> {
  const { args, filename } = req;
  const contentType = CONTENT_TYPES[req.format];
  // DuckDB writes CSV itself, at its own rate (see copyQueryCsv); the same governed statement either way.
  const copy = req.format === 'csv' ? await copyQueryCsv(data, args) : undefined;
  if (copy) {
    // A query that fails before DuckDB wrote a byte (a timeout, a type error) answers its typed error
    // with a status, like the streaming path's first batch; a later failure cuts the stream.
    await copy.start(req.signal);
    return {
      filename,
      contentType,
      columns: copy.columns.map((c) => ({ name: c.name, type: c.type })),
      writeTo: async (out, signal) => ({ rows: (await copy.write(out, signal)).rows }),
      cancel: () => copy.cancel(),
    };
  }
  const stream = await streamQuery(data, args);
  const columns: ColumnInfo[] = stream.columns.map((c) => ({ name: c.name, type: c.type }));
  const it = stream.batches[Symbol.asyncIterator]();
  // Started here, the generator runs its cleanup (driver closed, query logged) on return() as well.
  const first = await it.next();
  let used = false;
  async function* batches(): AsyncGenerator<RowBatch> {
    if (!first.done) yield { columns, rows: first.value };
    for (let r = await it.next(); !r.done; r = await it.next()) yield { columns, rows: r.value };
  }
  return {
    filename,
    contentType,
    columns,
    async writeTo(out, signal) {
      if (used) throw new Error('A prepared download is written once');
      used = true;
      try {
        const opts = signal ? { signal } : {};
        if (req.format === 'csv') return { rows: (await writeCsv(batches(), columns, out, opts)).rows };
        return { rows: (await writeXlsx(typedForSheet(batches(), columns), columns, out, opts)).rows };
      } finally {
        // A writer that failed (client gone, cancelled) leaves the query suspended: end it.
        await it.return?.(undefined);
      }
    },
    async cancel() {
      used = true;
      await it.return?.(undefined);
    },
  };
}
