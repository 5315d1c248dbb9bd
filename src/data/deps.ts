import type { Clock } from '../clock.ts';
import type { SecretBox } from '../security/index.ts';
import type { Db } from '../store/index.ts';
import type { SqlTools } from './guard/index.ts';
import type { TableDocsSource } from './types.ts';

/** What data-plane operations need; built once in the composition root. */
export interface DataDeps {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  /** Parse-only DuckDB session for the DuckDB guard and rewriting. */
  tools: SqlTools;
  docs: TableDocsSource;
  /** Folders DuckDB and SQLite connection files may live in. */
  fileRoots: string[];
  statementTimeoutMs: number;
  /** Rows returned by the context-agent query when the caller sets no limit. */
  defaultRowLimit: number;
}
