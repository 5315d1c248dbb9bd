// The knowledge domain: kinds and their schemas, items over git, environments and their rules,
// mirroring and pull requests, and the reads the agent and the data plane use.
export { createKnowledgeDeps } from './deps.ts';
export type { KnowledgeDeps, TargetMetadataReader } from './deps.ts';
export { KINDS, KIND_DEFS, classifyPath, tableId, slugify } from './kinds.ts';
export type { Kind, KindDef } from './kinds.ts';
export * as schemas from './schemas.ts';
export { parseYaml, renderYaml, updateYaml } from './yaml-doc.ts';
export { validateItem } from './validate-item.ts';
export { listItems } from './list-items.ts';
export type { ItemPage } from './list-items.ts';
export { getItem, createItem, updateItem, deleteItem } from './items.ts';
export type { Item, IfMatch } from './items.ts';
export { MAX_ID_LENGTH } from './item-id.ts';
export { itemHistory, modelHistory, revertItem, revertModel } from './history.ts';
export {
  listEnvironments,
  getEnvironment,
  createEnvironment,
  startQuickFixEnvironment,
  keepEnvironment,
  setTargets,
  deleteEnvironment,
  THROWAWAY_IDLE_MS,
} from './environments.ts';
export type { EnvironmentView, CreateEnvironmentInput } from './environments.ts';
export type { EnvironmentTarget } from './environments-store.ts';
export { environmentDiff, environmentConflicts, mergeEnvironment } from './environment-merge.ts';
export type { MergeGate } from './environment-merge.ts';
export { updateFromProduction } from './environment-update.ts';
export type { ResolutionInput } from './environment-update.ts';
export type { ConflictDetail, FieldConflict } from './conflict-details.ts';
export { readEvaluationFile } from './evaluation-file.ts';
export { syncEnvironmentTargets } from './environment-sync.ts';
export { commitImportedFiles, importedFileOf, importedItemProblem } from './import-files.ts';
export type { ImportedFile } from './import-files.ts';
export { expireThrowawayEnvironments, startEnvironmentJanitor } from './environment-expiry.ts';
export { getMirror, setMirror, deleteMirror } from './mirror.ts';
export type { MirrorInput } from './mirror.ts';
export { openPullRequest } from './pull-request.ts';
export { environmentTargets, readGovernance, readTableFiles, writeSyncedTables, mergeSynced } from './table-docs.ts';
export type { SyncedTable } from './deps.ts';
export type { TableFile } from './schemas.ts';
export { knowledgeAt, searchItems } from './snapshot.ts';
export { searchableData } from './search-index.ts';
export type { KnowledgeSnapshot, SearchHit } from './snapshot.ts';
export { seedKnowledge } from './seed-knowledge.ts';
export type { SeedTransform } from './seed-knowledge.ts';
export { checkKnowledgeRepositories } from './check-knowledge.ts';
export type { KnowledgeCheck } from './check-knowledge.ts';
export { effectiveEnvironment, environmentOf, scopeFor } from './scope.ts';
export { productionSettings } from './production-settings.ts';
export type { Scope } from './scope.ts';
export type { EnvironmentRow } from './environments-store.ts';
