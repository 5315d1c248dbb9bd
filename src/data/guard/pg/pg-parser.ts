// libpg-query: PostgreSQL's own lexer and grammar (libpg_query, compiled to WebAssembly, shipped in the
// package: nothing is downloaded or built at install). It reads PostgreSQL exactly as the server does
// (standard_conforming_strings on, nested comments, dollar quotes, E'' and U&'' strings), and SQLite
// after a token-level translation (sqlite/sqlite-check-text.ts). Loaded on first use: a gateway whose
// warehouses are all DuckDB or MySQL never loads it.
import { QueryRefused } from '../../errors.ts';

/** A parse-tree node: `{ SelectStmt: {...} }`, a list, or a plain field object. */
export type PgNode = Record<string, unknown>;

export interface PgToken {
  start: number;
  end: number;
  tokenName: string;
}

export interface PgParser {
  /** Parses `sql`; refuses with `parse_error` when PostgreSQL's grammar rejects it. */
  parse(sql: string, what?: string): PgNode;
  /** PostgreSQL's own tokens of `sql`, comments included. */
  scan(sql: string): PgToken[];
}

type Module = typeof import('libpg-query');
let loading: Promise<Module> | undefined;

/** The parser, loaded once per process. */
export async function pgParser(): Promise<PgParser> {
  loading ??= import('libpg-query').then(async (m) => {
    await m.loadModule();
    return m;
  });
  const m = await loading;
  return {
    parse(sql, what = 'PostgreSQL') {
      try {
        return m.parseSync(sql) as unknown as PgNode;
      } catch (err) {
        throw new QueryRefused('parse_error', `The statement could not be parsed as ${what} SQL: ${(err as Error).message.slice(0, 200)}`);
      }
    },
    scan(sql) {
      try {
        return m.scanSync(sql).tokens;
      } catch (err) {
        throw new QueryRefused('parse_error', `The statement could not be read as PostgreSQL SQL: ${(err as Error).message.slice(0, 200)}`);
      }
    },
  };
}

const isObj = (v: unknown): v is PgNode => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The one wrapped node type of `{ Type: body }`, or undefined for lists and plain field objects. */
export function nodeType(v: unknown): string | undefined {
  if (!isObj(v)) return undefined;
  const keys = Object.keys(v);
  return keys.length === 1 && /^[A-Z]/.test(keys[0]!) && isObj(v[keys[0]!]) ? keys[0] : undefined;
}

// Source positions: `location`, the statement's, and PostgreSQL 18's bounds of IN lists.
const POSITION = /^(location|stmt_location|stmt_len)$|_list_(start|end)$/;

/** A copy of a tree without source positions, for comparing two parses of different texts. */
export function withoutLocations(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutLocations);
  if (!isObj(v)) return v;
  const out: PgNode = {};
  for (const [k, x] of Object.entries(v)) if (!POSITION.test(k)) out[k] = withoutLocations(x);
  return out;
}

/** Calls `fn` for every wrapped node of `type` in the tree. */
export function eachNode(v: unknown, type: string, fn: (body: PgNode) => void): void {
  if (Array.isArray(v)) {
    for (const x of v) eachNode(x, type, fn);
    return;
  }
  if (!isObj(v)) return;
  const t = nodeType(v);
  if (t === type) fn(v[t] as PgNode);
  for (const x of Object.values(v)) eachNode(x, type, fn);
}

/** The statements of a parse result, each unwrapped from its RawStmt. */
export function statementsOf(tree: PgNode): PgNode[] {
  const stmts = Array.isArray(tree['stmts']) ? (tree['stmts'] as PgNode[]) : [];
  return stmts.map((s) => s['stmt'] as PgNode).filter(Boolean);
}
