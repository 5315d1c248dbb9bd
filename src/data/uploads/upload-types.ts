// The shapes of a query over uploaded files, shared by the gateway's side and the query process's.
import type { ColumnInfo } from '../export/row-batch.ts';
import type { FileKind } from './file-types.ts';

/** A queryable view or table made from an uploaded file. */
export interface UploadTable {
  name: string;
  /** The file it reads, relative to the session's uploads folder. */
  file: string;
  kind: FileKind;
  /** Why the file could not be opened as a table, when it could not. */
  error?: string;
}

export interface UploadQueryResult {
  columns: ColumnInfo[];
  rows: unknown[][];
  /** Rows returned (at most maxRows). */
  rowCount: number;
  /** True when the query had more rows than maxRows. */
  truncated: boolean;
  tables: UploadTable[];
}
