// Translates node-sql-parser's AST (PostgreSQL, MySQL/MariaDB, SQLite) into the lineage IR.
// The AST is loosely typed and varies by dialect, so it is read defensively: identifiers arrive as
// strings, `{ value }` or `{ expr: { value } }`; subqueries as `{ ast }`; set operations as a `_next` chain.
import { sqlParser, type ParsedDialect } from '../sql-parser.ts';
import { NotASingleSelect, SqlParseFailed } from './errors.ts';
import type { CteIR, ExprIR, FromIR, ItemIR, QueryIR, SelectIR } from './ir.ts';

type Node = Record<string, unknown>;

const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x);
const asArray = (x: unknown): unknown[] => (Array.isArray(x) ? x : x === null || x === undefined ? [] : [x]);

/**
 * Parses one SELECT with node-sql-parser in `database` dialect; returns its IR and the parser's own
 * table list (`db.table`, CTE names included), which callers use as a cross-check.
 */
export function parseWithNodeSqlParser(sql: string, database: ParsedDialect): { ir: QueryIR; tableList: string[] } {
  let parsed: { ast: unknown; tableList: string[] };
  try {
    parsed = sqlParser(database).parse(sql, { database });
  } catch (err) {
    throw new SqlParseFailed(database, firstLine(err));
  }
  const statements = asArray(parsed.ast);
  const only = statements[0];
  if (statements.length !== 1 || !isNode(only) || only['type'] !== 'select') throw new NotASingleSelect();
  const tableList = parsed.tableList.map((entry) => entry.split('::').slice(1).filter((p) => p !== 'null').join('.'));
  return { ir: query(only), tableList };
}

function firstLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err).split('\n')[0]!.slice(0, 300);
}

/** An identifier in any of the shapes the parser uses. */
function ident(x: unknown): string | undefined {
  if (typeof x === 'string') return x;
  if (typeof x === 'number') return String(x);
  if (!isNode(x)) return undefined;
  if (x['expr'] !== undefined) return ident(x['expr']);
  return ident(x['value']);
}

function query(n: Node): QueryIR {
  const ctes = asArray(n['with']).filter(isNode).map(cte);
  const chain: Node[] = [];
  for (let cur: unknown = n; isNode(cur); cur = cur['_next']) chain.push(cur);
  if (chain.length === 1) return { ...select(n), ctes };
  return { kind: 'setop', ctes, inputs: chain.map((b, i) => (i > 0 && isNode(b['with']) ? query({ ...b, _next: null }) : select(b))) };
}

function cte(c: Node): CteIR {
  const stmt = isNode(c['stmt']) && isNode(c['stmt']['ast']) ? c['stmt']['ast'] : c['stmt'];
  if (!isNode(stmt)) throw new NotASingleSelect();
  const columns = asArray(c['columns']).map((col) => (isNode(col) && col['type'] === 'column_ref' ? ident(col['column']) : ident(col)));
  return { name: ident(c['name']) ?? '', columns: columns.filter((x): x is string => x !== undefined), query: query(stmt) };
}

function select(n: Node): SelectIR {
  const from: FromIR[] = [];
  const other: ExprIR[] = [];
  const add = (f: Node): void => {
    const inner = f['expr'];
    // Parenthesized joins: `(a JOIN b)` arrives as `{ expr: { type: 'tables', expr: [...] } }` (PostgreSQL)
    // or `{ expr: [...] }` (MySQL); their members are ordinary FROM items.
    const members = isNode(inner) && inner['type'] === 'tables' ? inner['expr'] : inner;
    if (Array.isArray(members)) members.filter(isNode).forEach(add);
    else from.push(fromItem(f));
    if (f['on']) other.push(expr(f['on']));
    // MySQL hangs the joins that follow a parenthesized group on the group.
    if (Array.isArray(f['joins'])) f['joins'].filter(isNode).forEach(add);
  };
  asArray(n['from']).filter(isNode).forEach(add);
  for (const key of ['where', 'having', 'groupby', 'orderby', 'qualify']) if (n[key]) other.push(expr(n[key]));
  const columns = n['columns'];
  const items: ItemIR[] = columns === '*' ? [star(undefined)] : asArray(columns).filter(isNode).map(item);
  return { kind: 'select', ctes: [], from, items, other };
}

