// The knowledge files an import wants: every mapped item with its provenance. The mapping is done
// once; each file's document is built only when the plan is walked, and walked again only for the
// files an update rewrites, so that no more than one document is held at a time.
import type { DbtCatalog, DbtManifest } from './artifacts.ts';
import { mapMetrics } from './map-metrics.ts';
import { mapRelationships } from './map-relationships.ts';
import { mapReports } from './map-reports.ts';
import { mapTables } from './map-tables.ts';
import type { KnowledgePort, WarehouseRelation } from './ports.ts';
import type { CountedKind, Skipped } from './summary.ts';

/** A file the import wants: where, of which kind and node, and its document (without provenance time and fingerprint). */
export interface PlannedDoc {
  path: string;
  kind: CountedKind;
  unique_id: string;
  doc: Record<string, unknown>;
}

export interface ImportPlan {
  /** Walks the planned files, building each document in its turn; a node whose id names no file goes to `skipped`. */
  files: (skipped: Skipped[]) => Iterable<PlannedDoc>;
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
  // The walk below keeps what it names alive through the commit: the port, not `a` (which holds the manifest).
  const knowledge = a.knowledge;
  function* files(skippedNow: Skipped[]): Iterable<PlannedDoc> {
    const file = (kind: CountedKind, uniqueId: string, doc: Record<string, unknown>, dbt: Record<string, unknown>, id?: string): PlannedDoc | undefined => {
      const full = { ...doc, source: 'dbt', dbt: { project, unique_id: uniqueId, ...dbt } };
      const at = knowledge.fileOf(kind, full, id);
      if ('problem' in at) skippedNow.push({ unique_id: uniqueId, reason: at.problem });
      else return { path: at.path, kind, unique_id: uniqueId, doc: full };
      return undefined;
    };
    for (const t of tables) {
      const upstream = t.node.depends_on?.nodes ?? [];
      const f = file('tables', t.node.unique_id, t.doc, { resource_type: t.node.resource_type, ...(upstream.length > 0 ? { depends_on: upstream } : {}) });
      if (f) yield f;
    }
    for (const r of relationships) {
      const f = file('relationships', r.unique_id, r.doc, {});
      if (f) yield f;
    }
    for (const r of reports) {
      const f = file('reports', r.unique_id, r.doc, {}, r.id);
      if (f) yield f;
    }
  }
  return { files, metrics, skipped };
}
