export { openStore } from './open-store.ts';
export type { Db, Store } from './open-store.ts';
export { migrate, listMigrations } from './migrate.ts';
export type { Migration } from './migrate.ts';
export { statement } from './statement.ts';
export { CommitGroup } from './commit-group.ts';
export { observeTransactions, transact } from './transact.ts';
export type { Dialect } from './migrate.ts';
export { SchemaNewerThanCode } from './schema-version.ts';
export { DatabaseUnreachable, openServiceStore, type ServiceStore } from './open-service-store.ts';
// The PostgreSQL modules (pg-open, pg-migrate, copy-store) are imported by path: pg loads only in
// the programs that use it, never in a started gateway.
export { sqliteExecutor } from './sqlite-executor.ts';
export { asciiLower, byteOrder, containsText, onPostgres } from './dialect.ts';
export { afterKeyset, decodeKeyset, encodeKeyset, type KeysetAfter } from './keyset.ts';
export type { BatchResult, Executor, Outcome, Query, WatchedTables } from './executor.ts';
