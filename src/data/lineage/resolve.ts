// Scope resolution over the IR: which relation each column reference names, what each relation's
// columns derive from, and therefore which source table columns feed each output column.
import type { CteIR, ExprIR, FromIR, ItemIR, QueryIR } from './ir.ts';

/** A column of a base table, the table named as written in the query (`main.orders`). */
export interface SourceColumn {
  table: string;
  column: string;
}

/** Column names of a base table (named as written in the query), or undefined when unknown. */
export type SchemaLookup = (table: string) => readonly string[] | undefined;

/** One column of a relation, with what it derives from. */
export interface DerivedColumn {
  name: string;
  sources: SourceColumn[];
  /** False when the value is a source column passed through unchanged (renames included). */
  transformed: boolean;
}

interface Rel {
  matches(qualifier: string[]): boolean;
  /** USING columns of the join that brought this relation in. */
  using?: string[];
  /** Known columns, in order; undefined when the relation's columns are not known. */
  cols?: DerivedColumn[];
  /** For relations with unknown columns: what a column of that name derives from. */
  open(name: string): DerivedColumn;
  /** What `*` over a relation with unknown columns derives from. */
  openStar(): DerivedColumn;
}

interface ColScope {
  rels: Rel[];
  parent?: ColScope;
}

interface CteEntry {
  cte: CteIR;
  scope: CteScope;
  state: 'new' | 'resolving' | 'done';
  cols?: DerivedColumn[];
}

interface CteScope {
  defs: Map<string, CteEntry>;
  parent?: CteScope;
}

const lc = (s: string) => s.toLowerCase();
const eq = (a: string, b: string) => lc(a) === lc(b);

/** Resolves a parsed query: output columns, base tables read, references that named nothing. */
export function resolveLineage(q: QueryIR, lookup: SchemaLookup | undefined) {
  const r = new LineageResolver(lookup);
  const columns = r.query(q, undefined, undefined);
  return { columns, tables: [...r.tables.values()], unresolved: [...r.unresolved] };
}

/** One resolution: the base tables met and the references that named nothing, gathered as it goes. */
class LineageResolver {
  readonly tables = new Map<string, string>();
  readonly unresolved = new Set<string>();

  constructor(private readonly lookup: SchemaLookup | undefined) {}

  query(node: QueryIR, ctes: CteScope | undefined, outer: ColScope | undefined): DerivedColumn[] {
    const scope = this.withCtes(node.ctes, ctes);
    if (node.kind === 'setop') return union(node.inputs.map((input) => this.query(input, scope, outer)));
    const colScope: ColScope = { rels: [], ...(outer ? { parent: outer } : {}) };
    // Each FROM item sees the ones before it (LATERAL); plain subqueries never refer to them anyway.
    for (const f of node.from) colScope.rels.push({ ...this.relation(f, scope, colScope), ...(f.using ? { using: f.using } : {}) });
    const out: DerivedColumn[] = [];
    for (const item of node.items) out.push(...this.selectItem(item, colScope, scope, out));
    // GROUP BY, HAVING, QUALIFY and ORDER BY may name output aliases.
    for (const e of node.other) this.expression(e, colScope, scope, out);
    return out;
  }

  withCtes(defs: CteIR[], parent: CteScope | undefined): CteScope | undefined {
    if (defs.length === 0) return parent;
    const scope: CteScope = { defs: new Map(), ...(parent ? { parent } : {}) };
    for (const cte of defs) scope.defs.set(lc(cte.name), { cte, scope, state: 'new' });
    // Resolved eagerly so that tables read only by an unused CTE are still listed.
    for (const entry of scope.defs.values()) this.cteColumns(entry);
    return scope;
  }

