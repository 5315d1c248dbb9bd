// Comparing the tree DuckDB parses back from json_deserialize_sql's text with the tree it printed.
// Positions differ by nature; one print is known to differ in form, not meaning: an aliased VALUES
// list is printed as `(SELECT * FROM (VALUES ...) AS valueslist) AS v(...)`.
type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A plain `SELECT *` with no clause but its one FROM item. */
function plainStar(node: Node | undefined): boolean {
  const list = node?.['select_list'] as Node[] | undefined;
  const star = list?.length === 1 ? list[0]! : undefined;
  return (
    node?.['type'] === 'SELECT_NODE' && star?.['class'] === 'STAR' && !star['expr'] && !star['relation_name'] && !star['columns'] &&
    ['exclude_list', 'replace_list', 'qualified_exclude_list', 'rename_list'].every((k) => (star[k] as unknown[] | undefined)?.length === 0) &&
    !node['where_clause'] && !node['having'] && !node['qualify'] && !node['sample'] && !(node['group_expressions'] as unknown[] | undefined)?.length &&
    !(node['modifiers'] as unknown[] | undefined)?.length && !((node['cte_map'] as Node | undefined)?.['map'] as unknown[] | undefined)?.length
  );
}

/** The VALUES list a `(SELECT * FROM (VALUES ...) AS valueslist) AS v(...)` reference stands for, if it is one. */
function valuesOf(ref: Node): Node | undefined {
  const node = (ref['subquery'] as Node | undefined)?.['node'] as Node | undefined;
  if (!plainStar(node)) return undefined;
  let from = node!['from_table'] as Node;
  if (from['type'] === 'SUBQUERY') from = valuesOf(from) ?? from;
  if (from['type'] !== 'EXPRESSION_LIST' || ((from['column_name_alias'] as unknown[] | undefined)?.length ?? 0) > 0 || from['sample']) return undefined;
  return { ...from, alias: ref['alias'], sample: ref['sample'], column_name_alias: ref['column_name_alias'] };
}

/** A key-sorted JSON text of a tree, without positions and with known print forms undone. */
export function comparableDuckDbTree(tree: unknown): string {
  return JSON.stringify(tree, (k, v: unknown) => {
    if (k === 'query_location') return undefined;
    if (!isObj(v)) return v;
    const node = v['type'] === 'SUBQUERY' ? (valuesOf(v) ?? v) : v;
    return Object.fromEntries(Object.entries(node).sort(([a], [b]) => (a < b ? -1 : 1)));
  });
}
