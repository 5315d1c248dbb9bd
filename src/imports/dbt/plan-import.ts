// The knowledge files an import wants: every mapped item with its provenance, checked against the
// schema of its kind (an item that fails is skipped with the reason).
import type { DbtCatalog, DbtManifest } from './artifacts.ts';
import { mapMetrics } from './map-metrics.ts';
import { mapRelationships } from './map-relationships.ts';
import { mapReports } from './map-reports.ts';
import { mapTables } from './map-tables.ts';
import { plannedFile, type PlannedFile } from './plan-changes.ts';
import type { KnowledgePort, WarehouseRelation } from './ports.ts';
import type { CountedKind, Skipped } from './summary.ts';

export interface ImportPlan {
  files: PlannedFile[];
  metrics: number;
  skipped: Skipped[];
}

/** Maps the artifacts onto the connection's relations. */
export function planImport(a: {
  manifest: DbtManifest;
  catalog: DbtCatalog | undefined;
  connectionId: string;
  dialect: string;
  relations: WarehouseRelation[];
  knowledge: Pick<KnowledgePort, 'fileOf'>;
}): ImportPlan {
  const skipped: Skipped[] = [];
  const project = a.manifest.metadata.project_name ?? 'dbt';
  const tables = mapTables({ ...a, skipped });
  const { metrics, index } = mapMetrics(a.manifest, tables, skipped);
  for (const [name, id] of index.missing) skipped.push({ unique_id: id, reason: `semantic model ${name}: its model has no relation on connection ${a.connectionId}` });
  const relationships = mapRelationships(a.manifest, tables, index, skipped);
  const reports = mapReports(a.manifest, tables, { connection: a.connectionId, dialect: a.dialect }, skipped);
  const files: PlannedFile[] = [];
  const add = (kind: CountedKind, uniqueId: string, doc: Record<string, unknown>, dbt: Record<string, unknown>, id?: string) => {
    const full = { ...doc, source: 'dbt', dbt: { project, unique_id: uniqueId, ...dbt } };
    const file = a.knowledge.fileOf(kind, full, id);
    if ('problem' in file) skipped.push({ unique_id: uniqueId, reason: file.problem });
    else files.push(plannedFile({ path: file.path, kind, unique_id: uniqueId }, full));
  };
  for (const t of tables) {
    const upstream = t.node.depends_on?.nodes ?? [];
    add('tables', t.node.unique_id, t.doc, { resource_type: t.node.resource_type, ...(upstream.length > 0 ? { depends_on: upstream } : {}) });
  }
  for (const r of relationships) add('relationships', r.unique_id, r.doc, {});
  for (const r of reports) add('reports', r.unique_id, r.doc, {}, r.id);
  return { files, metrics, skipped };
}
