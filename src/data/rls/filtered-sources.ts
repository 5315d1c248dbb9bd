// Row security follows the data, not the name: a view (or a partition, or a materialized view) reads
// other objects, and if one of them has a row filter, reading the view would show the rows that
// filter hides. This finds such a source, through views over views, from what sync recorded.
import type { RelationSource, WarehouseRelation } from '../sync/relations.ts';
import type { TableDoc } from '../types.ts';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** True for the objects whose rows are other objects' rows: views, materialized views, partitions. */
export const readsOthers = (r: WarehouseRelation) => r.kind === 'view' || r.kind === 'materialized_view' || r.kind === 'partition';

/** The recorded relation at `schema.name`. */
export function relationAt(relations: WarehouseRelation[], schema: string, name: string): WarehouseRelation | undefined {
  return relations.find((r) => r.kind !== 'function' && same(r.schema, schema) && same(r.name, name));
}

/**
 * The first object `rel` reads, directly or through other views, whose documentation `isFiltered`
 * says is filtered; `(unknown sources)` when sync could not tell what a view reads and some table of
 * the connection is filtered. Unqualified sources match documentation in any schema (never less safe).
 */
export function filteredSource(
  rel: WarehouseRelation,
  relations: WarehouseRelation[],
  docs: TableDoc[],
  connectionId: string,
  isFiltered: (doc: TableDoc) => boolean,
): string | undefined {
  const mine = docs.filter((d) => d.connection === connectionId);
  const seen = new Set<WarehouseRelation>([rel]);
  const queue: (RelationSource[] | undefined)[] = [rel.reads];
  while (queue.length > 0) {
    const reads = queue.shift();
    if (reads === undefined) return mine.some(isFiltered) ? '(unknown sources)' : undefined;
    for (const s of reads) {
      const hit = mine.find((d) => same(d.name, s.name) && (s.schema === undefined || same(d.schema, s.schema)) && isFiltered(d));
      if (hit) return `${hit.schema}.${hit.name}`;
      const next = relations.filter((r) => readsOthers(r) && same(r.name, s.name) && (s.schema === undefined || same(r.schema, s.schema)) && !seen.has(r));
      for (const r of next) {
        seen.add(r);
        queue.push(r.reads);
      }
    }
  }
  return undefined;
}
