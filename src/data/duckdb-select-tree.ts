// DuckDB's own parser as a judge of "one SELECT": json_serialize_sql gives the parse tree of a
// SELECT, and an error object (parser error, or unsupported = not a SELECT) for anything else.
import type { DuckDBConnection } from '@duckdb/node-api';

export type SelectTree =
  | { ok: true; tree: Record<string, unknown> }
  | { ok: false; reason: 'parse_error' | 'not_select'; message: string };

/** Classifies the output of json_serialize_sql. */
export function classifySelectTree(tree: Record<string, unknown>): SelectTree {
  if (!tree['error']) return { ok: true, tree };
  return tree['error_type'] === 'parser'
    ? { ok: false, reason: 'parse_error', message: String(tree['error_message'] ?? 'parse error') }
    : { ok: false, reason: 'not_select', message: 'Only read-only SELECT queries are accepted' };
}

/** Parses `sql` with DuckDB (no execution, no catalog access) and classifies the result. */
export async function serializeSelect(conn: DuckDBConnection, sql: string): Promise<SelectTree> {
  const reader = await conn.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql]);
  return classifySelectTree(JSON.parse(String(reader.getRows()[0]?.[0])) as Record<string, unknown>);
}
