// Column lineage and table listing of SELECT queries, per dialect.
export { columnLineage, schemaLookupFrom, tablesOf, type ColumnLineage, type LineageDialect, type LineageOptions, type LineageResult } from './column-lineage.ts';
export { NotASingleSelect, SqlParseFailed } from './errors.ts';
export type { SchemaLookup, SourceColumn } from './resolve.ts';
