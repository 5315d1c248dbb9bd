export { guardSql, rewriteTables, type SqlTools } from './guard-sql.ts';
export { openDuckDbSql, type DuckDbSql } from './duckdb/duckdb-session.ts';
export { duckDbSortsAtTop } from './duckdb/duckdb-sql.ts';
export { quoteIdent, type GuardedQuery, type TableRef, type TableRewrite, type TableRewriteTarget } from './table-ref.ts';
