// A dialect-neutral shape of a SELECT, just rich enough for lineage and table listing. Both parsers
// (node-sql-parser, DuckDB's json_serialize_sql) translate into it, so scope resolution exists once.

/** A query: one SELECT block or a set operation over several, with the CTEs defined on it. */
export type QueryIR = SelectIR | SetOpIR;

export interface CteIR {
  name: string;
  /** Column names given after the CTE name, `WITH c(a, b) AS (...)`. */
  columns: string[];
  query: QueryIR;
}

export interface SelectIR {
  kind: 'select';
  ctes: CteIR[];
  from: FromIR[];
  items: ItemIR[];
  /** WHERE, JOIN ON, GROUP BY, HAVING, QUALIFY...: not lineage, but their subqueries read tables. */
  other: ExprIR[];
}

export interface SetOpIR {
  kind: 'setop';
  ctes: CteIR[];
  /** Branches in order; output names come from the first. */
  inputs: QueryIR[];
}

interface FromBase {
  alias?: string;
  /** Column aliases, `AS v(p, q)`, renaming the relation's columns by position. */
  columnAliases?: string[];
  /** `JOIN ... USING (a, b)` on this item: `*` shows those columns once, from both sides. */
  using?: string[];
}

export type FromIR =
  | (FromBase & { kind: 'table'; path: string[] })
  | (FromBase & { kind: 'query'; query: QueryIR })
  | (FromBase & { kind: 'values'; rows: ExprIR[][] })
  | (FromBase & { kind: 'function'; name: string; args: ExprIR });

export type ItemIR =
  | { kind: 'star'; qualifier?: string[]; exclude: string[]; replace: { name: string; expr: ExprIR }[] }
  | { kind: 'expr'; expr: ExprIR; alias?: string };

/** An expression reduced to what lineage needs. */
export interface ExprIR {
  /** Every column reference, as written (`[col]`, `[t, col]`, `[s, t, col]`). */
  refs: string[][];
  /** Subqueries anywhere inside (scalar, IN, EXISTS). */
  subqueries: QueryIR[];
  /** Set when the whole expression is one column reference (no transformation). */
  column?: string[];
  /** Default output name when there is no alias (the function name, for instance). */
  name?: string;
}
