// A window of an answer table's rows for the web client's paged tables: the answer's query re-run
// through the governed pipeline as the caller (as the downloads do), cut to [offset, offset + limit).
import type { Principal } from '../../auth/index.ts';
import { findDownloadSource } from '../../chats/index.ts';
import { executeQuery } from '../../data/query/index.ts';
import type { DownloadDeps } from './prepare-download.ts';

export interface AnswerRowsRequest {
  principal: Principal;
  environmentId: string | undefined;
  chatId: string;
  dfKey: string;
  offset: number;
  limit: number;
}

export interface AnswerRows {
  columns: string[];
  rows: unknown[][];
  offset: number;
  /** More rows exist past this window. */
  has_more: boolean;
}

/** The rows of an answer table the caller may read, from `offset`, at most `limit`. */
export async function readAnswerRows(deps: DownloadDeps, req: AnswerRowsRequest): Promise<AnswerRows> {
  const source = await findDownloadSource(deps.chats, req.principal, req.chatId, { dfKey: req.dfKey });
  // One row past the window tells whether more follow.
  const result = await executeQuery(deps.data, {
    principal: req.principal,
    environmentId: req.environmentId,
    connectionId: source.connection_id,
    sql: source.sql,
    rowLimit: req.offset + req.limit + 1,
    source: 'web_table',
  });
  const rows = result.rows.slice(req.offset, req.offset + req.limit);
  return { columns: result.columns.map((c) => c.name), rows, offset: req.offset, has_more: result.rows.length > req.offset + req.limit || result.truncated };
}
