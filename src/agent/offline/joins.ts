// Join paths along documented relationships. Walking from the many side to the one side keeps each
// row once; the other way repeats rows ("fans out"), which would add a sum up several times, so
// only counts of distinct keys may cross such a join.
import type { RelationshipDocument, TableDocument } from '../ports.ts';
import { singular, type Schema } from './vocabulary.ts';

export interface JoinEdge {
  from: TableDocument;
  fromColumn: string;
  to: TableDocument;
  toColumn: string;
  fanOut: boolean;
  relationship: RelationshipDocument;
}

const keyOf = (connection: string, schema: string, name: string) => `${connection}.${schema}.${name}`.toLowerCase();
export const docKey = (t: TableDocument) => keyOf(t.connection, t.schema, t.name);

function edgesOf(schema: Schema): JoinEdge[] {
  const byKey = new Map(schema.tables.map((t) => [docKey(t), t]));
  const edges: JoinEdge[] = [];
  for (const r of schema.relationships) {
    const a = byKey.get(keyOf(r.from.connection, r.from.schema, r.from.table));
    const b = byKey.get(keyOf(r.to.connection, r.to.schema, r.to.table));
    if (!a || !b) continue;
    edges.push({ from: a, fromColumn: r.from.column, to: b, toColumn: r.to.column, fanOut: r.kind === 'one_to_many', relationship: r });
    edges.push({ from: b, fromColumn: r.to.column, to: a, toColumn: r.from.column, fanOut: r.kind === 'many_to_one', relationship: r });
  }
  return edges;
}

/** The shortest path from one table to another; without `fanOut`, only along joins that keep row counts. */
export function joinPath(schema: Schema, from: TableDocument, to: TableDocument, { fanOut }: { fanOut: boolean }): JoinEdge[] | undefined {
  if (docKey(from) === docKey(to)) return [];
  const edges = edgesOf(schema).filter((e) => fanOut || !e.fanOut);
  const prev = new Map<string, JoinEdge>();
  const seen = new Set([docKey(from)]);
  const queue = [from];
  while (queue.length > 0) {
    const cur = queue.shift()!;
    for (const e of edges) {
      if (docKey(e.from) !== docKey(cur) || seen.has(docKey(e.to))) continue;
      seen.add(docKey(e.to));
      prev.set(docKey(e.to), e);
      queue.push(e.to);
    }
  }
  if (!prev.has(docKey(to))) return undefined;
  const path: JoinEdge[] = [];
  for (let cur = docKey(to); cur !== docKey(from); ) {
    const e = prev.get(cur)!;
    path.unshift(e);
    cur = docKey(e.from);
  }
  return path;
}

/** The one-side key of a table: the column relationships point to, else `<singular>_id` or `id`. */
export function keyColumn(schema: Schema, table: TableDocument): string | undefined {
  const pointed = edgesOf(schema).find((e) => docKey(e.to) === docKey(table) && !e.fanOut)?.toColumn;
  return pointed ?? table.columns.find((c) => c.name === `${singular(table.name)}_id` || c.name === 'id')?.name;
}
