// node-sql-parser for the dialects Sextant reads with it (PostgreSQL, MySQL, MariaDB, SQLite), shared by
// the guard and lineage. Each dialect's own build is loaded rather than the package's main entry, which
// bundles fourteen grammars: under tsx (`npm start`) source maps are on, and the main entry's 18 MB map
// is parsed and kept, about 75 MB of the gateway's memory for grammars it never uses.
import type { Parser } from 'node-sql-parser';
import mariadb from 'node-sql-parser/build/mariadb.js';
import mysql from 'node-sql-parser/build/mysql.js';
import postgresql from 'node-sql-parser/build/postgresql.js';
import sqlite from 'node-sql-parser/build/sqlite.js';

/** The dialects node-sql-parser reads for us; DuckDB parses its own SQL. */
export type ParsedDialect = 'postgresql' | 'mysql' | 'mariadb' | 'sqlite';

const BUILDS: Record<ParsedDialect, { Parser: typeof Parser }> = { postgresql, mysql, mariadb, sqlite };

/** A parser of `dialect`; pass `{ database: dialect }` to its methods (a build knows no other). */
export function sqlParser(dialect: ParsedDialect): Parser {
  return new BUILDS[dialect].Parser();
}