function star(qualifier: unknown): ItemIR {
  const q = ident(qualifier);
  return { kind: 'star', ...(q ? { qualifier: [q] } : {}), exclude: [], replace: [] };
}

function item(c: Node): ItemIR {
  const e = c['expr'];
  if (isNode(e) && (e['type'] === 'star' || (e['type'] === 'column_ref' && e['column'] === '*'))) return star(e['table']);
  const alias = ident(c['as']);
  return { kind: 'expr', expr: expr(e), ...(alias ? { alias } : {}) };
}

/** `v(p, q)` aliases arrive as one string. */
function splitAlias(as: unknown): { alias?: string; columnAliases?: string[] } {
  const text = ident(as);
  if (!text) return {};
  const m = /^([^(]+)\((.*)\)$/s.exec(text);
  if (!m) return { alias: text };
  const strip = (s: string) => s.trim().replace(/^["`[]|["`\]]$/g, '');
  return { alias: strip(m[1]!), columnAliases: m[2]!.split(',').map(strip) };
}

function fromItem(f: Node): FromIR {
  const using = asArray(f['using']).map(ident).filter((x): x is string => !!x);
  const alias = { ...splitAlias(f['as']), ...(using.length ? { using } : {}) };
  const e = f['expr'];
  if (isNode(e)) {
    if (isNode(e['ast'])) return { kind: 'query', query: query(e['ast']), ...alias };
    if (e['type'] === 'select') return { kind: 'query', query: query(e), ...alias };
    if (e['type'] === 'values') {
      const rows = asArray(e['values']).map((r) => asArray(isNode(r) ? r['value'] : r).map((v) => expr(v)));
      return { kind: 'values', rows, ...alias };
    }
    const name = functionName(e) ?? 'function';
    return { kind: 'function', name, args: expr(e['args']), ...alias };
  }
  const path = [f['db'], f['schema'], f['table']].map(ident).filter((x): x is string => !!x);
  // An item of a shape not known here still gives its subqueries (and their tables) to tablesOf.
  if (path.length === 0) return { kind: 'function', name: 'unknown', args: expr(f), ...alias };
  return { kind: 'table', path, ...alias };
}

function functionName(e: Node): string | undefined {
  const name = e['name'];
  if (typeof name === 'string') return name.toLowerCase();
  if (isNode(name)) {
    const parts = asArray(name['name']).map(ident).filter((x): x is string => !!x);
    return parts.at(-1)?.toLowerCase();
  }
  return undefined;
}

function columnPath(c: Node): string[] {
  const col = ident(c['column']);
  return [c['db'], c['schema'], c['table']].map(ident).filter((x): x is string => !!x).concat(col ? [col] : []);
}

/** Collects every column reference and subquery inside an expression. */
function expr(e: unknown): ExprIR {
  const out: ExprIR = { refs: [], subqueries: [] };
  walk(e, out);
  if (isNode(e)) {
    if (e['type'] === 'column_ref' && e['column'] !== '*') out.column = columnPath(e);
    const name = defaultName(e);
    if (name) out.name = name;
  }
  return out;
}

function walk(x: unknown, out: ExprIR): void {
  if (Array.isArray(x)) {
    for (const v of x) walk(v, out);
    return;
  }
  if (!isNode(x)) return;
  if (isNode(x['ast']) && x['ast']['type'] === 'select') {
    out.subqueries.push(query(x['ast']));
    return;
  }
  if (x['type'] === 'select' && x['columns'] !== undefined) {
    out.subqueries.push(query(x));
    return;
  }
  if (x['type'] === 'column_ref') {
    if (x['column'] !== '*') out.refs.push(columnPath(x));
    return;
  }
  for (const v of Object.values(x)) walk(v, out);
}

// PostgreSQL's naming of unaliased expressions: a column keeps its name, a function call takes the
// function's name, a cast takes its operand's name.
function defaultName(e: Node): string | undefined {
  if (e['type'] === 'column_ref') return columnPath(e).at(-1);
  if (e['type'] === 'aggr_func' || e['type'] === 'function') return functionName(e);
  if (e['type'] === 'cast' && isNode(e['expr'])) return defaultName(e['expr']);
  return undefined;
}
