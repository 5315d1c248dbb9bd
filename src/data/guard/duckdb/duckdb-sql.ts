// Guard and table rewriting for DuckDB with the engine's own parser. What DuckDB receives is always
// json_deserialize_sql of the checked (and rewritten) tree, never the input text, and that text is
// parsed again and must give the same tree. No DuckDB syntax is lost in translation.
import { QueryRefused } from '../../errors.ts';
import { classifySelectTree } from '../../duckdb-select-tree.ts';
import { isSystemTable } from '../deny-list.ts';
import { boundGenerators } from '../row-generators.ts';
import { dedupeTables, OPTIMIZATION_FENCE, quoteIdent, type GuardedQuery, type TableRef, type TableRewrite } from '../table-ref.ts';
import { comparableDuckDbTree } from './duckdb-compare.ts';
import { cappedRead, cappedReadSql, recursiveReads } from './duckdb-recursion-cap.ts';
import type { DuckDbSql } from './duckdb-session.ts';
import { walkDuckDb, type Found, type Node } from './duckdb-walk.ts';

/** Catalogs a query may name: none, or the attached warehouse. */
const ALLOWED_CATALOGS = new Set(['', 'wh']);

async function parse(tools: DuckDbSql, sql: string): Promise<Node> {
  if (sql.includes('\0')) throw new QueryRefused('ambiguous_syntax', 'The statement contains a NUL character');
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
  const statements = judged.tree['statements'];
  if (!Array.isArray(statements) || statements.length !== 1) throw new QueryRefused('multiple_statements', 'Send exactly one statement');
  return judged.tree;
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
  const found: Found = { generators: [], functions: new Set(), placeholders: [] };
  walkDuckDb(tree, [], (n) => {
    const ref = refOf(n);
    if (!ALLOWED_CATALOGS.has((ref.catalog ?? '').toLowerCase()) || isSystemTable('duckdb', ref.schema, ref.name)) {
      throw new QueryRefused('system_catalog', `${[ref.catalog, ref.schema, ref.name].filter(Boolean).join('.')} cannot be queried`);
    }
    tables.push(ref);
  }, found);
  boundGenerators(found.generators);
  return { dialect: 'duckdb', sql, tables: dedupeTables(tables), functions: [...found.functions], placeholders: found.placeholders ?? [], tree };
}

/** Whether a guarded DuckDB statement sorts its result at its top level (ORDER BY on the outermost query or set operation). */
export function duckDbSortsAtTop(q: GuardedQuery): boolean {
  const top = (((q.tree as Node)['statements'] as Node[] | undefined)?.[0]?.['node'] ?? {}) as Node;
  return ((top['modifiers'] ?? []) as Node[]).some((m) => m['type'] === 'ORDER_MODIFIER');
}

// The filtered subqueries of a user repeat from query to query: their trees are parsed once per session.
async function filteredSubquery(tools: DuckDbSql, sql: string): Promise<Node> {
  let tree = tools.subqueries.get(sql);
  if (!tree) {
    tree = await parse(tools, sql);
    if (tools.subqueries.size >= 500) tools.subqueries.delete(tools.subqueries.keys().next().value!);
    tools.subqueries.set(sql, tree);
  }
  return structuredClone(tree);
}

/** Rewrites each base-table reference as the callback says, and caps recursive CTEs; returns the verified text DuckDB receives. */
export async function rewriteDuckDb(tools: DuckDbSql, q: GuardedQuery, rewrite: TableRewrite): Promise<string> {
  const tree = structuredClone(q.tree) as Node;
  const pending: { node: Node; replace: (n: Node) => void; sql: string }[] = [];
  walkDuckDb(tree, [], (node, replace) => {
    const target = rewrite(refOf(node));
    if (!target) return;
    const qualified = `${quoteIdent('duckdb', target.schema)}.${quoteIdent('duckdb', target.name)}`;
    const where = target.filter === undefined ? '' : ` WHERE (${target.filter})${OPTIMIZATION_FENCE.duckdb}`;
    pending.push({ node, replace, sql: `SELECT * FROM ${qualified}${where}` });
  }, { generators: [], functions: new Set() });
  for (const p of pending) {
    const sub = await filteredSubquery(tools, p.sql);
    p.replace({
      type: 'SUBQUERY',
      alias: String(p.node['alias'] || p.node['table_name']),
      // A sample stays on the reference, now of the filtered rows (USING SAMPLE, TABLESAMPLE).
      sample: p.node['sample'] ?? null,
      query_location: p.node['query_location'] ?? 0,
      subquery: { node: ((sub['statements'] as Node[])[0] as Node)['node'], named_param_map: [] },
      column_name_alias: p.node['column_name_alias'] ?? [],
    });
  }
  // Every recursive CTE counts the rows it reads back (duckdb-recursion-cap.ts).
  for (const read of recursiveReads(tree)) read.replace(cappedRead(read, await filteredSubquery(tools, cappedReadSql(read.cte))));
  const sql = await tools.deserialize(tree);
  const again = await parse(tools, sql).catch(() => undefined);
  if (!again || comparableDuckDbTree(again) !== comparableDuckDbTree(tree)) {
    throw new QueryRefused('unsupported_syntax', 'The statement could not be printed back in a form verified to mean the same; simplify it');
  }
  return sql;
}
