// Guard and table rewriting for MySQL and MariaDB through node-sql-parser, on the canonical text of
// mysql-text.ts (no comments, strings spelled for every sql_mode). What the server receives is always
// sqlify of the checked (and rewritten) tree, and that text must be canonical and parse back to the
// same tree. Fails closed: anything the parser cannot read, or any node the walk does not expect.
import { QueryRefused } from '../../errors.ts';
import { sqlParser } from '../../sql-parser.ts';
import { cteBodyScope } from '../cte-scope.ts';
import { isDeniedFunction, isSystemTable } from '../deny-list.ts';
import { dedupeTables, OPTIMIZATION_FENCE, quoteIdent, type GuardedQuery, type TableRef, type TableRewrite } from '../table-ref.ts';
import { canonicalMysqlText, isCanonicalMysqlText } from './mysql-text.ts';

type Node = Record<string, unknown>;
type OnTable = (item: Node, holder: unknown[], index: number) => void;
const WRITE_TYPES = new Set(['insert', 'update', 'delete', 'replace', 'create', 'alter', 'drop', 'truncate', 'rename', 'grant', 'revoke', 'merge', 'upsert', 'lock', 'unlock', 'call', 'set', 'use', 'load_data', 'transaction']);
const isObj = (v: unknown): v is Node => typeof v === 'object' && v !== null;

function parse(sql: string): Node {
  let ast: unknown;
  try {
    ast = sqlParser('mysql').astify(sql, { database: 'mysql' });
  } catch (err) {
    throw new QueryRefused('parse_error', `The statement could not be parsed as MySQL SQL; only plain SELECT queries are accepted (${(err as Error).message.slice(0, 200)})`);
  }
  const list = Array.isArray(ast) ? ast.filter(Boolean) : [ast];
  if (list.length === 0) throw new QueryRefused('empty', 'The query is empty');
  if (list.length > 1) throw new QueryRefused('multiple_statements', 'Send exactly one statement; multiple statements are refused');
  const root = list[0] as Node;
  if (root['type'] !== 'select') throw new QueryRefused('not_select', `Only read-only SELECT queries are accepted, not ${String(root['type']).toUpperCase()}`);
  return root;
}

/** The unqualified name of a function or aggregate node. */
function functionName(node: Node): string {
  const name = node['name'];
  const parts = isObj(name) && Array.isArray(name['name']) ? (name['name'] as Node[]).map((p) => String(p['value'])) : [String(name)];
  return parts.at(-1) ?? '';
}

/** Names of every function the tree calls, lower-cased. */
function functionNames(v: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => functionNames(x, found));
  else if (isObj(v)) {
    if (v['type'] === 'function' || v['type'] === 'aggr_func') found.add(functionName(v).toLowerCase());
    Object.values(v).forEach((x) => functionNames(x, found));
  }
  return found;
}

function checkNode(node: Node, type: string | undefined): void {
  if (type && WRITE_TYPES.has(type.toLowerCase())) throw new QueryRefused('writable_cte', `Statements that change data (${type.toUpperCase()}) are refused, also inside WITH`);
  // `?` placeholders are counted (placeholdersOf) and judged by guard-sql.ts; named ones never bind here.
  if (type === 'param') throw new QueryRefused('parameter', 'Named bind parameters (:name) are refused: write the values into the query');
  if (type === 'var' || type === 'assign') throw new QueryRefused('parameter', 'Session and system variables (@x, @@x, :=) are refused: write the values into the query');
  if (type === 'function' || type === 'aggr_func') {
    const name = functionName(node);
    if (isDeniedFunction('mysql', name)) throw new QueryRefused('forbidden_function', `The function ${name} is not allowed in queries`);
  }
  if (type === 'select') {
    const into = node['into'] as Node | undefined;
    if (into && (into['expr'] || into['type'])) throw new QueryRefused('select_into', 'SELECT ... INTO creates or writes tables and is refused');
    if (node['locking_read'] || node['for_update']) throw new QueryRefused('locking_clause', 'Locking clauses (FOR UPDATE, FOR SHARE...) are refused');
  }
}

const isPlaceholder = (v: Node) => v['type'] === 'origin' && v['value'] === '?';

/** The `?` placeholders of a tree, numbered as the server binds them (the n-th is n). */
function placeholdersOf(v: unknown, found: number[] = []): number[] {
  if (Array.isArray(v)) v.forEach((x) => placeholdersOf(x, found));
  else if (isObj(v)) {
    if (isPlaceholder(v)) found.push(found.length + 1);
    Object.values(v).forEach((x) => placeholdersOf(x, found));
  }
  return found;
}

/** Walks a parsed tree, calling `onTable` for each base-table FROM item with the CTE names in scope. */
function walk(node: unknown, scope: string[], onTable: OnTable): void {
  if (Array.isArray(node)) return node.forEach((n) => walk(n, scope, onTable));
  if (!isObj(node)) return;
  const type = typeof node['type'] === 'string' ? node['type'] : undefined;
  checkNode(node, type);
  if (type !== 'select') {
    for (const v of Object.values(node)) walk(v, scope, onTable);
    return;
  }
  const ctes = Array.isArray(node['with']) ? (node['with'] as Node[]) : [];
  const names = ctes.map((c) => String((c['name'] as Node | undefined)?.['value'] ?? ''));
  const recursive = ctes.some((c) => c['recursive'] === true);
  ctes.forEach((cte, i) => walk(cte['stmt'], cteBodyScope('mysql', scope, names, i, recursive), onTable));
  const inner = [...scope, ...names];
  walkFrom(fromList(node['from']), inner, onTable);
  for (const [k, v] of Object.entries(node)) if (k !== 'with' && k !== 'from') walk(v, inner, onTable);
}

