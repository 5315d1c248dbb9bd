// A row cap for DuckDB's recursive CTEs (DuckDB has no setting for it, and LIMIT would cut the result
// silently). Each read of the working table in a recursive term, `FROM r`, becomes
// `FROM (SELECT * FROM r WHERE system.main.sextant_step()) AS r`: the step function is a volatile
// filter of the query process's session that counts the rows read back and fails the statement past
// the cap (process/duckdb-session.ts). A filter on the read, not a wrap of an output value as on
// SQLite, because it works for every term, `SELECT *` included; each row a term produces is read back
// once by the next iteration, so the count is the rows produced (a term reading its CTE twice counts
// them twice). The name is qualified so that no macro of the warehouse can stand in for it.
import { foldName } from '../cte-scope.ts';
import { STEP_FUNCTION } from '../recursion-step.ts';
import { quoteIdent } from '../table-ref.ts';

type Node = Record<string, unknown>;
/** One read of a recursive CTE inside its recursive term. */
export interface RecursiveRead {
  node: Node;
  cte: string;
  replace(n: Node): void;
}

const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null;

/** The filtered read that replaces `FROM <cte>`. */
export const cappedReadSql = (cte: string) => `SELECT * FROM ${quoteIdent('duckdb', cte)} WHERE system.main.${STEP_FUNCTION}()`;

/** Every read of a recursive CTE's own name in its recursive term (the RECURSIVE_CTE_NODE's `right`). */
export function recursiveReads(tree: unknown): RecursiveRead[] {
  const found = new Map<Node, RecursiveRead>();
  const visit = (node: unknown, inTerms: string[], replace: (n: Node) => void) => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, inTerms, (r) => (node[i] = r)));
    if (!isObj(node)) return;
    const table = node['type'] === 'BASE_TABLE' && !node['schema_name'] && !node['catalog_name'] ? foldName('duckdb', String(node['table_name'])) : undefined;
    if (table !== undefined && inTerms.includes(table)) found.set(node, { node, cte: String(node['table_name']), replace });
    const cte = node['type'] === 'RECURSIVE_CTE_NODE' ? foldName('duckdb', String(node['cte_name'])) : undefined;
    for (const [k, v] of Object.entries(node)) visit(v, cte !== undefined && k === 'right' ? [...inTerms, cte] : inTerms, (r) => (node[k] = r));
  };
  visit(tree, [], () => undefined);
  return [...found.values()];
}

/** The SUBQUERY reference standing for `read`, around the parsed tree of cappedReadSql. */
export function cappedRead(read: RecursiveRead, parsed: Node): Node {
  return {
    type: 'SUBQUERY',
    alias: String(read.node['alias'] || read.node['table_name']),
    sample: read.node['sample'] ?? null,
    query_location: read.node['query_location'] ?? 0,
    subquery: { node: ((parsed['statements'] as Node[])[0] as Node)['node'], named_param_map: [] },
    column_name_alias: read.node['column_name_alias'] ?? [],
  };
}
