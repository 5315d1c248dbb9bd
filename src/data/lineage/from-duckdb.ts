// Translates DuckDB's own parse tree (`json_serialize_sql`) into the lineage IR, so DuckDB syntax that
// other parsers reject (EXCLUDE, QUALIFY, FROM-first, lambdas, PIVOT) still gets lineage.
import type { DuckDBConnection } from '@duckdb/node-api';
import { serializeSelect } from '../duckdb-select-tree.ts';
import { NotASingleSelect, SqlParseFailed } from './errors.ts';
import type { CteIR, ExprIR, FromIR, ItemIR, QueryIR, SelectIR } from './ir.ts';

type Node = Record<string, unknown>;

const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x);
const nodes = (x: unknown): Node[] => (Array.isArray(x) ? x.filter(isNode) : []);
const str = (x: unknown): string => (typeof x === 'string' ? x : '');
const strings = (x: unknown): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string') : []);

/** Parses one SELECT with DuckDB's parser (no execution, no catalog access) and returns its IR. */
export async function parseWithDuckDb(sql: string, conn: DuckDBConnection): Promise<QueryIR> {
  const judged = await serializeSelect(conn, sql);
  if (!judged.ok && judged.reason === 'not_select') throw new NotASingleSelect();
  if (!judged.ok) throw new SqlParseFailed('duckdb', judged.message);
  const tree = judged.tree as Node;
  const statements = nodes(tree['statements']);
  const only = statements[0];
  if (statements.length !== 1 || !only || !isNode(only['node'])) throw new NotASingleSelect();
  return query(only['node']);
}

function query(n: Node): QueryIR {
  const ctes = ctesOf(n);
  if (n['type'] === 'SELECT_NODE') return { ...select(n), ctes };
  const inputs: QueryIR[] = [];
  // Set operations are binary trees (left/right) in 1.x; newer trees may list `children`.
  for (const child of [n['left'], n['right'], ...(Array.isArray(n['children']) ? n['children'] : [])]) {
    if (isNode(child)) inputs.push(query(child));
  }
  return { kind: 'setop', ctes, inputs };
}

function ctesOf(n: Node): CteIR[] {
  const map = isNode(n['cte_map']) ? nodes(n['cte_map']['map']) : [];
  return map.flatMap((entry): CteIR[] => {
    const value = entry['value'];
    if (!isNode(value) || !isNode(value['query']) || !isNode(value['query']['node'])) return [];
    return [{ name: str(entry['key']), columns: strings(value['aliases']), query: query(value['query']['node']) }];
  });
}

function select(n: Node): SelectIR {
  const from: FromIR[] = [];
  const other: ExprIR[] = [];
  if (isNode(n['from_table'])) flattenFrom(n['from_table'], from, other);
  for (const key of ['where_clause', 'having', 'qualify', 'group_expressions', 'modifiers']) if (n[key]) other.push(expr(n[key]));
  return { kind: 'select', ctes: [], from, items: nodes(n['select_list']).map(item), other };
}

function aliases(t: Node): { alias?: string; columnAliases?: string[] } {
  const alias = str(t['alias']);
  const cols = strings(t['column_name_alias']);
  return { ...(alias ? { alias } : {}), ...(cols.length ? { columnAliases: cols } : {}) };
}

