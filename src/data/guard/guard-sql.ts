// The SQL guard: one read-only statement, before anything reaches a warehouse.
import type { SqlDialect } from '../types.ts';
import { guardDuckDb, rewriteDuckDb, type DuckDbSql } from './duckdb-sql.ts';
import { guardGeneric, rewriteGeneric } from './generic-sql.ts';
import type { GuardedQuery, TableRewrite } from './table-ref.ts';

export interface SqlTools {
  /** Needed for the DuckDB dialect. */
  duckdb?: DuckDbSql;
}

/**
 * Accepts exactly one read-only statement (SELECT, WITH ... SELECT, set operations) or throws
 * QueryRefused with a `reason` the caller can act on.
 */
export async function guardSql({ sql, dialect, tools }: { sql: string; dialect: SqlDialect; tools: SqlTools }): Promise<GuardedQuery> {
  if (dialect === 'duckdb') {
    if (!tools.duckdb) throw new Error('guardSql: the DuckDB dialect needs tools.duckdb');
    return guardDuckDb(tools.duckdb, sql);
  }
  return guardGeneric(dialect, sql);
}

/** Rewrites the base-table references of a guarded statement (row filters, environment targets). */
export async function rewriteTables(query: GuardedQuery, rewrite: TableRewrite, tools: SqlTools): Promise<string> {
  if (query.dialect === 'duckdb') {
    if (!tools.duckdb) throw new Error('rewriteTables: the DuckDB dialect needs tools.duckdb');
    return rewriteDuckDb(tools.duckdb, query, rewrite);
  }
  return rewriteGeneric(query, rewrite);
}
