// Guard and table rewriting for DuckDB with the engine's own parser: extractStatements counts
// statements, json_serialize_sql gives the SELECT tree (or an error for anything else), and
// json_deserialize_sql prints a rewritten tree back. No DuckDB syntax is lost in translation.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { classifySelectTree } from '../duckdb-select-tree.ts';
import { QueryRefused } from '../errors.ts';
import { isDeniedFunction, isSystemTable } from './deny-list.ts';
import { dedupeTables, OPTIMIZATION_FENCE, quoteIdent, type GuardedQuery, type TableRef, type TableRewrite } from './table-ref.ts';

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null;
const ALLOWED_REFS = new Set(['BASE_TABLE', 'JOIN', 'SUBQUERY', 'EMPTY', 'EMPTY_FROM', 'EXPRESSION_LIST', 'PIVOT']);
/** Catalogs a query may name: none, or the attached warehouse. */
const ALLOWED_CATALOGS = new Set(['', 'wh']);

/** A parse-only DuckDB session (in memory, no external access) used by the guard and rewriting. */
export interface DuckDbSql {
  count(sql: string): Promise<number>;
  serialize(sql: string): Promise<Node>;
  deserialize(tree: Node): Promise<string>;
  close(): void;
}

/** Opens the parse-only session; the owner closes it. */
export async function openDuckDbSql(): Promise<DuckDbSql> {
  // One thread: it only parses and prints SQL, and each DuckDB thread holds memory of its own.
  const instance = await DuckDBInstance.create(':memory:', { threads: '1', autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' });
  const conn: DuckDBConnection = await instance.connect();
  await conn.run('SET enable_external_access = false');
  await conn.run('SET lock_configuration = true');
  const scalar = async (sql: string, arg: string) => String((await conn.runAndReadAll(sql, [arg])).getRows()[0]?.[0] ?? '');
  return {
    async count(sql) {
      return (await conn.extractStatements(sql)).count;
    },
    async serialize(sql) {
      // Unknown locations are UINT64_MAX, which JSON.parse rounds to a value DuckDB cannot read back.
      return JSON.parse((await scalar('SELECT json_serialize_sql($1::VARCHAR)', sql)).replace(/"query_location":\d{16,}/g, '"query_location":0')) as Node;
    },
    async deserialize(tree) {
      return scalar('SELECT json_deserialize_sql($1::JSON)', JSON.stringify(tree));
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

async function parse(tools: DuckDbSql, sql: string): Promise<Node> {
  let count: number;
  try {
    count = await tools.count(sql);
  } catch (err) {
    throw new QueryRefused('parse_error', `The statement could not be parsed as DuckDB SQL: ${(err as Error).message.slice(0, 300)}`);
  }
  if (count === 0) throw new QueryRefused('empty', 'The query is empty');
  if (count > 1) throw new QueryRefused('multiple_statements', 'Send exactly one statement; multiple statements are refused');
  const judged = classifySelectTree(await tools.serialize(sql));
  if (!judged.ok) {
    throw new QueryRefused(judged.reason, judged.reason === 'parse_error' ? `The statement could not be parsed: ${judged.message.slice(0, 300)}` : judged.message);
  }
  const tree = judged.tree;
  const statements = tree['statements'];
  if (!Array.isArray(statements) || statements.length !== 1) throw new QueryRefused('multiple_statements', 'Send exactly one statement');
  return tree;
}

type OnTable = (ref: Node, replace: (n: Node) => void) => void;

/** Walks the tree with CTE names in scope, calling `onTable` for base-table references. */
function walk(node: unknown, scope: string[], onTable: OnTable, replace: (n: Node) => void = () => undefined): void {
  if (Array.isArray(node)) {
    node.forEach((n, i) => walk(n, scope, onTable, (r) => (node[i] = r)));
    return;
  }
  if (!isObj(node)) return;
  if (node['class'] === 'FUNCTION' && typeof node['function_name'] === 'string' && isDeniedFunction(node['function_name'])) {
    throw new QueryRefused('forbidden_function', `The function ${node['function_name']} is not allowed in queries`);
  }
  let inner = scope;
  const cteMap = isObj(node['cte_map']) && Array.isArray(node['cte_map']['map']) ? (node['cte_map']['map'] as Node[]) : [];
  for (const cte of cteMap) {
    const name = String(cte['key']).toLowerCase();
    // A CTE's own name is never in scope in its body: a self-reference that matches a protected
    // table is treated as that table (filtered), which can only deny, never leak.
    walk((cte['value'] as Node | undefined)?.['query'], inner, onTable);
    inner = [...inner, name];
  }
  const type = node['type'];
  const isTableRef = typeof type === 'string' && 'alias' in node && ('sample' in node || type === 'EMPTY' || type === 'EMPTY_FROM');
  if (isTableRef && !ALLOWED_REFS.has(type)) {
    throw new QueryRefused('table_function', `Table functions and ${type} in FROM are refused; read only tables, views and subqueries`);
  }
  if (type === 'BASE_TABLE') {
    // DuckDB reads `FROM 'file.csv'` through a replacement scan: a path is never a table name.
    if (/[./\\:]/.test(String(node['table_name']))) throw new QueryRefused('table_function', 'File paths and URLs cannot be read; query tables only');
    const isCte = !node['schema_name'] && !node['catalog_name'] && inner.includes(String(node['table_name']).toLowerCase());
    if (!isCte) onTable(node, replace);
    return;
  }
  for (const [k, v] of Object.entries(node)) {
    if (k === 'cte_map') continue;
    if (isObj(v) && !Array.isArray(v)) walk(v, inner, onTable, (r) => (node[k] = r));
    else walk(v, inner, onTable);
  }
}

function refOf(n: Node): TableRef {
  const catalog = String(n['catalog_name'] ?? '');
  let schema = String(n['schema_name'] ?? '');
  // `wh.orders` names the attached catalog, not a schema: it is the default schema's table.
  if (!catalog && ALLOWED_CATALOGS.has(schema.toLowerCase())) schema = '';
  return { ...(catalog ? { catalog } : {}), ...(schema ? { schema } : {}), name: String(n['table_name']) };
}

/** Guards one DuckDB statement. */
export async function guardDuckDb(tools: DuckDbSql, sql: string): Promise<GuardedQuery> {
  const tree = await parse(tools, sql);
  const tables: TableRef[] = [];
  walk(tree, [], (n) => {
    const ref = refOf(n);
    if (!ALLOWED_CATALOGS.has((ref.catalog ?? '').toLowerCase()) || isSystemTable(ref.schema, ref.name)) {
      throw new QueryRefused('system_catalog', `${[ref.catalog, ref.schema, ref.name].filter(Boolean).join('.')} cannot be queried`);
    }
    tables.push(ref);
  });
  return { dialect: 'duckdb', sql, tables: dedupeTables(tables), tree };
}

/** Rewrites each base-table reference as the callback says and prints the statement back. */
export async function rewriteDuckDb(tools: DuckDbSql, q: GuardedQuery, rewrite: TableRewrite): Promise<string> {
  const tree = structuredClone(q.tree) as Node;
  const pending: { node: Node; replace: (n: Node) => void; sql: string }[] = [];
  walk(tree, [], (node, replace) => {
    const target = rewrite(refOf(node));
    if (!target) return;
    const qualified = `${quoteIdent('duckdb', target.schema)}.${quoteIdent('duckdb', target.name)}`;
    const where = target.filter === undefined ? '' : ` WHERE (${target.filter})${OPTIMIZATION_FENCE.duckdb}`;
    pending.push({ node, replace, sql: `SELECT * FROM ${qualified}${where}` });
  });
  if (pending.length === 0) return q.sql;
  for (const p of pending) {
    const sub = await parse(tools, p.sql);
    const subNode = ((sub['statements'] as Node[])[0] as Node)['node'] as Node;
    const alias = String(p.node['alias'] || p.node['table_name']);
    p.replace({
      type: 'SUBQUERY',
      alias,
      sample: p.node['sample'] ?? null,
      query_location: p.node['query_location'],
      subquery: { node: subNode, named_param_map: [] },
      column_name_alias: p.node['column_name_alias'] ?? [],
    });
  }
  return tools.deserialize(tree);
}
