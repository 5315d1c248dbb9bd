// Guard and table rewriting for PostgreSQL, MySQL/MariaDB and SQLite through node-sql-parser.
// Fails closed: anything the parser cannot read, or any node the walk does not expect, is refused.
import { QueryRefused } from '../errors.ts';
import { sqlParser } from '../sql-parser.ts';
import type { SqlDialect } from '../types.ts';
import { isDeniedFunction, isSystemTable } from './deny-list.ts';
import { dedupeTables, OPTIMIZATION_FENCE, quoteIdent, type GuardedQuery, type TableRef, type TableRewrite } from './table-ref.ts';

type Node = Record<string, unknown>;
const WRITE_TYPES = new Set(['insert', 'update', 'delete', 'replace', 'create', 'alter', 'drop', 'truncate', 'rename', 'grant', 'revoke', 'merge', 'upsert', 'lock', 'unlock', 'call', 'set', 'use', 'load_data', 'transaction']);

const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null;

function parse(dialect: Exclude<SqlDialect, 'duckdb'>, sql: string): Node {
  let ast: unknown;
  try {
    ast = sqlParser(dialect).astify(sql, { database: dialect });
  } catch (err) {
    throw new QueryRefused('parse_error', `The statement could not be parsed as ${dialect} SQL; only plain SELECT queries are accepted (${(err as Error).message.slice(0, 200)})`);
  }
  const list = Array.isArray(ast) ? ast.filter(Boolean) : [ast];
  if (list.length === 0) throw new QueryRefused('empty', 'The query is empty');
  if (list.length > 1) throw new QueryRefused('multiple_statements', 'Send exactly one statement; multiple statements are refused');
  const root = list[0] as Node;
  if (root['type'] !== 'select') throw new QueryRefused('not_select', `Only read-only SELECT queries are accepted, not ${String(root['type']).toUpperCase()}`);
  return root;
}

/** Walks a parsed tree, calling `onTable` for each base-table FROM item with the CTE names in scope. */
function walk(node: unknown, scope: string[], onTable: (item: Node, holder: unknown[], index: number) => void): void {
  if (Array.isArray(node)) {
    node.forEach((n) => walk(n, scope, onTable));
    return;
  }
  if (!isObj(node)) return;
  const type = typeof node['type'] === 'string' ? node['type'] : undefined;
  if (type && WRITE_TYPES.has(type.toLowerCase())) throw new QueryRefused('writable_cte', `Statements that change data (${type.toUpperCase()}) are refused, also inside WITH`);
  if (type === 'function' || type === 'aggr_func') checkFunction(node);
  if (type !== 'select') {
    for (const v of Object.values(node)) walk(v, scope, onTable);
    return;
  }
  checkSelect(node);
  let inner = scope;
  const ctes = Array.isArray(node['with']) ? (node['with'] as Node[]) : [];
  for (const cte of ctes) {
    const name = String((cte['name'] as Node | undefined)?.['value'] ?? '').toLowerCase();
    // A CTE's own name is never in scope in its body: a self-reference that matches a protected
    // table is treated as that table (filtered), which can only deny, never leak.
    walk(cte['stmt'], inner, onTable);
    inner = [...inner, name];
  }
  const from = Array.isArray(node['from']) ? (node['from'] as Node[]) : [];
  from.forEach((item, i) => {
    if (typeof item['table'] === 'string' && item['expr'] === undefined) {
      const isCte = !item['db'] && inner.includes(item['table'].toLowerCase());
      if (!isCte) onTable(item, from, i);
    } else if (isObj(item['expr']) && isObj((item['expr'] as Node)['ast'])) {
      walk((item['expr'] as Node)['ast'], inner, onTable);
    } else {
      throw new QueryRefused('table_function', 'Table functions and expressions in FROM are refused; read only tables, views and subqueries');
    }
    for (const k of ['on', 'using']) walk(item[k], inner, onTable);
  });
  for (const [k, v] of Object.entries(node)) if (k !== 'with' && k !== 'from') walk(v, inner, onTable);
}

function checkSelect(node: Node): void {
  const into = node['into'] as Node | undefined;
  if (into && (into['expr'] || into['type'])) throw new QueryRefused('select_into', 'SELECT ... INTO creates or writes tables and is refused');
  if (node['locking_read'] || node['for_update']) throw new QueryRefused('locking_clause', 'Locking clauses (FOR UPDATE, FOR SHARE...) are refused');
}

function checkFunction(node: Node): void {
  const name = node['name'];
  const parts = isObj(name) && Array.isArray(name['name']) ? (name['name'] as Node[]).map((p) => String(p['value'])) : [String(name)];
  const last = parts[parts.length - 1] ?? '';
  if (isDeniedFunction(last)) throw new QueryRefused('forbidden_function', `The function ${last} is not allowed in queries`);
}

function refOf(item: Node): TableRef {
  const db = typeof item['db'] === 'string' && item['db'] ? item['db'] : undefined;
  return { ...(db ? { schema: db } : {}), name: String(item['table']) };
}

/** Guards one PostgreSQL, MySQL or SQLite statement. */
export function guardGeneric(dialect: Exclude<SqlDialect, 'duckdb'>, sql: string): GuardedQuery {
  const tree = parse(dialect, sql);
  const tables: TableRef[] = [];
  walk(tree, [], (item) => {
    const ref = refOf(item);
    if (isSystemTable(ref.schema, ref.name)) throw new QueryRefused('system_catalog', `System catalog ${ref.schema ? ref.schema + '.' : ''}${ref.name} cannot be queried`);
    tables.push(ref);
  });
  return { dialect, sql, tables: dedupeTables(tables), tree };
}

/**
 * sqlify quotes every table name it prints; in PostgreSQL an unquoted `Orders` means `orders`, so
 * names that were not quoted in the original text are folded to lower case before printing.
 */
function keepCase(dialect: Exclude<SqlDialect, 'duckdb'>, sql: string, item: Node): void {
  if (dialect !== 'postgresql') return;
  for (const k of ['db', 'table'] as const) {
    const v = item[k];
    if (typeof v === 'string' && v !== v.toLowerCase() && !sql.includes(`"${v}"`)) item[k] = v.toLowerCase();
  }
}

/** Rewrites each base-table reference as the callback says and prints the statement back. */
export function rewriteGeneric(q: GuardedQuery, rewrite: TableRewrite): string {
  const dialect = q.dialect as Exclude<SqlDialect, 'duckdb'>;
  const tree = structuredClone(q.tree) as Node;
  let changed = false;
  walk(tree, [], (item, holder, index) => {
    const target = rewrite(refOf(item));
    if (!target) {
      keepCase(dialect, q.sql, item);
      return;
    }
    changed = true;
    const qualified = `${quoteIdent(dialect, target.schema)}.${quoteIdent(dialect, target.name)}`;
    const alias = (item['as'] as string | null) ?? String(item['table']);
    const rest = Object.fromEntries(Object.entries(item).filter(([k]) => k !== 'db' && k !== 'table' && k !== 'as'));
    if (target.filter === undefined) {
      holder[index] = { ...rest, db: target.schema, table: target.name, as: alias };
      return;
    }
    const sub = parse(dialect, `SELECT * FROM ${qualified} WHERE (${target.filter})${OPTIMIZATION_FENCE[dialect]}`);
    holder[index] = { ...rest, expr: { ast: sub, parentheses: true }, as: alias };
  });
  if (!changed) return q.sql;
  return sqlParser(dialect).sqlify(tree as never, { database: dialect });
}
