// What a view's own text reads, for warehouses that keep the text rather than the dependencies
// (MariaDB/MySQL before view_table_usage, DuckDB, SQLite): the query is guarded like a user's, and
// its base tables are the view's sources. Undefined when the guard cannot read or refuses it: the
// view then counts as reading anything.
import { guardSql, type SqlTools } from '../guard/index.ts';
import { tokenizeSqlite } from '../guard/sqlite/sqlite-tokens.ts';
import type { SqlDialect } from '../types.ts';
import type { RelationSource } from './relations.ts';

/** The SELECT of a `CREATE VIEW name [(columns)] AS select` text (SQLite's and DuckDB's catalogs keep it so). */
export function viewQuery(createView: string): string | undefined {
  const tokens = tokenizeSqlite(createView.replace(/;\s*$/, ''));
  let depth = 0;
  let seenView = false;
  for (const t of tokens) {
    if (t.text === '(') depth++;
    if (t.text === ')') depth--;
    if (t.kind === 'id' && /^view$/i.test(t.text)) seenView = true;
    else if (seenView && depth === 0 && t.kind === 'id' && /^as$/i.test(t.text)) return createView.slice(t.end).replace(/;\s*$/, '').trim();
  }
  return undefined;
}

/** The base tables a view's query reads, or undefined when it cannot be told. */
export async function viewSources(dialect: SqlDialect, query: string | undefined, tools: SqlTools): Promise<RelationSource[] | undefined> {
  if (!query) return undefined;
  try {
    const guarded = await guardSql({ sql: query, dialect, tools });
    return guarded.tables.map((t) => ({ ...(t.schema ? { schema: t.schema } : {}), name: t.name }));
  } catch {
    return undefined;
  }
}
