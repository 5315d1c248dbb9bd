// dbt artifacts (manifest and catalog) into knowledge items on an environment.
export { importDbt, type ImportDbtInput } from './import-dbt.ts';
export { listDbtImports } from './list-imports.ts';
export type { ImportDeps } from './deps.ts';
export { createRenderMemo } from './render-memo.ts';
export type { KnowledgePort, WarehousePort, WarehouseRelation, ImportChange, KnowledgeText } from './ports.ts';
export type { ImportSummary, Skipped, ImportConflict } from './summary.ts';
export type { ArtifactSource } from './read-artifacts.ts';
