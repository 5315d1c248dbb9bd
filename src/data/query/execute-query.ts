// A governed query collected into memory, up to a row limit (agent answers, context-agent API).
import type { DataDeps } from '../deps.ts';
import type { ColumnMeta } from '../drivers/driver.ts';
import type { SqlDialect } from '../types.ts';
import { streamQuery, type GovernedQueryArgs } from './stream-query.ts';

export interface QueryResult {
  queryId: string;
  columns: ColumnMeta[];
  rows: unknown[][];
  rowCount: number;
  /** More rows existed than the limit allowed. */
  truncated: boolean;
  executionTimeMs: number;
  /** `schema.table` names read. */
  tables: string[];
  executedSql: string;
  /** The warehouse's dialect (recorded with answers, for lineage). */
  dialect: SqlDialect;
}

/** Runs a governed query and returns at most `rowLimit` rows (default: the configured limit). */
export async function executeQuery(deps: DataDeps, args: GovernedQueryArgs): Promise<QueryResult> {
  const started = performance.now();
  const stream = await streamQuery(deps, { ...args, rowLimit: args.rowLimit ?? deps.defaultRowLimit });
  const rows: unknown[][] = [];
  for await (const batch of stream.batches) rows.push(...batch);
  return {
    queryId: stream.queryId()!,
    columns: stream.columns,
    rows,
    rowCount: rows.length,
    truncated: stream.truncated(),
    executionTimeMs: Math.round(performance.now() - started),
    tables: stream.tables,
    executedSql: stream.executedSql,
    dialect: stream.dialect,
  };
}