  cteColumns(entry: CteEntry): DerivedColumn[] | undefined {
    if (entry.state === 'done' || entry.state === 'resolving') return entry.cols;
    entry.state = 'resolving';
    const body = entry.cte.query;
    // A recursive CTE refers to itself: its anchor (first branch) stands in for it meanwhile.
    if (body.kind === 'setop' && body.inputs[0]) {
      const anchorScope = this.withCtes(body.ctes, entry.scope);
      entry.cols = renamed(this.query(body.inputs[0], anchorScope, undefined), entry.cte.columns);
    }
    entry.cols = renamed(this.query(body, entry.scope, undefined), entry.cte.columns);
    entry.state = 'done';
    return entry.cols;
  }

  relation(f: FromIR, ctes: CteScope | undefined, lateral: ColScope): Rel {
    const aliasOnly = (q: string[]) => q.length === 1 && !!f.alias && eq(q[0]!, f.alias);
    if (f.kind === 'table') {
      const cte = f.path.length === 1 ? findCte(f.path[0]!, ctes) : undefined;
      if (cte) {
        const cols = this.cteColumns(cte);
        const name = f.alias ?? f.path[0]!;
        const m = (q: string[]) => q.length === 1 && eq(q[0]!, name);
        return cols ? known(m, renamed(cols, f.columnAliases)) : opaque(m, []);
      }
      const table = f.path.join('.');
      if (!this.tables.has(lc(table))) this.tables.set(lc(table), table);
      // Without an alias a table answers to any suffix of its qualified name (`orders`, `main.orders`).
      const m = f.alias
        ? aliasOnly
        : (q: string[]) => q.length <= f.path.length && q.every((part, i) => eq(part, f.path[f.path.length - q.length + i]!));
      const names = this.lookup?.(table);
      if (names) return known(m, renamed(names.map((c) => ({ name: c, sources: [{ table, column: c }], transformed: false })), f.columnAliases));
      return {
        matches: m,
        open: (name) => ({ name, sources: [{ table, column: name }], transformed: false }),
        openStar: () => ({ name: '*', sources: [{ table, column: '*' }], transformed: false }),
      };
    }
    if (f.kind === 'query') return known(aliasOnly, renamed(this.query(f.query, ctes, lateral), f.columnAliases));
    if (f.kind === 'values') {
      const width = Math.max(0, ...f.rows.map((r) => r.length));
      const cols = Array.from({ length: width }, (_, i) => {
        const parts = f.rows.map((r) => (r[i] ? this.expression(r[i], lateral, ctes, []) : undefined));
        return { name: `column${i + 1}`, sources: dedupe(parts.flatMap((p) => p?.sources ?? [])), transformed: true };
      });
      return known(aliasOnly, renamed(cols, f.columnAliases));
    }
    // Table functions: their columns derive from their arguments.
    const args = this.expression(f.args, lateral, ctes, []).sources;
    if (f.columnAliases?.length) return known(aliasOnly, f.columnAliases.map((name) => ({ name, sources: args, transformed: true })));
    const m = (q: string[]) => q.length === 1 && eq(q[0]!, f.alias ?? f.name);
    return opaque(m, args);
  }

  expression(e: ExprIR, scope: ColScope, ctes: CteScope | undefined, earlier: DerivedColumn[]): DerivedColumn {
    const sources: SourceColumn[] = [];
    let transformed = !e.column || e.subqueries.length > 0 || e.refs.length !== 1;
    for (const ref of e.refs) {
      let col: DerivedColumn | undefined;
      for (let s: ColScope | undefined = scope; s && !col; s = s.parent) col = lookupIn(ref, s);
      // Some dialects let an expression use an alias defined earlier in the same SELECT list.
      col ??= ref.length === 1 ? [...earlier].reverse().find((c) => eq(c.name, ref[0]!)) : undefined;
      if (!col) {
        this.unresolved.add(ref.join('.'));
        continue;
      }
      sources.push(...col.sources);
      if (col.transformed) transformed = true;
    }
    for (const sub of e.subqueries) for (const col of this.query(sub, ctes, scope)) sources.push(...col.sources);
    return { name: e.name ?? '?column?', sources: dedupe(sources), transformed };
  }

