// Which names a reference inside a WITH clause may mean a CTE rather than a table, per dialect, as
// each engine binds them (probed on PostgreSQL 15, MariaDB 10.11, DuckDB 1.5 and SQLite 3.53; see
// test/data/guard/cte-scope.test.ts). A name wrongly taken for a CTE would skip a row filter, so
// where an engine was not probed the rule errs towards "table": a filtered table can only deny.
import type { SqlDialect } from '../types.ts';

/** Folds a CTE or table name the way the dialect compares CTE names. */
export function foldName(dialect: SqlDialect, name: string): string {
  // PostgreSQL folds unquoted names in the parser already; MySQL table names can be case-sensitive.
  return dialect === 'sqlite' || dialect === 'duckdb' ? name.toLowerCase() : name;
}

/** Where a reference sits in a CTE body: a plain body, or the anchor/recursive term of a recursive one. */
export type CtePart = 'body' | 'anchor' | 'recursive';

/**
 * Names visible inside the body of CTE number `index` of a WITH list: the outer scope plus the
 * siblings the engine lets it see.
 * - PostgreSQL: earlier siblings; with RECURSIVE, every sibling (itself and later ones too).
 * - SQLite: every sibling, with or without RECURSIVE (a self-reference is always recursive).
 * - MySQL/MariaDB: earlier siblings; with RECURSIVE also itself. Without RECURSIVE a name equal to the
 *   CTE's own binds to the table even when an outer CTE has it (MariaDB), so it leaves the scope.
 * - DuckDB: earlier siblings; the recursive term of a recursive CTE also sees itself.
 */
export function cteBodyScope(dialect: SqlDialect, outer: string[], names: string[], index: number, recursive: boolean, part: CtePart = 'body'): string[] {
  const earlier = names.slice(0, index);
  const self = names[index]!;
  switch (dialect) {
    case 'postgresql':
      return recursive ? [...outer, ...names] : [...outer, ...earlier];
    case 'sqlite':
      return [...outer, ...names];
    case 'mysql':
      return recursive ? [...outer, ...earlier, self] : [...outer.filter((n) => n !== self), ...earlier];
    case 'duckdb':
      return part === 'recursive' ? [...outer, ...earlier, self] : [...outer, ...earlier];
  }
}
