// The warehouse relations sync recorded (migration 0043): kind, what views and partitions read, and
// primary keys. Row-level security reads them at filter time; sync replaces them per schema.
import type { Clock } from '../../clock.ts';
import type { DataStore } from '../tables.ts';

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

/**
 * Rows per INSERT: a statement holds at most 32,766 parameters on SQLite and 65,535 on PostgreSQL, and
 * a warehouse's schema (partitions especially) can hold thousands of relations of 8 columns each.
 */
const INSERT_ROWS = 1000;

/** Replaces the recorded relations of the given schemas of a connection, in one batch. */
export async function saveRelations(store: DataStore, clock: Clock, orgId: string, connectionId: string, relations: WarehouseRelation[]): Promise<void> {
  const schemas = [...new Set(relations.map((r) => r.schema))];
  if (schemas.length === 0) return;
  const now = clock.now();
  // Keyed by schema and name: a relation listed twice is recorded once, the last one winning (as INSERT OR REPLACE did).
  const rows = new Map(
    relations.map((r) => [
      JSON.stringify([r.schema, r.name]),
      {
        org_id: orgId,
        connection_id: connectionId,
        schema_name: r.schema,
        name: r.name,
        kind: r.kind,
        reads: r.reads ? JSON.stringify(r.reads.map((s) => [s.schema ?? null, s.name])) : null,
        primary_key: r.primaryKey?.length ? JSON.stringify(r.primaryKey) : null,
        synced_at: now,
      },
    ]),
  );
  const values = [...rows.values()];
  const inserts = Array.from({ length: Math.ceil(values.length / INSERT_ROWS) }, (_, i) =>
    store.db.insertInto('warehouse_relations').values(values.slice(i * INSERT_ROWS, (i + 1) * INSERT_ROWS)),
  );
  await store.batch([store.db.deleteFrom('warehouse_relations').where('org_id', '=', orgId).where('connection_id', '=', connectionId).where('schema_name', 'in', schemas), ...inserts]);
}

/** The recorded relations of a connection. */
export async function loadRelations(store: DataStore, orgId: string, connectionId: string): Promise<WarehouseRelation[]> {
  const rows = await store.all(
    store.db.selectFrom('warehouse_relations').select(['schema_name', 'name', 'kind', 'reads', 'primary_key']).where('org_id', '=', orgId).where('connection_id', '=', connectionId),
  );
  return rows.map((r) => ({
    schema: r.schema_name,
    name: r.name,
    kind: r.kind,
    ...(r.reads !== null ? { reads: (JSON.parse(r.reads) as [string | null, string][]).map(([schema, name]) => ({ ...(schema !== null ? { schema } : {}), name })) } : {}),
    ...(r.primary_key !== null ? { primaryKey: JSON.parse(r.primary_key) as string[] } : {}),
  }));
}
