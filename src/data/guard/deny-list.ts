// Functions and relations no query may touch, per dialect: file and network readers, SQL-in-a-string
// runners (they would bypass row-level security), sleeps, locks, sequence, session and server writers,
// and catalogs that hold secrets or server state. Each list was reviewed against the warehouse's own
// function catalogue; test/data/guard/deny-catalogue.test.ts lists the functions with side effects
// from the live catalogues (pg_proc volatility, duckdb_functions(), pragma_function_list, MariaDB's
// help tables) and fails when one is neither denied here nor reviewed as harmless there.
import type { SqlDialect } from '../types.ts';

const COMMON_NAMES = [
  'sleep', 'benchmark', 'load_file', 'readfile', 'writefile', 'edit', 'getenv', 'system', 'shell', 'load_extension', 'copy',
  'nextval', 'setval', 'lastval', 'currval', 'setseed', 'set_seed', 'set_config', 'current_setting', 'query', 'query_table',
];

const PG_NAMES = [
  // Server-side files, large objects (data outside row security), sequences and settings.
  'loread', 'lowrite', 'currtid2', 'current_query', 'inet_server_addr', 'inet_server_port', 'inet_client_addr', 'inet_client_port',
  // Functions that run SQL passed as text, so the statement they run is never guarded.
  'ts_stat', 'ts_rewrite', 'xpath', 'xpath_exists', 'xmlparse', 'cursor_to_xml', 'cursor_to_xmlschema',
  'amvalidate', 'suppress_redundant_updates_trigger', 'tsvector_update_trigger', 'tsvector_update_trigger_column', 'unique_key_recheck',
  'brin_summarize_range', 'brin_summarize_new_values', 'brin_desummarize_range', 'gin_clean_pending_list', 'dsnowball_init', 'dsnowball_lexize',
];
// Every pg_* function is denied (server state, files, backups, statistics resets, signals, replication,
// WAL), except these reviewed read-only helpers.
const PG_ALLOWED_PG = new Set(['pg_typeof', 'pg_size_pretty', 'pg_size_bytes', 'pg_column_size']);
const PG_PREFIXES = ['pg_', 'lo_', 'dblink', 'txid_', 'binary_upgrade_', 'ri_fkey_', 'plpgsql_', 'query_to_xml', 'table_to_xml', 'schema_to_xml', 'database_to_xml'];

const MYSQL_NAMES = [
  'get_lock', 'release_lock', 'release_all_locks', 'is_free_lock', 'is_used_lock', 'master_pos_wait', 'source_pos_wait', 'master_gtid_wait',
  'wait_for_executed_gtid_set', 'wait_until_sql_thread_after_gtids', 'last_insert_id', 'found_rows', 'row_count', 'binlog_gtid_pos',
  'decode_histogram', 'old_value', 'procedure_analyse', 'sys_exec', 'sys_eval', 'sys_get', 'sys_set', 'sys_bineval', 'des_encrypt', 'des_decrypt',
];
const MYSQL_PREFIXES = ['sys_', 'lib_mysqludf'];

const SQLITE_NAMES = [
  'fts3_tokenizer', 'sqlite_compileoption_get', 'sqlite_compileoption_used', 'sqlite_dbpage', 'sqlite_dbdata', 'sqlite_dbptr',
  'sqlite_stmt', 'dbstat', 'bytecode', 'tables_used', 'geopoly_debug', 'zipfile', 'sqlar_compress', 'sqlar_uncompress', 'fsdir', 'lsmode',
];
const SQLITE_PREFIXES = ['pragma_', 'sqlite_dbpage', 'sqlite_stmt'];

const DUCKDB_NAMES = [
  'checkpoint', 'force_checkpoint', 'export_database', 'import_database', 'install', 'load', 'attach', 'detach', 'summary', 'which_secret',
  'enable_profiling', 'disable_profiling', 'dbgen', 'dsdgen', 'tpch', 'tpcds', 'glob', 'json_execute_serialized_sql', 'get_current_timestamp_ns',
  'make_set_config', 'sleep_ms', 'stats', 'enable_logging', 'disable_logging', 'truncate_duckdb_logs', 'enable_checkpoint_on_shutdown', 'disable_checkpoint_on_shutdown',
  'write_log',
];
const DUCKDB_PREFIXES = ['read_', 'parquet_', 'sniff_', 'duckdb_', 'pragma_', 'load_', 'sys_', 'iceberg_', 'delta_', 'sql_auto_complete', 'json_execute'];

const DENIED: Record<SqlDialect, { names: Set<string>; prefixes: string[] }> = {
  postgresql: { names: new Set([...COMMON_NAMES, ...PG_NAMES]), prefixes: PG_PREFIXES },
  mysql: { names: new Set([...COMMON_NAMES, ...MYSQL_NAMES]), prefixes: MYSQL_PREFIXES },
  sqlite: { names: new Set([...COMMON_NAMES, ...SQLITE_NAMES]), prefixes: SQLITE_PREFIXES },
  duckdb: { names: new Set([...COMMON_NAMES, ...DUCKDB_NAMES]), prefixes: DUCKDB_PREFIXES },
};

/** True when a function (by its unqualified, case-insensitive name) may not be called in `dialect`. */
export function isDeniedFunction(dialect: SqlDialect, name: string): boolean {
  const n = name.toLowerCase().replace(/^"|"$/g, '');
  const d = DENIED[dialect];
  if (dialect === 'postgresql' && PG_ALLOWED_PG.has(n)) return false;
  // PostgreSQL's access-method and trigger handlers are internal; none belongs in a query.
  if (dialect === 'postgresql' && (n.endsWith('handler') || n.endsWith('_trigger'))) return true;
  return d.names.has(n) || d.prefixes.some((p) => n.startsWith(p)) || n.endsWith('_to_xml') || n.endsWith('_to_xmlschema');
}

// information_schema stays readable for admins so the agent can discover columns; these hold secrets or state.
const SYSTEM_SCHEMAS: Record<SqlDialect, Set<string>> = {
  postgresql: new Set(['pg_catalog', 'pg_toast', 'pg_temp', 'pg_internal']),
  mysql: new Set(['mysql', 'performance_schema', 'sys']),
  sqlite: new Set(['temp', 'sqlite_temp_master']),
  duckdb: new Set(['pg_catalog', 'system', 'temp', 'memory']),
};
const SQLITE_SYSTEM_TABLES = new Set([
  'sqlite_master', 'sqlite_schema', 'sqlite_temp_master', 'sqlite_temp_schema', 'sqlite_sequence', 'sqlite_stat1', 'sqlite_stat2', 'sqlite_stat3',
  'sqlite_stat4', 'sqlite_dbpage', 'sqlite_dbdata', 'sqlite_dbptr', 'sqlite_stmt', 'dbstat', 'bytecode', 'tables_used', 'fsdir', 'zipfile',
]);

/** True when a table reference points into a system catalog of `dialect`. */
export function isSystemTable(dialect: SqlDialect, schema: string | undefined, name: string): boolean {
  const s = schema?.toLowerCase();
  const n = name.toLowerCase();
  if (s !== undefined && SYSTEM_SCHEMAS[dialect].has(s)) return true;
  if (dialect === 'sqlite') return SQLITE_SYSTEM_TABLES.has(n) || n.startsWith('sqlite_') || n.startsWith('pragma_');
  if (dialect === 'postgresql' || dialect === 'duckdb') return n.startsWith('pg_') || (dialect === 'duckdb' && (n.startsWith('duckdb_') || n.startsWith('sqlite_')));
  return false;
}
