// Functions and schemas no query may touch: file and network readers, SQL-in-a-string runners
// (they would bypass row-level security), sleeps, locks, sequence and session writers.

const DENIED_PREFIXES = [
  'read_', 'pg_read', 'pg_ls_', 'pg_stat_file', 'lo_', 'dblink', 'pg_sleep', 'pg_advisory', 'pg_try_advisory', 'pg_terminate',
  'pg_cancel', 'pg_reload', 'pg_rotate', 'pg_switch', 'pg_create', 'pg_drop', 'pg_replication', 'pg_logical', 'pg_promote',
  'pg_notify', 'pg_export', 'pg_file', 'pg_import', 'txid_', 'load_', 'sys_', 'parquet_', 'sniff_', 'duckdb_', 'pragma_',
];
const DENIED_NAMES = new Set([
  'sleep', 'benchmark', 'get_lock', 'release_lock', 'release_all_locks', 'master_pos_wait', 'source_pos_wait', 'readfile', 'writefile',
  'edit', 'fts3_tokenizer', 'query', 'query_table', 'getenv', 'glob', 'set_config', 'current_setting', 'nextval', 'setval', 'lastval',
  'currval', 'copy', 'xpath', 'xmlparse', 'query_to_xml', 'query_to_xmlschema', 'query_to_xml_and_xmlschema', 'table_to_xml',
  'table_to_xmlschema', 'table_to_xml_and_xmlschema', 'cursor_to_xml', 'cursor_to_xmlschema', 'schema_to_xml', 'database_to_xml',
  'schema_to_xmlschema', 'database_to_xmlschema', 'schema_to_xml_and_xmlschema', 'database_to_xml_and_xmlschema', 'system', 'shell',
  'load_extension', 'sqlite_compileoption_get', 'make_set_config', 'checkpoint', 'force_checkpoint', 'export_database',
  'import_database', 'install', 'load', 'attach', 'detach', 'summary', 'which_secret', 'enable_profiling', 'dbgen', 'dsdgen',
  'set_seed', 'setseed',
]);

/** True when a function (by its unqualified, case-insensitive name) may not be called. */
export function isDeniedFunction(name: string): boolean {
  const n = name.toLowerCase().replace(/^"|"$/g, '');
  return DENIED_NAMES.has(n) || DENIED_PREFIXES.some((p) => n.startsWith(p)) || n.endsWith('_to_xml');
}

// information_schema stays readable so the agent can discover columns; these hold secrets or state.
const SYSTEM_SCHEMAS = new Set(['pg_catalog', 'pg_toast', 'mysql', 'performance_schema', 'sys', 'system', 'temp', 'memory']);
const SYSTEM_TABLES = new Set(['sqlite_master', 'sqlite_schema', 'sqlite_temp_master', 'sqlite_temp_schema', 'sqlite_sequence', 'sqlite_stat1', 'sqlite_dbpage']);

/** True when a table reference points into a system catalog. */
export function isSystemTable(schema: string | undefined, name: string): boolean {
  return (schema !== undefined && SYSTEM_SCHEMAS.has(schema.toLowerCase())) || SYSTEM_TABLES.has(name.toLowerCase()) || /^pg_/i.test(name);
}
