// What the guard hands to row-level security and environment targets: the base tables a query
// reads, and a way to swap each reference for another table or a filtered subquery.
import type { SqlDialect } from '../types.ts';

/** A base-table reference as written (CTE references excluded). */
export interface TableRef {
  catalog?: string;
  schema?: string;
  name: string;
}

/** How one reference is rewritten: read from `schema.name` (qualified) and keep rows matching `filter`. */
export interface TableRewriteTarget {
  schema: string;
  name: string;
  /** A SQL boolean over the table's columns, literals already quoted; undefined reads every row. */
  filter?: string;
  /** The table's primary key, when known: lets a GROUP BY on it keep selecting the other columns. */
  primaryKey?: string[];
}

/** Decides per reference; undefined leaves the reference untouched. */
export type TableRewrite = (ref: TableRef) => TableRewriteTarget | undefined;

/** A statement that passed the guard, with its parse tree. */
export interface GuardedQuery {
  dialect: SqlDialect;
  sql: string;
  /** Base tables the statement reads, deduplicated. */
  tables: TableRef[];
  /** Names of the functions it calls, unqualified and lower-cased (row security checks the warehouse's own). */
  functions: string[];
  /**
   * The numbers of its bind placeholders (`$n`; the n-th `?` counts as n), in the order met. The guard
   * accepts them only against a parameter list of the same length (guard-sql.ts).
   */
  placeholders: number[];
  /** Parse tree (node-sql-parser AST or DuckDB's serialized tree); private to guard and rewrite. */
  tree: unknown;
}

/** Quotes an identifier for a dialect. */
export function quoteIdent(dialect: SqlDialect, name: string): string {
  return dialect === 'mysql' ? '`' + name.replace(/`/g, '``') + '`' : '"' + name.replace(/"/g, '""') + '"';
}

/** The references once each, compared case-insensitively. */
export function dedupeTables(refs: TableRef[]): TableRef[] {
  const seen = new Map<string, TableRef>();
  for (const r of refs) seen.set(`${r.catalog ?? ''}.${r.schema ?? ''}.${r.name}`.toLowerCase(), r);
  return [...seen.values()];
}

/**
 * A clause that keeps the planner from pushing the caller's predicates below a row filter (so a
 * failing cast or division in the caller's WHERE never sees a hidden row): subqueries with
 * LIMIT/OFFSET are neither flattened nor pushed into.
 */
export const OPTIMIZATION_FENCE: Record<SqlDialect, string> = {
  postgresql: ' OFFSET 0',
  duckdb: ' OFFSET 0',
  sqlite: ' LIMIT -1 OFFSET 0',
  mysql: ' LIMIT 18446744073709551615',
};