function flattenFrom(t: Node, from: FromIR[], other: ExprIR[]): void {
  switch (t['type']) {
    case 'EMPTY':
      return;
    case 'JOIN':
      if (isNode(t['left'])) flattenFrom(t['left'], from, other);
      if (isNode(t['right'])) {
        const first = from.length;
        flattenFrom(t['right'], from, other);
        const using = strings(t['using_columns']);
        if (using.length && from[first]) from[first] = { ...from[first], using };
      }
      if (t['condition']) other.push(expr(t['condition']));
      return;
    case 'BASE_TABLE': {
      const path = [t['catalog_name'], t['schema_name'], t['table_name']].map(str).filter(Boolean);
      from.push({ kind: 'table', path, ...aliases(t) });
      return;
    }
    case 'SUBQUERY': {
      const sub = isNode(t['subquery']) ? t['subquery']['node'] : undefined;
      if (isNode(sub)) from.push({ kind: 'query', query: query(sub), ...aliases(t) });
      return;
    }
    case 'EXPRESSION_LIST': {
      const rows = (Array.isArray(t['values']) ? t['values'] : []).map((row) => (Array.isArray(row) ? row.map((v) => expr(v)) : []));
      from.push({ kind: 'values', rows, ...aliases(t) });
      return;
    }
    case 'TABLE_FUNCTION': {
      const fn = isNode(t['function']) ? t['function'] : {};
      from.push({ kind: 'function', name: str(fn['function_name']) || 'function', args: expr(fn['children']), ...aliases(t) });
      return;
    }
    default: {
      // PIVOT, UNPIVOT and future kinds: keep the tables they read (for tablesOf) behind an opaque relation.
      const inner: FromIR[] = [];
      if (isNode(t['source'])) flattenFrom(t['source'], inner, other);
      const args = expr(t);
      for (const f of inner) args.subqueries.push({ kind: 'select', ctes: [], from: [f], items: [{ kind: 'star', exclude: [], replace: [] }], other: [] });
      from.push({ kind: 'function', name: str(t['type']).toLowerCase(), args, ...aliases(t) });
    }
  }
}

function item(e: Node): ItemIR {
  if (e['class'] === 'STAR' && e['columns'] !== true) {
    const relation = str(e['relation_name']);
    const replace = nodes(e['replace_list']).map((r) => ({ name: str(r['key']), expr: isNode(r['value']) ? expr(r['value']) : expr(undefined) }));
    const exclude = [...strings(e['exclude_list']), ...nodes(e['qualified_exclude_list']).map((q) => strings(q['column_names']).at(-1) ?? '')];
    return { kind: 'star', ...(relation ? { qualifier: [relation] } : {}), exclude, replace };
  }
  const alias = str(e['alias']);
  return { kind: 'expr', expr: expr(e), ...(alias ? { alias } : {}) };
}

/** Collects column references and subqueries; lambda parameters are not columns. */
function expr(e: unknown): ExprIR {
  const out: ExprIR = { refs: [], subqueries: [] };
  walk(e, out, new Set());
  if (isNode(e)) {
    if (e['class'] === 'COLUMN_REF') out.column = strings(e['column_names']);
    const name = defaultName(e);
    if (name) out.name = name;
  }
  return out;
}

function walk(x: unknown, out: ExprIR, lambdaParams: Set<string>): void {
  if (Array.isArray(x)) {
    for (const v of x) walk(v, out, lambdaParams);
    return;
  }
  if (!isNode(x)) return;
  if (x['class'] === 'COLUMN_REF') {
    const path = strings(x['column_names']);
    if (path.length > 0 && !(path.length === 1 && lambdaParams.has(path[0]!.toLowerCase()))) out.refs.push(path);
    return;
  }
  if (x['class'] === 'SUBQUERY' && isNode(x['subquery']) && isNode(x['subquery']['node'])) {
    out.subqueries.push(query(x['subquery']['node']));
    walk(x['child'], out, lambdaParams);
    return;
  }
  if (x['class'] === 'LAMBDA') {
    const params = new Set(lambdaParams);
    const lhs = x['lhs'];
    const collect = (p: unknown) => {
      if (isNode(p) && p['class'] === 'COLUMN_REF') params.add(strings(p['column_names']).join('.').toLowerCase());
      else if (isNode(p)) nodes(p['children']).forEach(collect);
    };
    collect(lhs);
    for (const p of strings(x['parameters'])) params.add(p.toLowerCase());
    walk(x['expr'], out, params);
    return;
  }
  for (const v of Object.values(x)) walk(v, out, lambdaParams);
}

function defaultName(e: Node): string | undefined {
  if (e['class'] === 'COLUMN_REF') return strings(e['column_names']).at(-1);
  if ((e['class'] === 'FUNCTION' || e['class'] === 'AGGREGATE' || e['class'] === 'WINDOW') && e['is_operator'] !== true) {
    return str(e['function_name']) || undefined;
  }
  if (e['class'] === 'CAST' && isNode(e['child'])) return defaultName(e['child']);
  return undefined;
}
