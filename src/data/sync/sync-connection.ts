// Metadata sync: introspects a connection's schemas, tables, columns and types and hands them to
// the table documentation, which keeps what people wrote (descriptions, synonyms, row filters). It
// also records what row security needs beyond columns (relations.ts): which objects are views and
// what they read, and primary keys; views that read a filtered table without a filter of their own
// are flagged in the result, for the admin to decide.
import type { Principal } from '../../auth/index.ts';
import { Forbidden } from '../../errors.ts';
import { openConnection } from '../connections/index.ts';
import type { DataDeps } from '../deps.ts';
import { ConnectionNotFound } from '../errors.ts';
import { filteredSource, readsOthers } from '../rls/filtered-sources.ts';
import type { TableDoc, WarehouseTable } from '../types.ts';
import { readRelations } from './read-relations.ts';
import { loadRelations, saveRelations } from './relations.ts';
import { withCoverage } from './refresh-coverage.ts';

/** A view or partition that reads a table with row filters and has none of its own. */
export interface FlaggedView {
  /** `schema.name` of the view. */
  view: string;
  /** `schema.name` of the filtered table it reads (directly or through other views). */
  reads: string;
}

export interface SyncResult {
  connection_id: string;
  schemas: string[];
  tables: number;
  columns: number;
  /** Refused to users whose filter applies, until the view gets a row filter of its own. */
  flagged_views: FlaggedView[];
  /** `schema.name` of the tables documented for the first time. */
  added: string[];
  /** `schema.name` of documented tables whose columns (names or types) changed. */
  updated: string[];
  /** `schema.name` of documented tables the warehouse shows as they were. */
  kept: string[];
}

/**
 * Syncs one connection into the table documentation of production or of an environment (whose
 * target, when it overrides this connection, is what gets introspected).
 */
export async function syncConnection(
  deps: DataDeps,
  principal: Principal,
  environmentId: string | undefined,
  { connectionType, connectionId, schemas }: { connectionType: string; connectionId: string; schemas?: string[] },
): Promise<SyncResult> {
  if (!environmentId && principal.role !== 'admin') throw new Forbidden('Syncing into production needs the admin role; use an environment');
  const target = environmentId ? (await deps.docs.targets(principal.orgId, environmentId))[connectionId] : undefined;
  const tables = await withCoverage(deps, principal, environmentId, connectionId, target ?? {}, await readTargetTables(deps, principal, connectionId, target ?? {}, { connectionType, schemas }));
  // Read before the write: the summary tells the admin what this sync changed in the documentation.
  const summary = summarize(await deps.docs.listTables(principal.orgId, environmentId), connectionId, tables);
  await deps.docs.writeSyncedTables(principal, environmentId, tables);
  return {
    connection_id: connectionId,
    schemas: [...new Set(tables.map((t) => t.schema))],
    tables: tables.length,
    columns: tables.reduce((n, t) => n + t.columns.length, 0),
    flagged_views: await flagViews(deps, principal.orgId, environmentId, connectionId),
    ...summary,
  };
}

/** Sorts the synced tables into added, updated (columns changed) and kept, against the documentation before the sync. */
function summarize(docs: TableDoc[], connectionId: string, tables: WarehouseTable[]): Pick<SyncResult, 'added' | 'updated' | 'kept'> {
  const out: Pick<SyncResult, 'added' | 'updated' | 'kept'> = { added: [], updated: [], kept: [] };
  const shape = (columns: { name: string; type?: string | undefined }[]) => JSON.stringify(columns.map((c) => [c.name, c.type ?? '']));
  for (const t of tables) {
    const doc = docs.find((d) => d.connection === connectionId && d.schema === t.schema && d.name === t.name);
    const list = !doc ? out.added : shape(doc.columns ?? []) === shape(t.columns) ? out.kept : out.updated;
    list.push(`${t.schema}.${t.name}`);
  }
  return out;
}

/** Views and partitions of the connection that read a filtered table without a filter of their own. */
async function flagViews(deps: DataDeps, orgId: string, environmentId: string | undefined, connectionId: string): Promise<FlaggedView[]> {
  const docs = await deps.docs.listTables(orgId, environmentId);
  const relations = await loadRelations(deps.store, orgId, connectionId);
  const hasFilters = (d: { row_filters?: unknown[] }) => (d.row_filters?.length ?? 0) > 0;
  return relations.flatMap((rel) => {
    if (!readsOthers(rel)) return [];
    const own = docs.find((d) => d.connection === connectionId && d.schema.toLowerCase() === rel.schema.toLowerCase() && d.name.toLowerCase() === rel.name.toLowerCase());
    if (own && hasFilters(own)) return [];
    const reads = filteredSource(rel, relations, docs, connectionId, hasFilters);
    return reads ? [{ view: `${rel.schema}.${rel.name}`, reads }] : [];
  });
}

/**
 * Introspects a connection, or its target schema/database when one is given; tables of a target
 * are named with the production schema, under which their documentation is kept (rule 1 maps back).
 * Records the relations it saw (under their real schema) on the way.
 */
export async function readTargetTables(
  deps: DataDeps,
  principal: Principal,
  connectionId: string,
  target: { schema?: string; database?: string },
  { connectionType, schemas }: { connectionType?: string; schemas?: string[] } = {},
): Promise<WarehouseTable[]> {
  const { driver, connection } = await openConnection(deps, principal.orgId, connectionId);
  try {
    // The type in the path must name this connection, so a URL cannot act on another kind by id.
    if (connectionType && connection.type !== connectionType && !(connectionType === 'postgres' && connection.type === 'postgresql')) throw new ConnectionNotFound();
    const targetSchema = target.schema ?? (driver.dialect === 'mysql' ? target.database : undefined);
    const only = targetSchema ? [targetSchema] : schemas;
    const introspected = await driver.introspect(only ? { schemas: only } : {});
    await saveRelations(deps.store, deps.clock, principal.orgId, connectionId, await readRelations(driver, deps.tools, only ?? [...new Set(introspected.map((t) => t.schema))]));
    return introspected.map((t) => ({ connection: connectionId, schema: targetSchema ? driver.defaultSchema : t.schema, name: t.name, columns: t.columns }));
  } finally {
    await driver.close();
  }
}