  selectItem(item: ItemIR, scope: ColScope, ctes: CteScope | undefined, earlier: DerivedColumn[]): DerivedColumn[] {
    if (item.kind === 'expr') {
      const col = this.expression(item.expr, scope, ctes, earlier);
      return [{ ...col, name: item.alias ?? col.name }];
    }
    const rels = item.qualifier ? scope.rels.filter((r) => r.matches(item.qualifier!)) : scope.rels;
    if (rels.length === 0 && item.qualifier) this.unresolved.add(`${item.qualifier.join('.')}.*`);
    const out: DerivedColumn[] = [];
    for (const rel of rels) {
      if (!rel.cols) {
        out.push(rel.openStar());
        continue;
      }
      for (const col of rel.cols) {
        if (item.exclude.some((x) => eq(x, col.name))) continue;
        // A USING column appears once (from the left), deriving from both sides.
        const merged = !item.qualifier && rel.using?.some((u) => eq(u, col.name)) ? out.find((o) => eq(o.name, col.name)) : undefined;
        if (merged) {
          out[out.indexOf(merged)] = { ...merged, sources: dedupe([...merged.sources, ...col.sources]) };
          continue;
        }
        const replacement = item.replace.find((r) => eq(r.name, col.name));
        out.push(replacement ? { ...this.expression(replacement.expr, scope, ctes, earlier), name: col.name } : col);
      }
    }
    return out;
  }
}

function dedupe(sources: SourceColumn[]): SourceColumn[] {
  const seen = new Map<string, SourceColumn>();
  for (const s of sources) {
    const key = `${lc(s.table)}\u0000${lc(s.column)}`;
    if (!seen.has(key)) seen.set(key, s);
  }
  return [...seen.values()];
}

function findCte(name: string, scope: CteScope | undefined): CteEntry | undefined {
  for (let s = scope; s; s = s.parent) {
    const hit = s.defs.get(lc(name));
    if (hit) return hit;
  }
  return undefined;
}

function known(matches: (q: string[]) => boolean, cols: DerivedColumn[]): Rel {
  return { matches, cols, open: (name) => ({ name, sources: [], transformed: true }), openStar: () => ({ name: '*', sources: [], transformed: true }) };
}

function opaque(matches: (q: string[]) => boolean, sources: SourceColumn[]): Rel {
  return { matches, open: (name) => ({ name, sources, transformed: true }), openStar: () => ({ name: '*', sources, transformed: true }) };
}

function lookupIn(path: string[], s: ColScope): DerivedColumn | undefined {
  for (let q = path.length - 1; q >= 1; q--) {
    const rel = s.rels.find((r) => r.matches(path.slice(0, q)));
    if (!rel) continue;
    const name = path[q]!;
    const col = rel.cols ? rel.cols.find((c) => eq(c.name, name)) : rel.open(name);
    if (col) return q < path.length - 1 ? { ...col, transformed: true } : col;
  }
  // Unqualified, or a struct field path starting at a column.
  const name = path[0]!;
  for (const rel of s.rels) {
    const col = rel.cols?.find((c) => eq(c.name, name));
    if (col) return path.length > 1 ? { ...col, transformed: true } : col;
  }
  const open = s.rels.filter((r) => !r.cols);
  if (open.length === 0) return undefined;
  // With several relations of unknown columns the owner is ambiguous: name every candidate.
  const candidates = open.map((r) => r.open(name));
  return { name, sources: dedupe(candidates.flatMap((c) => c.sources)), transformed: open.length > 1 || path.length > 1 || candidates.some((c) => c.transformed) };
}

function union(branches: DerivedColumn[][]): DerivedColumn[] {
  const first = branches[0] ?? [];
  return first.map((col, i) => {
    const same = branches.map((b) => b[i]).filter((c): c is DerivedColumn => !!c);
    return { name: col.name, sources: dedupe(same.flatMap((c) => c.sources)), transformed: same.some((c) => c.transformed) };
  });
}

function renamed(cols: DerivedColumn[], names: string[] | undefined): DerivedColumn[] {
  if (!names?.length) return cols;
  return cols.map((c, i) => (names[i] ? { ...c, name: names[i] } : c));
}

