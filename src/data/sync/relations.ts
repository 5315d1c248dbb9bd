// The warehouse relations sync recorded (migration 0043): kind, what views and partitions read, and
// primary keys. Row-level security reads them at filter time; sync replaces them per schema.
import type { Clock } from '../../clock.ts';
import type { Db } from '../../store/index.ts';
import { transact } from '../../store/index.ts';

/** `function`: defined in the warehouse (SQL functions, macros, stored functions); what it reads is unknown. */
export type RelationKind = 'table' | 'view' | 'materialized_view' | 'partition' | 'function';

/** An object a view or partition reads; `schema` undefined when the view's text left it unqualified. */
export interface RelationSource {
  schema?: string;
  name: string;
}

export interface WarehouseRelation {
  schema: string;
  name: string;
  kind: RelationKind;
  /** What a view or partition reads; undefined when sync could not tell (treated as "anything"). */
  reads?: RelationSource[];
  primaryKey?: string[];
}

interface Row {
  schema_name: string;
  name: string;
  kind: RelationKind;
  reads: string | null;
  primary_key: string | null;
}

/** Replaces the recorded relations of the given schemas of a connection. */
export function saveRelations(db: Db, clock: Clock, orgId: string, connectionId: string, relations: WarehouseRelation[]): void {
  const schemas = [...new Set(relations.map((r) => r.schema))];
  transact(db, () => {
    const del = db.prepare('DELETE FROM warehouse_relations WHERE org_id = ? AND connection_id = ? AND schema_name = ?');
    for (const s of schemas) del.run(orgId, connectionId, s);
    const ins = db.prepare(
      'INSERT OR REPLACE INTO warehouse_relations (org_id, connection_id, schema_name, name, kind, reads, primary_key, synced_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    for (const r of relations) {
      const reads = r.reads ? JSON.stringify(r.reads.map((s) => [s.schema ?? null, s.name])) : null;
      ins.run(orgId, connectionId, r.schema, r.name, r.kind, reads, r.primaryKey?.length ? JSON.stringify(r.primaryKey) : null, clock.now());
    }
  });
}

/** The recorded relations of a connection. */
export function loadRelations(db: Db, orgId: string, connectionId: string): WarehouseRelation[] {
  const rows = db.prepare('SELECT schema_name, name, kind, reads, primary_key FROM warehouse_relations WHERE org_id = ? AND connection_id = ?').all(orgId, connectionId) as Row[];
  return rows.map((r) => ({
    schema: r.schema_name,
    name: r.name,
    kind: r.kind,
    ...(r.reads !== null ? { reads: (JSON.parse(r.reads) as [string | null, string][]).map(([schema, name]) => ({ ...(schema !== null ? { schema } : {}), name })) } : {}),
    ...(r.primary_key !== null ? { primaryKey: JSON.parse(r.primary_key) as string[] } : {}),
  }));
}
