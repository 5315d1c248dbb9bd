// The deny lists against each warehouse's own function catalogue: every function the catalogue marks
// as having side effects (or as volatile, or direct-only, or that sits among MariaDB's server and
// session functions) must be denied by the guard or be on the reviewed list below, so a warehouse
// upgrade that adds one fails here until someone decides. PostgreSQL and MariaDB skip when absent
// (never in CI).
import test from 'ava';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { isDeniedFunction, isSystemTable } from '../../../src/data/guard/deny-list.ts';
import { isAllowedTableFunction } from '../../../src/data/guard/row-generators.ts';
import type { SqlDialect } from '../../../src/data/types.ts';
import { PG_TEST_CONNECT_TIMEOUT_MS } from '../../helpers/pg-database.ts';
import { SKIP_MYSQL, SKIP_PG } from '../warehouses.ts';

// Reviewed and left callable: random values, clocks, identifiers, formatting; no state, no I/O.
const HARMLESS: Record<SqlDialect, Set<string>> = {
  postgresql: new Set(['random', 'clock_timestamp', 'timeofday', 'gen_random_uuid', 'random_normal', 'uuidv4', 'uuidv7', 'bernoulli', 'system', 'pg_typeof', 'pg_size_pretty', 'pg_size_bytes', 'pg_column_size']),
  duckdb: new Set(['random', 'uuid', 'gen_random_uuid', 'uuidv4', 'uuidv7', 'current_connection_id', 'current_query', 'current_query_id', 'current_transaction_id', 'error']),
  sqlite: new Set(['random', 'randomblob', 'changes', 'total_changes', 'last_insert_rowid', 'sqlite_version', 'sqlite_source_id', 'current_timestamp', 'current_date', 'current_time', 'unixepoch', 'fts5', 'fts5_locale', 'fts5_get_locale', 'fts5_insttoken', 'bm25', 'highlight', 'snippet', 'matchinfo', 'match', 'offsets', 'optimize', 'rtreecheck', 'rtreenode', 'rtreedepth']),
  mysql: new Set([
    'charset', 'coercibility', 'collation', 'connection_id', 'current_role', 'current_user', 'database', 'default', 'format_bytes', 'inet6_aton', 'inet6_ntoa',
    'inet_aton', 'inet_ntoa', 'is_ipv4', 'is_ipv4_compat', 'is_ipv4_mapped', 'is_ipv6', 'last_value', 'name_const', 'procedure', 'rownum', 'schema', 'session_user',
    'system_user', 'user', 'uuid', 'uuid_short', 'uuid_v4', 'uuid_v7', 'values', 'version',
  ]),
};

const undecided = (dialect: SqlDialect, names: string[]) => [...new Set(names.map((n) => n.toLowerCase()))].filter((n) => !isDeniedFunction(dialect, n) && !HARMLESS[dialect].has(n)).sort();

test('PostgreSQL: every volatile function of pg_catalog, and every one named for files, settings, locks or server state, is denied or reviewed', async (t) => {
  const c = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres', connectionTimeoutMillis: PG_TEST_CONNECT_TIMEOUT_MS });
  try {
    await c.connect();
  } catch (err) {
    if (process.env['CI'] === 'true') throw err;
    return t.log(SKIP_PG), t.pass();
  }
  try {
    const names = (await c.query(`SELECT DISTINCT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'pg_catalog' AND p.prokind IN ('f', 'a', 'w')
        AND (p.provolatile = 'v' OR p.proname ~ '(query_to|_to_xml|cursor|file|_dir|exec|setting|dblink|sleep|lock|backend|_wal|replication|snapshot|^lo_|^pg_)')`)).rows.map((r: { proname: string }) => r.proname);
    t.true(names.length > 150, `${names.length} functions listed`);
    t.deepEqual(undecided('postgresql', names), []);
    for (const n of ['pg_stat_reset', 'pg_backup_start', 'pg_log_backend_memory_contexts', 'ts_stat', 'query_to_xml', 'pg_read_file']) t.true(isDeniedFunction('postgresql', n), n);
  } finally {
    await c.end();
  }
});

test('MariaDB: every server, session and locking function of the help catalogue is denied or reviewed, and no loadable function is installed undenied', async (t) => {
  let c: mysql.Connection;
  try {
    c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', connectTimeout: 3000 });
  } catch (err) {
    if (process.env['CI'] === 'true') throw err;
    return t.log(SKIP_MYSQL), t.pass();
  }
  try {
    const [rows] = await c.query(`SELECT t.name FROM mysql.help_topic t JOIN mysql.help_category c ON c.help_category_id = t.help_category_id
      WHERE c.name IN ('Miscellaneous Functions', 'Information Functions') OR (c.name LIKE '%Functions%' AND (t.name LIKE '%LOCK%' OR t.name LIKE 'LOAD%FILE%'))`);
    const names = (rows as { name: string }[]).map((r) => r.name.replaceAll('\\', '').replace(/[^A-Za-z0-9_].*$/, '')).filter(Boolean);
    t.true(names.length > 30, `${names.length} functions listed`);
    t.deepEqual(undecided('mysql', names), []);
    const [udfs] = await c.query('SELECT name FROM mysql.func');
    t.deepEqual(undecided('mysql', (udfs as { name: string }[]).map((u) => u.name)), []);
    for (const n of ['sleep', 'benchmark', 'get_lock', 'load_file', 'master_pos_wait', 'sys_exec']) t.true(isDeniedFunction('mysql', n), n);
  } finally {
    await c.end();
  }
});

test('DuckDB: every volatile or side-effecting function is denied or reviewed, and no table function is readable but the bounded ones', async (t) => {
  const inst = await DuckDBInstance.create(':memory:');
  const conn = await inst.connect();
  try {
    const scalar = (await conn.runAndReadAll(`SELECT DISTINCT function_name FROM duckdb_functions()
      WHERE (has_side_effects OR stability = 'VOLATILE') AND function_type IN ('scalar', 'aggregate', 'macro')`)).getRowsJson().map((r) => String(r[0]));
    t.true(scalar.length > 5);
    t.deepEqual(undecided('duckdb', scalar), []);
    const tables = (await conn.runAndReadAll("SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_type IN ('table', 'table_macro')")).getRowsJson().map((r) => String(r[0]));
    t.deepEqual(tables.filter((n) => isAllowedTableFunction('duckdb', n)).sort(), ['generate_series', 'json_each', 'json_tree', 'range', 'unnest']);
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
});

test('SQLite: every direct-only or nondeterministic scalar function is denied or reviewed, and every eponymous virtual table is a system table', (t) => {
  const db = new Database(':memory:');
  const fns = db.prepare('SELECT name, flags, type FROM pragma_function_list').all() as { name: string; flags: number; type: string }[];
  // SQLITE_DETERMINISTIC 0x800, SQLITE_DIRECTONLY 0x80000; aggregates and windows are never "deterministic" there.
  const direct = fns.filter((f) => f.flags & 0x80000).map((f) => f.name);
  t.deepEqual([...new Set(direct)].filter((n) => !isDeniedFunction('sqlite', n)), []);
  t.deepEqual(undecided('sqlite', fns.filter((f) => f.type === 's' && !(f.flags & 0x800)).map((f) => f.name)), []);
  for (const eponymous of ['dbstat', 'pragma_module_list', 'pragma_function_list', 'pragma_table_info', 'sqlite_dbpage', 'sqlite_stmt']) t.true(isSystemTable('sqlite', undefined, eponymous), eponymous);
  db.close();
});
