// One interface over every warehouse. A driver runs one already-guarded read-only statement and
// streams its rows in batches, so exports keep memory flat whatever the row count.
import type { Writable } from 'node:stream';
import type { SqlDialect, SqlParam } from '../types.ts';
import type { QueryProcessPool } from './process/query-process-pool.ts';
import type { ColumnMeta, IntrospectedTable } from './metadata.ts';

export type { ColumnMeta, IntrospectedTable } from './metadata.ts';

/** A running query: columns are known up front, rows arrive as batches of arrays. */
export interface RowStream {
  columns: ColumnMeta[];
  /** Row batches in order; values are JSON-friendly (strings for dates, decimals and big integers). */
  batches: AsyncIterable<unknown[][]>;
}

export interface StreamOptions {
  /**
   * Time the query may keep the warehouse busy (see QueryBudget), default from the connection. The
   * driver stops the statement in the warehouse at the limit and fails with QUERY_TIMEOUT.
   */
  timeoutMs?: number;
  /** Aborting stops the statement in the warehouse (QUERY_CANCELLED): the caller went away. */
  signal?: AbortSignal;
  /** Rows per batch, default 1,000. */
  batchSize?: number;
  /**
   * Values of the statement's placeholders, in order (the guard matched them to the statement). The
   * driver binds them through its warehouse's own protocol, never into the text.
   */
  params?: readonly SqlParam[] | undefined;
}

/** A live handle on one warehouse connection. */
export interface Driver {
  readonly type: string;
  readonly dialect: SqlDialect;
  /** Schema an unqualified table name resolves to (`main`, `public`, the MySQL database). */
  readonly defaultSchema: string;
  /** Runs one read-only statement inside a read-only session or transaction. Ending the iteration early releases it. */
  stream(sql: string, opts?: StreamOptions): Promise<RowStream>;
  /** Schemas, tables, columns and types (system schemas left out). */
  introspect(opts?: { schemas?: string[] }): Promise<IntrospectedTable[]>;
  /** Checks that the warehouse answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * Optional fast path for CSV exports: the warehouse's own CSV writer for one governed statement.
   * The statement is checked (bound) here, before anything runs. DuckDB (when opened with an export
   * directory) and PostgreSQL; undefined when this result must go through the row writer instead.
   */
  csvCopy?(sql: string): Promise<CsvCopy | undefined>;
}

/** A checked CSV export, run once into a destination. */
export interface CsvCopy {
  columns: ColumnMeta[];
  /** Writes header and rows as RFC 4180 CSV (CRLF) into `out`, leaving it open; `timeoutMs` defaults to the connection's. */
  run(out: Writable, signal?: AbortSignal, timeoutMs?: number): Promise<{ rows: number; bytes: number }>;
}

/** Settings of a connection as stored (credentials already decrypted). */
export interface ConnectionSettings {
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  password?: string;
  /** File path for DuckDB and SQLite. */
  path?: string;
  /** Default schema override (PostgreSQL search path, DuckDB schema). */
  schema?: string;
  ssl?: boolean;
  /** The host name as typed when `host` is the address it was checked at (certificate and SNI name). */
  tlsServername?: string;
  statementTimeoutMs?: number;
}

export interface DriverContext {
  /** DuckDB only: directories the session may read (the chat's uploads); nothing else is reachable. */
  allowedDirectories?: string[];
  /** DuckDB only: a private, empty folder for the CSV pipe of csvCopy (also allowed to the session). */
  exportDirectory?: string;
  /** DuckDB only: worker threads of the session; default 2. */
  threads?: number;
  /** DuckDB and SQLite: the gateway's query processes; without it the driver starts one of its own. */
  queryProcesses?: QueryProcessPool;
  /** Who the session is for (a user id), for the fair share of query processes. */
  owner?: string;
  /** Aborting gives up waiting for a query process or for the warehouse to open. */
  signal?: AbortSignal | undefined;
  /** The cap on a recursive CTE (SEXTANT_QUERY_MAX_RECURSION; DEFAULT_MAX_RECURSION when absent). */
  maxRecursion?: number;
}

/** A parameter's JavaScript value for drivers that bind text and numbers (the warehouse types it from its place). */
export const paramValue = (p: SqlParam): string | number => p.value;

/** Builds a driver for a connection type; kept in a registry so new warehouses plug in by type. */
export type DriverFactory = (settings: ConnectionSettings, ctx: DriverContext) => Promise<Driver>;

export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_BATCH = 1_000;
/** Memory of a query process when the gateway's configuration does not say. */
export const DEFAULT_QUERY_MEMORY_MB = 1024;

/** Collects rows of an async row iterator into arrays of `size`. */
export async function* inBatches<T>(rows: AsyncIterable<T>, size: number, map: (row: T) => unknown[]): AsyncGenerator<unknown[][]> {
  let batch: unknown[][] = [];
  for await (const row of rows) {
    batch.push(map(row));
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
