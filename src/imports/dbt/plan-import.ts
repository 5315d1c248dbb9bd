// The knowledge files an import wants: every mapped item with its provenance. The mapping is done
// once; each file's document is built only when the walk of the plan asks for it (not at all for a
// table whose inputs an earlier import in this process rendered, see render-memo.ts), and again only
// for the files an update rewrites, so that no more than one document is held at a time.
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

/** A planned item before its document is built. */
export interface PlannedItem {
  kind: CountedKind;
  unique_id: string;
  /** A hash of all its document is made of, but the provenance time; equal sources, equal documents. Tables only. */
  source?: string;
  /** Builds its document; undefined when its id names no file (then it is in `skipped`). */
  build: () => PlannedDoc | undefined;
}

export interface ImportPlan {
  /** Walks the planned items, always in the same order; a node whose id names no file goes to `skipped` when built. */
  files: (skipped: Skipped[]) => Iterable<PlannedItem>;
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
  function* files(skippedNow: Skipped[]): Iterable<PlannedItem> {
    const item = (kind: CountedKind, uniqueId: string, doc: () => Record<string, unknown>, dbt: Record<string, unknown>, id?: string, source?: string): PlannedItem => ({
      kind,
      unique_id: uniqueId,
      source,
      build: () => {
        const full = { ...doc(), source: 'dbt', dbt: { project, unique_id: uniqueId, ...dbt } };
        const at = knowledge.fileOf(kind, full, id);
        if (!('problem' in at)) return { path: at.path, kind, unique_id: uniqueId, doc: full };
        skippedNow.push({ unique_id: uniqueId, reason: at.problem });
        return undefined;
      },
    });
    for (const t of tables) {
      const upstream = t.node.depends_on?.nodes ?? [];
      // The table's inputs (its node holds its resource type and upstream) and the project are the whole document.
      const source = `${t.source}\0${project}`;
      yield item('tables', t.node.unique_id, () => t.doc, { resource_type: t.node.resource_type, ...(upstream.length > 0 ? { depends_on: upstream } : {}) }, undefined, source);
    }
    for (const r of relationships) yield item('relationships', r.unique_id, () => r.doc, {});
    for (const r of reports) yield item('reports', r.unique_id, () => r.doc, {}, r.id);
  }
  return { files, metrics, skipped };
}
