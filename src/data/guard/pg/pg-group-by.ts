// PostgreSQL accepts `SELECT c.id, c.name ... GROUP BY c.id` because c.id is c's primary key (a
// functional dependency), but only for a base table: once `c` is a filtered subquery the same query
// fails. When the GROUP BY holds the whole primary key of a rewritten reference, the reference's
// other columns the SELECT, HAVING and ORDER BY use are added to the GROUP BY: they depend on the
// key, so the groups stay the same, and PostgreSQL accepts the query again.
import { nodeType, type PgNode } from './pg-parser.ts';

const isObj = (v: unknown): v is PgNode => typeof v === 'object' && v !== null && !Array.isArray(v);

function columnRefs(v: unknown, found: string[][]): void {
  if (Array.isArray(v)) return v.forEach((x) => columnRefs(x, found));
  if (!isObj(v)) return;
  const type = nodeType(v);
  if (type === 'SelectStmt') return;
  if (type === 'ColumnRef') {
    const fields = ((v['ColumnRef'] as PgNode)['fields'] as PgNode[]).map((f) => (f['String'] ? String((f['String'] as PgNode)['sval']) : '*'));
    found.push(fields);
    return;
  }
  for (const x of Object.values(v)) columnRefs(x, found);
}

/**
 * Column names of `alias` to add to the GROUP BY of `select`, given its primary key; `sole` says the
 * reference is the SELECT's only FROM item, so unqualified names are its columns.
 */
export function groupByAdditions(select: PgNode, alias: string, primaryKey: string[], sole: boolean): string[] {
  const group = (select['groupClause'] as PgNode[] | undefined) ?? [];
  if (group.length === 0 || primaryKey.length === 0 || select['groupDistinct']) return [];
  const own = (fields: string[]) => (fields.length === 2 && fields[0] === alias ? fields[1] : fields.length === 1 && sole ? fields[0] : undefined);
  const grouped = new Set<string>();
  for (const item of group) {
    if (nodeType(item) === 'GroupingSet') return [];
    const refs: string[][] = [];
    if (nodeType(item) === 'ColumnRef') columnRefs(item, refs);
    for (const r of refs) if (own(r) !== undefined) grouped.add(own(r)!);
  }
  if (!primaryKey.every((k) => grouped.has(k))) return [];
  const used: string[][] = [];
  for (const k of ['targetList', 'havingClause', 'sortClause']) columnRefs(select[k], used);
  const add = new Set<string>();
  for (const r of used) {
    const col = own(r);
    if (col !== undefined && col !== '*' && !grouped.has(col)) add.add(col);
  }
  return [...add];
}

/** The smallest source position in a subtree (where an expression's text starts, or close to it). */
export function firstLocation(v: unknown): number {
  let min = Infinity;
  const visit = (x: unknown) => {
    if (Array.isArray(x)) return x.forEach(visit);
    if (!isObj(x)) return;
    if (typeof x['location'] === 'number' && x['location'] >= 0) min = Math.min(min, x['location']);
    Object.values(x).forEach(visit);
  };
  visit(v);
  return min;
}
