// Column lineage of one SELECT: for each output column, the source table columns it derives from.
import type { DuckDBConnection } from '@duckdb/node-api';
import { guardSql } from '../guard/index.ts';
import { SqlParseFailed } from './errors.ts';
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
  /**
   * True when no parser of column lineage could read the query, yet the guard's parser did: `tables`
   * are the guard's verified list and `columns` is empty (see tableLevel).
   */
  tableLevelOnly?: true;
}

/** Traces each output column of `sql` to source `table.column`s; `*` is expanded when `schemaLookup` knows the table. */
export async function columnLineage(
  sql: string,
  dialect: LineageDialect,
  schemaLookup?: SchemaLookup,
  options: LineageOptions = {},
): Promise<LineageResult> {
  let parsed: Parsed;
  try {
    parsed = await parse(sql, dialect, options);
  } catch (err) {
    const tables = await tableLevel(sql, dialect, err);
    return { columns: [], tables, unresolved: [], tableLevelOnly: true };
  }
  const { columns, tables, unresolved } = resolveLineage(parsed.ir, schemaLookup);
  return {
    columns: columns.map((c, index) => ({ name: c.name, index, sources: c.sources, transformed: c.transformed })),
    tables: withParserTables(tables, parsed),
    unresolved,
  };
}

/** Base tables a SELECT reads (CTE names excluded), qualified as written. */
export async function tablesOf(sql: string, dialect: LineageDialect, options: LineageOptions = {}): Promise<string[]> {
  let parsed: Parsed;
  try {
    parsed = await parse(sql, dialect, options);
  } catch (err) {
    return tableLevel(sql, dialect, err);
  }
  return withParserTables(resolveLineage(parsed.ir, undefined).tables, parsed);
}

/**
 * node-sql-parser lacks some of the grammar SQLite and PostgreSQL accept (window frames, FILTER,
 * INTERSECT, [brackets], FETCH FIRST, GROUPING SETS...), while the guard reads both with PostgreSQL's
 * own parser: a query the guard accepts gets its verified table list rather than SQL_PARSE_FAILED.
 * Anything else (or a query the guard refuses too) fails with the original error.
 */
async function tableLevel(sql: string, dialect: LineageDialect, err: unknown): Promise<string[]> {
  if (!(err instanceof SqlParseFailed) || (dialect !== 'sqlite' && dialect !== 'postgresql')) throw err;
  const guarded = await guardSql({ sql, dialect, tools: {} }).catch(() => {
    throw err;
  });
  return guarded.tables.map((t) => [t.catalog, t.schema, t.name].filter((p) => p !== undefined).join('.'));
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
  // Parsing needs no catalog and reads no files; a private instance keeps it side-effect free. DuckDB
  // is loaded on the first such parse, not when the gateway starts (issue 38: idle memory).
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    return { ir: await parseWithDuckDb(sql, conn) };
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
