// The data plane's public surface: drivers, guard, row-level security, governed queries.
export type { DataDeps } from './deps.ts';
export type { ColumnMeta, ConnectionSettings, Driver, DriverContext, DriverFactory, IntrospectedTable, RowStream, StreamOptions } from './drivers/driver.ts';
export { CONNECTION_TYPES, DRIVERS, type ConnectionType, type DriverEntry } from './drivers/registry.ts';
export { QueryProcessPool } from './drivers/process/query-process-pool.ts';
export { ConnectionNotFound, QueryCancelled, QueryFailed, QueryMemoryExceeded, QueryRefused, QueryTimedOut, WarehouseBusy, WarehouseUnavailable, type RefusalReason } from './errors.ts';
export { guardSql, openDuckDbSql, quoteIdent, rewriteTables, type DuckDbSql, type GuardedQuery, type SqlTools, type TableRef, type TableRewrite } from './guard/index.ts';
export { applyRowFilters, loadRlsUser, policyFor, renderFilter, type RlsUser } from './rls/index.ts';
export * from './connections/index.ts';
export * from './query/index.ts';
export { getCatalog, type Catalog } from './catalog/get-catalog.ts';
export { readTargetTables, syncConnection, type SyncResult } from './sync/sync-connection.ts';
export { withCoverage } from './sync/refresh-coverage.ts';
export { generateDemoWarehouse, DEMO_SIZE, type WarehouseSize } from './demo/generate-warehouse.ts';
export { seedDemoWarehouse, DEMO_CONNECTION_ID } from './demo/seed-demo-warehouse.ts';
export { moveDemoWarehouse } from './demo/move-demo-warehouse.ts';
export { createMemoryTableDocs, type MemoryTableDocs } from './table-docs-memory.ts';
export type { DataCoverage, EnvironmentTargets, RowFilter, SqlDialect, WarehouseTable, TableDoc, TableDocColumn, TableDocsSource, TableMetric } from './types.ts';
