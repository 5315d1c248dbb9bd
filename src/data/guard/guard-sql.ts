// The SQL guard: one read-only statement, before anything reaches a warehouse. Each dialect is read
// by a parser with its grammar (PostgreSQL's own for PostgreSQL, and for SQLite through SQLite's own
// tokens; DuckDB's own; node-sql-parser for MySQL/MariaDB), and what a warehouse receives is always
// text generated from the checked tree and verified to parse back to it, never the input as sent.
// Bind placeholders are accepted only from a caller that passes the values beside the statement
// (bind-params.ts): a statement as a user or the model writes it has none.
import type { SqlDialect, SqlParam } from '../types.ts';
import { checkPlaceholders } from './bind-params.ts';
import { guardDuckDb, rewriteDuckDb } from './duckdb/duckdb-sql.ts';
import type { DuckDbSql } from './duckdb/duckdb-session.ts';
import { guardMysql, rewriteMysql } from './mysql/mysql-sql.ts';
import { pgParser } from './pg/pg-parser.ts';
import { guardPgLike, rewritePgLike } from './pg/pg-sql.ts';
import { POSTGRES_TEXT } from './pg/postgres-sql.ts';
import { SQLITE_TEXT } from './sqlite/sqlite-sql.ts';
import { DEFAULT_MAX_RECURSION } from '../../shared/query-limits.ts';
import { refuseStepFunction } from './recursion-step.ts';
import type { GuardedQuery, TableRewrite } from './table-ref.ts';

export interface SqlTools {
  /** Needed for the DuckDB dialect. */
  duckdb?: DuckDbSql;
  /** The depth the rewrite caps PostgreSQL's recursive CTEs at (SEXTANT_QUERY_MAX_RECURSION). */
  maxRecursion?: number;
}

function duckdbOf(tools: SqlTools): DuckDbSql {
  if (!tools.duckdb) throw new Error('The DuckDB dialect needs tools.duckdb');
  return tools.duckdb;
}

export interface GuardArgs {
  sql: string;
  dialect: SqlDialect;
  tools: SqlTools;
  /** The statement is rewriteTables' own output, checked again: it may call the recursion step function. */
  rewritten?: boolean;
  /**
   * Values bound to the statement's placeholders, in order. Without them a placeholder is refused;
   * with them the statement must hold exactly one placeholder per value (numbered 1..n).
   */
  params?: readonly SqlParam[] | undefined;
}

/**
 * Accepts exactly one read-only statement (SELECT, WITH ... SELECT, set operations, VALUES) or throws
 * QueryRefused with a `reason` the caller can act on.
 */
export async function guardSql({ sql, dialect, tools, rewritten, params }: GuardArgs): Promise<GuardedQuery> {
  const q = await guardDialect(sql, dialect, tools);
  checkPlaceholders(q.placeholders, params);
  if (!rewritten) refuseStepFunction(q);
  return q;
}

async function guardDialect(sql: string, dialect: SqlDialect, tools: SqlTools): Promise<GuardedQuery> {
  switch (dialect) {
    case 'duckdb':
      return guardDuckDb(duckdbOf(tools), sql);
    case 'mysql':
      return guardMysql(sql);
    case 'postgresql':
      return guardPgLike(POSTGRES_TEXT, await pgParser(), sql);
    case 'sqlite':
      return guardPgLike(SQLITE_TEXT, await pgParser(), sql);
  }
}

/**
 * The text a warehouse receives for a guarded statement: generated from its tree, with base-table
 * references rewritten as `rewrite` says (row filters, environment targets), verified to parse back
 * to exactly that tree.
 */
export async function rewriteTables(query: GuardedQuery, rewrite: TableRewrite, tools: SqlTools): Promise<string> {
  switch (query.dialect) {
    case 'duckdb':
      return rewriteDuckDb(duckdbOf(tools), query, rewrite);
    case 'mysql':
      return rewriteMysql(query, rewrite);
    default:
      return rewritePgLike(query, rewrite, tools.maxRecursion ?? DEFAULT_MAX_RECURSION);
  }
}
