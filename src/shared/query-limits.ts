// The cap on recursive CTEs, one value for every dialect: SEXTANT_QUERY_MAX_RECURSION's default, and
// what a driver or query process uses when it is opened without one (sync, introspection).

/** Rows (SQLite, DuckDB), iterations (MariaDB, MySQL) or depth (PostgreSQL) a recursive CTE may reach. */
export const DEFAULT_MAX_RECURSION = 10_000;
