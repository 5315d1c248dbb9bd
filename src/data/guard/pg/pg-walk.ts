// The guard's walk over PostgreSQL's parse tree, shared by the PostgreSQL and SQLite dialects (SQLite
// is read through the same grammar). Fails closed: one SELECT; no INTO, locking or writable CTE; no
// denied function or table function outside the allow-list; generators bounded; bind placeholders
// collected (guard-sql.ts decides on them); and every base-table reference found, with the CTE names
// in scope as the dialect binds them.
import { foldName, cteBodyScope } from '../cte-scope.ts';
import { isDeniedFunction, isSystemTable } from '../deny-list.ts';
import { generatedRows, isAllowedTableFunction, isGenerator } from '../row-generators.ts';
import type { TableRef } from '../table-ref.ts';
import { QueryRefused } from '../../errors.ts';
import { generatorArgs } from './pg-literals.ts';
import { nodeType, type PgNode } from './pg-parser.ts';

export type PgDialect = 'postgresql' | 'sqlite';

/** A base-table reference in a parsed statement. */
export interface PgRef {
  ref: TableRef;
  /** The RangeVar body (its `location` is where the name starts in the parsed text). */
  rangeVar: PgNode;
  /** The enclosing RangeTableSample body, when the reference is sampled. */
  sample?: PgNode;
  /** The SELECT whose FROM holds the reference. */
  select: PgNode;
  /** Replaces the reference's wrapped node (RangeVar, or its RangeTableSample) in the tree. */
  replace(node: PgNode): void;
}

export interface PgWalk {
  refs: PgRef[];
  generators: { name: string; rows: number | undefined }[];
  functions: Set<string>;
  /** The numbers of the `$n` placeholders, in the order met. */
  placeholders: number[];
  /** SELECTs whose FROM reads a CTE they are part of: the recursive terms, where a recursion cap goes. */
  recursiveTerms: PgNode[];
  /** The CommonTableExpr each recursive term belongs to (same index). */
  recursiveCtes: PgNode[];
}

const isObj = (v: unknown): v is PgNode => typeof v === 'object' && v !== null && !Array.isArray(v);
const sval = (n: unknown) => String(((n as PgNode | undefined)?.['String'] as PgNode | undefined)?.['sval'] ?? '');
// The CTEs whose bodies the walk is inside (the walk is synchronous, so one list serves every call).
const defining: string[] = [];
const definingCtes: PgNode[] = [];
const SAMPLE_METHODS = new Set(['system', 'bernoulli']);

/** Walks one statement of a parse result; throws QueryRefused on the first thing it refuses. */
export function walkPg(dialect: PgDialect, stmt: PgNode): PgWalk {
  const out: PgWalk = { refs: [], generators: [], functions: new Set(), placeholders: [], recursiveTerms: [], recursiveCtes: [] };
  defining.length = 0;
  definingCtes.length = 0;
  const type = nodeType(stmt);
  if (type !== 'SelectStmt') {
    throw new QueryRefused('not_select', `Only read-only SELECT queries are accepted, not ${(type ?? 'this statement').replace(/Stmt$/, '').toUpperCase()}`);
  }
  visitSelect(dialect, stmt['SelectStmt'] as PgNode, [], out);
  return out;
}

function visitSelect(dialect: PgDialect, s: PgNode, scope: string[], out: PgWalk): void {
  if (s['intoClause']) throw new QueryRefused('select_into', 'SELECT ... INTO creates or writes tables and is refused');
  if (s['lockingClause']) throw new QueryRefused('locking_clause', 'Locking clauses (FOR UPDATE, FOR SHARE...) are refused');
  const withClause = s['withClause'] as PgNode | undefined;
  const ctes = ((withClause?.['ctes'] as PgNode[] | undefined) ?? []).map((c) => c['CommonTableExpr'] as PgNode);
  const names = ctes.map((c) => foldName(dialect, String(c['ctename'])));
  ctes.forEach((cte, i) => {
    const query = cte['ctequery'];
    if (nodeType(query) !== 'SelectStmt') throw new QueryRefused('writable_cte', 'Statements that change data are refused, also inside WITH');
    defining.push(names[i]!);
    definingCtes.push(cte);
    visitSelect(dialect, (query as PgNode)['SelectStmt'] as PgNode, cteBodyScope(dialect, scope, names, i, withClause?.['recursive'] === true), out);
    defining.pop();
    definingCtes.pop();
  });
  const inner = [...scope, ...names];
  for (const [k, v] of Object.entries(s)) {
    if (k === 'withClause') continue;
    if (k === 'larg' || k === 'rarg') visitSelect(dialect, v as PgNode, inner, out);
    else if (k === 'fromClause') (v as PgNode[]).forEach((item, i, list) => visitFrom(dialect, item, inner, s, out, (n) => (list[i] = n)));
    else visit(dialect, v, inner, s, out);
  }
}

