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
  const parsed = await parse(sql, dialect, options);
  const { columns, tables, unresolved } = resolveLineage(parsed.ir, schemaLookup);
  return {
    columns: columns.map((c, index) => ({ name: c.name, index, sources: c.sources, transformed: c.transformed })),
    tables: withParserTables(tables, parsed),
    unresolved,
  };
}

/** Base tables a SELECT reads (CTE names excluded), qualified as written. */
export async function tablesOf(sql: string, dialect: LineageDialect, options: LineageOptions = {}): Promise<string[]> {
  const parsed = await parse(sql, dialect, options);
  return withParserTables(resolveLineage(parsed.ir, undefined).tables, parsed);
}

/**
 * Adds tables node-sql-parser saw but the IR walk did not (an AST shape not handled here), so an
 * unexpected shape makes the list longer, never shorter. CTE names are the parser's only false positives.
 */
function withParserTables(tables: string[], parsed: Parsed): string[] {
  const known = new Set(tables.map((t) => t.toLowerCase()));
  const ctes = new Set(cteNames(parsed.ir).map((n) => n.toLowerCase()));
  const covered = (key: string) => [...known].some((k) => k === key || k.endsWith(`.${key}`) || key.endsWith(`.${k}`));
  const extra = (parsed.tableList ?? []).filter((t) => !covered(t.toLowerCase()) && !ctes.has(t.toLowerCase()));
  return [...tables, ...new Set(extra)];
}

function cteNames(q: QueryIR): string[] {
  const own = q.ctes.flatMap((c) => [c.name, ...cteNames(c.query)]);
  const inner = q.kind === 'setop' ? q.inputs.flatMap(cteNames) : [...q.from.flatMap((f) => (f.kind === 'query' ? cteNames(f.query) : [])), ...[...q.items.flatMap((i) => (i.kind === 'expr' ? i.expr.subqueries : [])), ...q.other.flatMap((e) => e.subqueries)].flatMap(cteNames)];
  return [...own, ...inner];
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

interface Parsed {
  ir: QueryIR;
  /** node-sql-parser's own table list (not available for DuckDB). */
  tableList?: string[];
}

async function parse(sql: string, dialect: LineageDialect, options: LineageOptions): Promise<Parsed> {
  if (dialect !== 'duckdb') return parseWithNodeSqlParser(sql, dialect);
  if (options.duckdb) return { ir: await parseWithDuckDb(sql, options.duckdb) };
  // Parsing needs no catalog and reads no files; a private instance keeps it side-effect free.
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    return { ir: await parseWithDuckDb(sql, conn) };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
