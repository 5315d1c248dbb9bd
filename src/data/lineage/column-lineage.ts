// Column lineage of one SELECT: for each output column, the source table columns it derives from.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { parseWithDuckDb } from './from-duckdb.ts';
import { parseWithNodeSqlParser } from './from-node-sql-parser.ts';
import type { QueryIR } from './ir.ts';
import { resolveLineage, type SchemaLookup, type SourceColumn } from './resolve.ts';

export type LineageDialect = 'postgresql' | 'mysql' | 'mariadb' | 'sqlite' | 'duckdb';

export interface LineageOptions {
  /** A DuckDB connection to parse with (dialect duckdb); a throwaway in-memory one otherwise. */
  duckdb?: DuckDBConnection;
}

/** Lineage of one output column. */
export interface ColumnLineage {
  /** Output name (alias, column name, or the function name for unaliased calls). */
  name: string;
  /** Position in the result, from 0. */
  index: number;
  /** Source columns, `{ table: 'main.orders', column: 'order_date' }`; `column: '*'` when a star could not be expanded. */
  sources: SourceColumn[];
  /** False when the value is a source column passed through unchanged (renames included). */
  transformed: boolean;
}

export interface LineageResult {
  columns: ColumnLineage[];
  /** Base tables read anywhere in the query (CTE names excluded), as written. */
  tables: string[];
  /** Column references that matched no relation in scope (typos, or columns of unknown tables). */
  unresolved: string[];
}

/** Traces each output column of `sql` to source `table.column`s; `*` is expanded when `schemaLookup` knows the table. */
export async function columnLineage(
  sql: string,
  dialect: LineageDialect,
  schemaLookup?: SchemaLookup,
  options: LineageOptions = {},
): Promise<LineageResult> {
  const ir = await parse(sql, dialect, options);
  const { columns, tables, unresolved } = resolveLineage(ir, schemaLookup);
  return { columns: columns.map((c, index) => ({ name: c.name, index, sources: c.sources, transformed: c.transformed })), tables, unresolved };
}

/** Base tables a SELECT reads (CTE names excluded), qualified as written. */
export async function tablesOf(sql: string, dialect: LineageDialect, options: LineageOptions = {}): Promise<string[]> {
  return resolveLineage(await parse(sql, dialect, options), undefined).tables;
}

/** A SchemaLookup over a map of table name -> column names; `orders` and `main.orders` find each other. */
export function schemaLookupFrom(tables: Record<string, readonly string[]>): SchemaLookup {
  const entries = Object.entries(tables).map(([name, cols]) => ({ parts: name.toLowerCase().split('.'), cols }));
  const isSuffix = (short: string[], long: string[]) => short.length <= long.length && short.every((p, i) => p === long[long.length - short.length + i]);
  return (table) => {
    const parts = table.toLowerCase().split('.');
    const exact = entries.find((e) => e.parts.join('.') === parts.join('.'));
    if (exact) return exact.cols;
    const near = entries.filter((e) => isSuffix(parts, e.parts) || isSuffix(e.parts, parts));
    return near.length === 1 ? near[0]!.cols : undefined;
  };
}

async function parse(sql: string, dialect: LineageDialect, options: LineageOptions): Promise<QueryIR> {
  if (dialect !== 'duckdb') return parseWithNodeSqlParser(sql, dialect === 'mariadb' ? 'mariadb' : dialect);
  if (options.duckdb) return parseWithDuckDb(sql, options.duckdb);
  // Parsing needs no catalog and reads no files; a private instance keeps it side-effect free.
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    return await parseWithDuckDb(sql, conn);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