// node-sql-parser's tree of a text depends on how it was written where the meaning does not: a
// subquery is sometimes wrapped as `{ tableList, columnList, ast }` (the lists are derived), and a
// name written in backticks is `{ type: 'backticks_quote_string', value }` rather than the string.
const comparable = (tree: Node) =>
  JSON.stringify(tree, (k, v: unknown) => {
    if (isObj(v) && 'ast' in v && 'tableList' in v) return v['ast'];
    if (isObj(v) && v['type'] === 'backticks_quote_string') return v['value'];
    // ORDER BY without a direction is printed as ASC.
    if (/orderby$/.test(k) && Array.isArray(v)) return v.map((o: Node) => ({ ...o, type: o['type'] ?? 'ASC' }));
    // Key order carries no meaning either.
    return isObj(v) && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v;
  });

/**
 * FROM as node-sql-parser gives it: a list, or for `FROM (a JOIN b ...) JOIN c` a parenthesized group
 * `{ expr: [items], joins: [items] }`, which can also be an item of a list. Any other shape is refused.
 */
function fromList(from: unknown): Node[] {
  if (from === null || from === undefined) return [];
  if (Array.isArray(from)) return from as Node[];
  if (isObj(from) && Array.isArray(from['expr'])) return [from];
  throw new QueryRefused('unsupported_syntax', 'This FROM clause could not be read');
}

function walkFrom(items: Node[], scope: string[], onTable: OnTable): void {
  items.forEach((item, i) => {
    if (typeof item['table'] === 'string' && item['expr'] === undefined) {
      if (item['db'] || !scope.includes(item['table'])) onTable(item, items, i);
    } else if (isObj(item['expr']) && isObj((item['expr'] as Node)['ast'])) {
      walk((item['expr'] as Node)['ast'], scope, onTable);
    } else if (Array.isArray(item['expr'])) {
      walkFrom(item['expr'] as Node[], scope, onTable);
      walkFrom(fromList(item['joins']), scope, onTable);
    } else {
      throw new QueryRefused('table_function', 'Table functions and expressions in FROM are refused; read only tables, views and subqueries');
    }
    for (const k of ['on', 'using']) walk(item[k], scope, onTable);
  });
}

function refOf(item: Node): TableRef {
  const db = typeof item['db'] === 'string' && item['db'] ? item['db'] : undefined;
  return { ...(db ? { schema: db } : {}), name: String(item['table']) };
}

/** Guards one MySQL or MariaDB statement. */
export function guardMysql(sql: string): GuardedQuery {
  const tree = parse(canonicalMysqlText(sql));
  const tables: TableRef[] = [];
  walk(tree, [], (item) => {
    const ref = refOf(item);
    if (isSystemTable('mysql', ref.schema, ref.name)) throw new QueryRefused('system_catalog', `System catalog ${ref.schema ? ref.schema + '.' : ''}${ref.name} cannot be queried`);
    tables.push(ref);
  });
  return { dialect: 'mysql', sql, tables: dedupeTables(tables), functions: [...functionNames(tree)], placeholders: placeholdersOf(tree), tree };
}

/** Rewrites each base-table reference as the callback says; returns the verified text the server receives. */
export function rewriteMysql(q: GuardedQuery, rewrite: TableRewrite): string {
  const tree = structuredClone(q.tree) as Node;
  walk(tree, [], (item, holder, index) => {
    const target = rewrite(refOf(item));
    if (!target) return;
    const qualified = `${quoteIdent('mysql', target.schema)}.${quoteIdent('mysql', target.name)}`;
    const alias = (item['as'] as string | null) ?? String(item['table']);
    const rest = Object.fromEntries(Object.entries(item).filter(([k]) => k !== 'db' && k !== 'table' && k !== 'as'));
    if (target.filter === undefined) {
      holder[index] = { ...rest, db: target.schema, table: target.name, as: alias };
      return;
    }
    // Built the way the parser reads it back, so the printed text can be compared with this tree.
    const wrapped = parse(canonicalMysqlText(`SELECT * FROM (SELECT * FROM ${qualified} WHERE (${target.filter})${OPTIMIZATION_FENCE.mysql}) AS ${quoteIdent('mysql', alias)}`));
    holder[index] = { ...rest, ...(wrapped['from'] as Node[])[0] };
  });
  const sql = sqlParser('mysql').sqlify(tree as never, { database: 'mysql' });
  const again = isCanonicalMysqlText(sql) ? parse(sql) : undefined;
  if (!again || comparable(again) !== comparable(tree)) {
    throw new QueryRefused('unsupported_syntax', 'The statement could not be printed back in a form verified to mean the same; simplify it');
  }
  return sql;
}
