// dbt's relation names (`"db"."schema"."table"`, `` `project`.`dataset`.`table` ``, `db.schema.table`)
// resolved to a relation the connection has, whatever the adapter quoted them with.
import type { DbtNode } from './artifacts.ts';
import type { WarehouseRelation } from './ports.ts';

/** The parts of a dotted, possibly quoted name: `"a"."b.c"` -> [a, b.c]; backticks and brackets too. */
export function splitRelationName(name: string): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < name.length) {
    const open = name[i]!;
    const close = open === '"' ? '"' : open === '`' ? '`' : open === '[' ? ']' : undefined;
    let part = '';
    if (close) {
      i++;
      while (i < name.length) {
        if (name[i] === close && name[i + 1] === close) { part += close; i += 2; continue; }
        if (name[i] === close) { i++; break; }
        part += name[i++];
      }
    } else {
      while (i < name.length && name[i] !== '.') part += name[i++];
    }
    parts.push(part.trim());
    while (i < name.length && name[i] !== '.') i++;
    i++;
  }
  // BigQuery writes a whole path in one pair of backticks too: `project.dataset.table`.
  return parts.length === 1 && /^`/.test(name.trim()) ? parts[0]!.split('.') : parts;
}

/** Schema and table a node names: from `relation_name`, else `schema` and `alias`/`identifier`/`name`. */
export function nodeRelation(node: Pick<DbtNode, 'relation_name' | 'schema' | 'alias' | 'identifier' | 'name'>): { schema: string; name: string } | undefined {
  if (node.relation_name) {
    const parts = splitRelationName(node.relation_name);
    if (parts.length >= 2) return { schema: parts[parts.length - 2]!, name: parts[parts.length - 1]! };
  }
  const name = node.alias ?? node.identifier ?? node.name;
  return node.schema && name ? { schema: node.schema, name } : undefined;
}

/** Finds a relation of the connection by schema and name: exact first, then ignoring case (unquoted names fold). */
export function relationLookup(relations: WarehouseRelation[]): (wanted: { schema: string; name: string }) => WarehouseRelation | undefined {
  const exact = new Map(relations.map((r) => [`${r.schema}\u0000${r.name}`, r]));
  const folded = new Map<string, WarehouseRelation>();
  for (const r of relations) {
    const key = `${r.schema.toLowerCase()}\u0000${r.name.toLowerCase()}`;
    if (!folded.has(key)) folded.set(key, r);
  }
  return (w) => exact.get(`${w.schema}\u0000${w.name}`) ?? folded.get(`${w.schema.toLowerCase()}\u0000${w.name.toLowerCase()}`);
}