function visitFrom(dialect: PgDialect, item: PgNode, scope: string[], select: PgNode, out: PgWalk, replace: (n: PgNode) => void): void {
  const type = nodeType(item);
  const body = type ? (item[type] as PgNode) : {};
  switch (type) {
    case 'RangeVar':
      return onTable(dialect, body, scope, select, out, replace);
    case 'JoinExpr':
      visitFrom(dialect, body['larg'] as PgNode, scope, select, out, (n) => (body['larg'] = n));
      visitFrom(dialect, body['rarg'] as PgNode, scope, select, out, (n) => (body['rarg'] = n));
      return visit(dialect, body['quals'], scope, select, out);
    case 'RangeSubselect':
      return visit(dialect, body['subquery'], scope, select, out);
    case 'RangeFunction':
      return visitRangeFunction(dialect, body, scope, select, out);
    case 'RangeTableSample': {
      const method = sval((body['method'] as PgNode[] | undefined)?.at(-1)).toLowerCase();
      if (!SAMPLE_METHODS.has(method)) throw new QueryRefused('table_function', `TABLESAMPLE ${method.toUpperCase()} is refused; use SYSTEM or BERNOULLI`);
      const rel = body['relation'] as PgNode;
      if (nodeType(rel) !== 'RangeVar') throw new QueryRefused('table_function', 'TABLESAMPLE applies to tables only');
      onTable(dialect, rel['RangeVar'] as PgNode, scope, select, out, replace, body);
      visit(dialect, body['args'], scope, select, out);
      return visit(dialect, body['repeatable'], scope, select, out);
    }
    default:
      throw new QueryRefused('table_function', `${type ?? 'This'} in FROM is refused; read tables, views, subqueries, VALUES and allowed table functions`);
  }
}

function visitRangeFunction(dialect: PgDialect, body: PgNode, scope: string[], select: PgNode, out: PgWalk): void {
  for (const entry of (body['functions'] as PgNode[] | undefined) ?? []) {
    const call = ((entry['List'] as PgNode | undefined)?.['items'] as unknown[] | undefined)?.[0];
    const fn = nodeType(call) === 'FuncCall' ? ((call as PgNode)['FuncCall'] as PgNode) : undefined;
    const name = fn ? sval((fn['funcname'] as PgNode[]).at(-1)) : '';
    if (!name || !isAllowedTableFunction(dialect, name)) {
      throw new QueryRefused('table_function', `Table function ${name || '(expression)'} in FROM is refused; read tables, views, subqueries, VALUES and allowed table functions`);
    }
  }
  visit(dialect, body['functions'], scope, select, out);
}

function onTable(dialect: PgDialect, rv: PgNode, scope: string[], select: PgNode, out: PgWalk, replace: (n: PgNode) => void, sample?: PgNode): void {
  const name = String(rv['relname']);
  const schema = rv['schemaname'] === undefined ? undefined : String(rv['schemaname']);
  const catalog = rv['catalogname'] === undefined ? undefined : String(rv['catalogname']);
  if (!schema && !catalog && scope.includes(foldName(dialect, name))) {
    const at = defining.lastIndexOf(foldName(dialect, name));
    if (at >= 0 && !out.recursiveTerms.includes(select)) {
      out.recursiveTerms.push(select);
      out.recursiveCtes.push(definingCtes[at]!);
    }
    return;
  }
  if (catalog !== undefined || isSystemTable(dialect, schema, name)) {
    throw new QueryRefused('system_catalog', `${[catalog, schema, name].filter(Boolean).join('.')} cannot be queried`);
  }
  out.refs.push({ ref: { ...(schema ? { schema } : {}), name }, rangeVar: rv, ...(sample ? { sample } : {}), select, replace });
}

function checkFunction(dialect: PgDialect, call: PgNode, out: PgWalk): void {
  const name = sval((call['funcname'] as PgNode[]).at(-1));
  out.functions.add(name.toLowerCase());
  if (isDeniedFunction(dialect, name)) throw new QueryRefused('forbidden_function', `The function ${name} is not allowed in queries`);
  if (isGenerator(dialect, name)) out.generators.push({ name, rows: generatedRows(dialect, name, generatorArgs((call['args'] as unknown[] | undefined) ?? [])) });
}

function visit(dialect: PgDialect, v: unknown, scope: string[], select: PgNode, out: PgWalk): void {
  if (Array.isArray(v)) {
    for (const x of v) visit(dialect, x, scope, select, out);
    return;
  }
  if (!isObj(v)) return;
  const type = nodeType(v);
  const body = type ? (v[type] as PgNode) : undefined;
  switch (type) {
    case 'SelectStmt':
      return visitSelect(dialect, body!, scope, out);
    case 'RangeVar':
    case 'JoinExpr':
    case 'RangeSubselect':
    case 'RangeFunction':
    case 'RangeTableSample':
      // Only FROM holds these; met anywhere else they are still treated as what they are.
      return visitFrom(dialect, v, scope, select, out, () => {
        throw new QueryRefused('unsupported_syntax', 'A table reference outside FROM cannot be rewritten');
      });
    case 'ParamRef':
      out.placeholders.push(Number(body!['number'] ?? 0));
      break;
    case 'FuncCall':
      checkFunction(dialect, body!, out);
      break;
    case 'XmlExpr':
      if (body!['op'] === 'IS_XMLPARSE') throw new QueryRefused('forbidden_function', 'XMLPARSE is not allowed in queries');
      break;
    default:
      break;
  }
  for (const x of Object.values(body ?? v)) visit(dialect, x, scope, select, out);
}
