// node-sql-parser for the dialects Sextant reads with it (PostgreSQL, MySQL, MariaDB, SQLite), shared by
// the guard and lineage. Each dialect's own build is loaded rather than the package's main entry, which
// bundles fourteen grammars: under tsx (tests, `npm run dev`) source maps are on, and the main entry's
// 18 MB map is parsed and kept, about 75 MB of memory for grammars it never uses. A build is
// required on first use of its dialect (synchronously: the builds are CommonJS), so a gateway whose
// warehouses are all DuckDB loads none.
import { createRequire } from 'node:module';
import type { Parser } from 'node-sql-parser';

const require = createRequire(import.meta.url);

/** The dialects node-sql-parser reads for us; DuckDB parses its own SQL. */
export type ParsedDialect = 'postgresql' | 'mysql' | 'mariadb' | 'sqlite';

const BUILDS: Record<ParsedDialect, string> = {
  postgresql: 'node-sql-parser/build/postgresql.js',
  mysql: 'node-sql-parser/build/mysql.js',
  mariadb: 'node-sql-parser/build/mariadb.js',
  sqlite: 'node-sql-parser/build/sqlite.js',
};

/** A parser of `dialect`; pass `{ database: dialect }` to its methods (a build knows no other). */
export function sqlParser(dialect: ParsedDialect): Parser {
  const build = require(BUILDS[dialect]) as { Parser: typeof Parser };
  return new build.Parser();
}
