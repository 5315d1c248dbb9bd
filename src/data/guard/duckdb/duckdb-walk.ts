// The guard's walk over DuckDB's serialized parse tree: denied functions, named parameters, numbered
// placeholders (collected for guard-sql.ts to judge), table functions outside the allow-list, bounded generators, and every base-table reference with the CTE names in
// scope as DuckDB binds them (the recursive term of a recursive CTE sees itself; nothing sees later
// siblings).
import { cteBodyScope, foldName } from '../cte-scope.ts';
import { isDeniedFunction } from '../deny-list.ts';
import { generatedRows, isAllowedTableFunction, isGenerator } from '../row-generators.ts';
import { QueryRefused } from '../../errors.ts';
import { generatorArgs } from './duckdb-literals.ts';

export type Node = Record<string, unknown>;
export type OnTable = (ref: Node, replace: (n: Node) => void) => void;
/** What the walk collects besides table references: generator sizes and called function names. */
export interface Found {
  generators: { name: string; rows: number | undefined }[];
  functions: Set<string>;
  /** The numbers of the `$n` (or `?`) placeholders, in the order met. */
  placeholders?: number[];
}

const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null;
const ALLOWED_REFS = new Set(['BASE_TABLE', 'JOIN', 'SUBQUERY', 'EMPTY', 'EMPTY_FROM', 'EXPRESSION_LIST', 'PIVOT', 'TABLE_FUNCTION']);

function checkExpression(node: Node, found: Found): void {
  if (node['class'] === 'PARAMETER') {
    const id = String(node['identifier'] ?? '');
    if (!/^[1-9][0-9]{0,5}$/.test(id)) throw new QueryRefused('parameter', 'Named bind parameters ($name) are refused: write the values into the query');
    found.placeholders?.push(Number(id));
    return;
  }
  if (node['class'] !== 'FUNCTION' || typeof node['function_name'] !== 'string') return;
  const name = node['function_name'];
  if (!node['is_operator']) found.functions.add(name.toLowerCase());
  if (isDeniedFunction('duckdb', name)) throw new QueryRefused('forbidden_function', `The function ${name} is not allowed in queries`);
  if (isGenerator('duckdb', name)) found.generators.push({ name, rows: generatedRows('duckdb', name, generatorArgs(node['children'] as Node[])) });
}

function checkTableRef(node: Node, type: string): void {
  if (!ALLOWED_REFS.has(type)) throw new QueryRefused('table_function', `${type} in FROM is refused; read only tables, views and subqueries`);
  if (type === 'TABLE_FUNCTION') {
    const name = String((node['function'] as Node | undefined)?.['function_name'] ?? '');
    if (!isAllowedTableFunction('duckdb', name)) throw new QueryRefused('table_function', `Table function ${name} in FROM is refused; read only tables, views and subqueries`);
  }
  // DuckDB reads `FROM 'file.csv'` through a replacement scan: a path is never a table name.
  if (type === 'BASE_TABLE' && /[./\\:]/.test(String(node['table_name']))) throw new QueryRefused('table_function', 'File paths and URLs cannot be read; query tables only');
}

function walkCtes(node: Node, scope: string[], onTable: OnTable, found: Found): string[] {
  const ctes = isObj(node['cte_map']) && Array.isArray(node['cte_map']['map']) ? (node['cte_map']['map'] as Node[]) : [];
  const names = ctes.map((c) => foldName('duckdb', String(c['key'])));
  ctes.forEach((cte, i) => {
    const query = (cte['value'] as Node | undefined)?.['query'] as Node | undefined;
    const body = query?.['node'] as Node | undefined;
    if (body?.['type'] === 'RECURSIVE_CTE_NODE') {
      for (const [k, v] of Object.entries(body)) {
        const part = k === 'right' ? 'recursive' : 'anchor';
        walkDuckDb(v, cteBodyScope('duckdb', scope, names, i, true, part), onTable, found);
      }
    } else {
      walkDuckDb(query, cteBodyScope('duckdb', scope, names, i, false), onTable, found);
    }
  });
  return [...scope, ...names];
}

/** Walks the tree with CTE names in scope, calling `onTable` for base-table references. */
export function walkDuckDb(node: unknown, scope: string[], onTable: OnTable, found: Found, replace: (n: Node) => void = () => undefined): void {
  if (Array.isArray(node)) {
    node.forEach((n, i) => walkDuckDb(n, scope, onTable, found, (r) => (node[i] = r)));
    return;
  }
  if (!isObj(node)) return;
  checkExpression(node, found);
  const inner = walkCtes(node, scope, onTable, found);
  const type = node['type'];
  if (typeof type === 'string' && 'alias' in node && 'sample' in node) checkTableRef(node, type);
  if (type === 'BASE_TABLE') {
    const isCte = !node['schema_name'] && !node['catalog_name'] && inner.includes(foldName('duckdb', String(node['table_name'])));
    if (!isCte) onTable(node, replace);
    return;
  }
  for (const [k, v] of Object.entries(node)) {
    if (k === 'cte_map') continue;
    if (isObj(v) && !Array.isArray(v)) walkDuckDb(v, inner, onTable, found, (r) => (node[k] = r));
    else walkDuckDb(v, inner, onTable, found);
  }
}
