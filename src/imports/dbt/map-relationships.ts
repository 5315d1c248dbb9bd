// `relationships` tests and MetricFlow entities (a foreign entity of one semantic model, the primary
// entity of another) become relationship files between documented tables.
import type { DbtManifest } from './artifacts.ts';
import type { MappedTable } from './map-tables.ts';
import type { SemanticIndex } from './semantic-index.ts';
import type { Skipped } from './summary.ts';

export interface MappedRelationship {
  unique_id: string;
  doc: Record<string, unknown>;
}

const idPart = (s: string) => s.toLowerCase().replace(/[^a-z0-9_]+/g, '-').replace(/^-+|-+$/g, '');

function relationship(uniqueId: string, from: MappedTable, fromColumn: string, to: MappedTable, toColumn: string, description: string): MappedRelationship {
  const id = `dbt-${idPart(from.relation.name)}-${idPart(fromColumn)}-${idPart(to.relation.name)}`.slice(0, 128);
  const end = (t: MappedTable, column: string) => ({ connection: t.connection, schema: t.relation.schema, table: t.relation.name, column });
  return { unique_id: uniqueId, doc: { id, from: end(from, fromColumn), to: end(to, toColumn), kind: 'many_to_one', description } };
}

/** Relationships of the tests and entities whose two tables are documented; one per table pair and column. */
export function mapRelationships(manifest: DbtManifest, tables: MappedTable[], index: SemanticIndex, skipped: Skipped[]): MappedRelationship[] {
  const byNode = new Map(tables.map((t) => [t.node.unique_id, t]));
  const out = new Map<string, MappedRelationship>();
  const add = (r: MappedRelationship) => {
    if (!out.has(r.doc['id'] as string)) out.set(r.doc['id'] as string, r);
  };
  for (const t of Object.values(manifest.nodes)) {
    if (t.resource_type !== 'test' || t.test_metadata?.name !== 'relationships' || !t.attached_node) continue;
    const kwargs = t.test_metadata.kwargs ?? {};
    const column = t.column_name ?? (kwargs['column_name'] as string | undefined);
    const toId = (t.depends_on?.nodes ?? []).find((n) => n !== t.attached_node);
    const from = byNode.get(t.attached_node);
    const to = toId ? byNode.get(toId) : undefined;
    const field = typeof kwargs['field'] === 'string' ? kwargs['field'] : undefined;
    if (!from || !to || !column || !field) {
      skipped.push({ unique_id: t.unique_id, reason: 'relationships test between tables that are not both documented' });
      continue;
    }
    add(relationship(t.unique_id, from, column, to, field, `${from.relation.name}.${column} refers to ${to.relation.name}.${field} (dbt relationships test)`));
  }
  for (const at of index.models) {
    for (const e of at.model.entities ?? []) {
      if (e.type !== 'foreign') continue;
      const target = index.models.find((m) => m !== at && (m.model.entities ?? []).some((p) => p.name === e.name && (p.type === 'primary' || p.type === 'unique' || p.type === 'natural')));
      if (!target || target.table === at.table) continue;
      const key = target.model.entities!.find((p) => p.name === e.name)!;
      add(relationship(at.model.unique_id, at.table, e.expr ?? e.name, target.table, key.expr ?? key.name, `${at.table.relation.name}.${e.expr ?? e.name} refers to ${target.table.relation.name}.${key.expr ?? key.name} (dbt entity ${e.name})`));
    }
  }
  return [...out.values()];
}
