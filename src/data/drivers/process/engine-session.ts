// One warehouse session inside a query process, as the process's message loop drives it.
import type { SqlParam } from '../../types.ts';
import type { ColumnMeta, IntrospectedTable } from '../driver.ts';

/** A refusal or failure of the engine, sent back as `failed` (the statement), `unavailable` (the file) or `recursion_limit`. */
export class EngineError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'failed' | 'recursion_limit',
    message: string,
  ) {
    super(message);
  }
}

export interface EngineSession {
  readonly defaultSchema: string;
  introspect(schemas?: string[]): Promise<IntrospectedTable[]>;
  ping(): Promise<void>;
  /** Prepares one read-only statement, binds its placeholders' values and opens its cursor (closing any open one). */
  query(sql: string, batchSize: number, params: readonly SqlParam[]): Promise<ColumnMeta[]>;
  /** The next rows of the open cursor; `done` once it has no more. */
  next(): Promise<{ rows: unknown[][]; done: boolean }>;
  release(): Promise<void>;
  describe?(sql: string): Promise<{ columns: ColumnMeta[]; isSelect: boolean }>;
  run?(sql: string): Promise<{ rowsChanged: number }>;
  close(): Promise<void>;
}

/** Limits of the process a session lives in. */
export interface SessionLimits {
  /** What the engine may allocate itself (its own memory limit), below the process's limit. */
  engineBytes: number;
  /** The process's temp folder: each engine instance spills into a private folder under it. */
  tempParent: string;
  /** The most the engine may spill there. */
  tempBytes: number;
}

/** The message of a caught error. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
