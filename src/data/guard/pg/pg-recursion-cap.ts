// A depth cap for PostgreSQL's recursive CTEs. The read-only role can create no function and the
// server has no such setting; a LIMIT on the CTE's reference does not bound a CTE that an aggregate
// reads whole. So the guard renames each capped CTE, gives it a depth column, and puts a CTE of the
// original name and columns after it, which is all the rest of the query sees:
//   WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r
// runs as
//   WITH RECURSIVE "sextant_rec_0"(n, sextant_depth) AS (SELECT 1, 0 UNION ALL SELECT n + 1,
//     CASE WHEN "r".sextant_depth >= 10000 THEN CAST('sextant: recursion limit ' || "r".sextant_depth
//     AS integer) ELSE "r".sextant_depth + 1 END FROM "sextant_rec_0" AS "r"),
//   "r"("n") AS (SELECT "n" FROM "sextant_rec_0") SELECT count(*) FROM r
// All rows of one iteration of a UNION ALL recursion share their depth, so the column changes no row
// the query sees. The row that would go past the cap fails the statement inside the recursion itself
// (the driver knows the cast's error: QUERY_RECURSION_LIMIT): no check in the outer query that the
// planner could skip or reorder, and no constant it could fold at plan time (the cast reads the row).
// Left to the statement timeout: UNION without ALL (a depth column would defeat its removal of
// duplicates, and a cycle would run to the cap instead of ending), and what the rewrite cannot place
// with certainty: an anchor or term that is a set operation or VALUES, a term that reads the CTE only
// inside a subquery, SEARCH or CYCLE clauses, an anchor whose columns have no names, and a term
// with a `*` other than `SELECT * FROM <cte>` (written out as the CTE's columns, the depth not among them).
import { quoteIdent } from '../table-ref.ts';
import type { PgNode, PgParser, PgToken } from './pg-parser.ts';
import { pgNameSpan } from './pg-text.ts';

/** The text of the cast's error, which the PostgreSQL driver turns into QUERY_RECURSION_LIMIT. */
export const PG_RECURSION_MARK = 'sextant: recursion limit';
const DEPTH = 'sextant_depth';

export interface PgCapEdit {
  start: number;
  end: number;
  text: string;
}

interface Cte {
  cte: PgNode;
  withClause: PgNode;
}

const q = (s: string) => quoteIdent('postgresql', s);
const sval = (n: PgNode | undefined) => (n?.['String'] as PgNode | undefined)?.['sval'] as string | undefined;
const word = (text: string, t: PgToken | undefined) => (t ? text.slice(t.start, t.end).toUpperCase() : '');

/** The recursive CTEs of a statement, in document order (the same order in a clone of it). */
function recursiveCtes(node: unknown, out: Cte[] = []): Cte[] {
  if (Array.isArray(node)) node.forEach((n) => recursiveCtes(n, out));
  else if (typeof node === 'object' && node !== null) {
    const withClause = (node as PgNode)['withClause'] as PgNode | undefined;
    if (withClause?.['recursive']) for (const c of withClause['ctes'] as PgNode[]) out.push({ cte: c['CommonTableExpr'] as PgNode, withClause });
    Object.values(node).forEach((v) => recursiveCtes(v, out));
  }
  return out;
}

/** The reference to `name` in a FROM clause (through joins), if the term reads it there. */
function cteRef(from: PgNode[] | undefined, name: string): PgNode | undefined {
  for (const item of from ?? []) {
    const rv = item['RangeVar'] as PgNode | undefined;
    if (rv && rv['schemaname'] === undefined && rv['relname'] === name) return rv;
    const join = item['JoinExpr'] as PgNode | undefined;
    const inner = join && cteRef([join['larg'] as PgNode, join['rarg'] as PgNode], name);
    if (inner) return inner;
  }
  return undefined;
}

const simple = (s: PgNode | undefined): s is PgNode => !!s && (s['op'] ?? 'SETOP_NONE') === 'SETOP_NONE' && !s['valuesLists'] && !s['withClause'];

/** The CTE's column names: its column list, else its anchor's output names when each is a name. */
function columnsOf(cte: PgNode, anchor: PgNode): string[] | undefined {
  const listed = (cte['aliascolnames'] as PgNode[] | undefined)?.map(sval);
  const names =
    listed ??
    (anchor['targetList'] as PgNode[]).map((t) => {
      const target = t['ResTarget'] as PgNode;
      if (target['name'] !== undefined) return String(target['name']);
      const fields = ((target['val'] as PgNode)['ColumnRef'] as PgNode | undefined)?.['fields'] as PgNode[] | undefined;
      return sval(fields?.at(-1));
    });
  return names.every((n) => n !== undefined) && !names.includes(DEPTH) ? (names as string[]) : undefined;
}

const STOP = new Set(['FROM', 'WHERE', 'GROUP', 'HAVING', 'WINDOW', 'UNION', 'INTERSECT', 'EXCEPT', 'ORDER', 'LIMIT', 'OFFSET', 'FETCH', 'FOR', 'INTO']);

/** The end of the select list whose last item starts at `start` (its alias included). */
function targetListEnd(text: string, tokens: PgToken[], start: number): number | undefined {
  let i = tokens.findIndex((t) => t.start === start);
  if (i < 0) return undefined;
  for (let depth = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.tokenName === 'ASCII_40') depth++;
    else if (t.tokenName === 'ASCII_41' && --depth < 0) break;
    else if (depth === 0 && STOP.has(word(text, t)) && !['DISTINCT', 'WITHIN'].includes(word(text, tokens[i - 1]))) break;
  }
  return tokens[i - 1]!.end;
}

/** The index of the `)` closing the `(` at index `open`. */
function closing(tokens: PgToken[], open: number): number {
  for (let i = open, depth = 0; i < tokens.length; i++) {
    if (tokens[i]!.tokenName === 'ASCII_40') depth++;
    else if (tokens[i]!.tokenName === 'ASCII_41' && --depth === 0) return i;
  }
  return -1;
}

type Parse = (sql: string) => PgNode;

/**
 * The edits that cap each recursive UNION ALL CTE at `cap` levels, applied to the expected tree as
 * well (`expected` is a clone of `stmt`, where the verification compares the rewritten text).
 */
export function pgRecursionCapEdits(parser: PgParser, text: string, stmt: PgNode, expected: PgNode, cap: number, parse: Parse): PgCapEdit[] {
  const tokens = parser.scan(text).filter((t) => t.tokenName !== 'C_COMMENT' && t.tokenName !== 'SQL_COMMENT');
  const theirs = recursiveCtes(expected);
  const edits: PgCapEdit[] = [];
  recursiveCtes(stmt).forEach(({ cte }, index) => {
    const body = (cte['ctequery'] as PgNode)['SelectStmt'] as PgNode | undefined;
    if (!body || body['op'] !== 'SETOP_UNION' || body['all'] !== true || cte['search_clause'] || cte['cycle_clause']) return;
    const anchor = body['larg'] as PgNode | undefined;
    const term = body['rarg'] as PgNode | undefined;
    if (!simple(anchor) || !simple(term)) return;
    const name = String(cte['ctename']);
    const columns = columnsOf(cte, anchor);
    const ref = cteRef(term['fromClause'] as PgNode[] | undefined, name);
    if (!columns || !ref) return;
    const star = starOf(term, ref, name, columns);
    if (star === null) return;
    const mine = capOne({ text, tokens, cte, anchor, term, ref, name, columns, index, cap, star });
    if (!mine) return;
    edits.push(...mine);
    expectCapped(theirs[index]!, { name, columns, index, cap, star }, parse);
  });
  return edits;
}

interface One {
  text: string;
  tokens: PgToken[];
  cte: PgNode;
  anchor: PgNode;
  term: PgNode;
  ref: PgNode;
  name: string;
  columns: string[];
  index: number;
  cap: number;
  /** A term `SELECT * FROM <cte>`: the columns the `*` stands for, written out. */
  star: string | undefined;
}

const isStar = (t: PgNode) => (((((t['ResTarget'] as PgNode)['val'] as PgNode)['ColumnRef'] as PgNode | undefined)?.['fields'] as PgNode[] | undefined) ?? []).some((f) => f['A_Star'] !== undefined);

/** undefined: no `*` in the term; the written-out columns of `SELECT * FROM <cte>`; null: another `*`. */
function starOf(term: PgNode, ref: PgNode, name: string, columns: string[]): string | undefined | null {
  const targets = term['targetList'] as PgNode[];
  if (!targets.some(isStar)) return undefined;
  const from = term['fromClause'] as PgNode[];
  if (targets.length !== 1 || from.length !== 1 || from[0]!['RangeVar'] !== ref) return null;
  const alias = String((ref['alias'] as PgNode | undefined)?.['aliasname'] ?? name);
  return columns.map((c) => `${q(alias)}.${q(c)}`).join(', ');
}

const renamed = (index: number) => `sextant_rec_${index}`;
const depthOf = (alias: string, cap: number) =>
  `CASE WHEN ${q(alias)}.${DEPTH} >= ${cap} THEN CAST('${PG_RECURSION_MARK} ' || ${q(alias)}.${DEPTH} AS integer) ELSE ${q(alias)}.${DEPTH} + 1 END`;
const wrapper = (name: string, columns: string[], index: number) =>
  `${q(name)}(${columns.map(q).join(', ')}) AS (SELECT ${columns.map(q).join(', ')} FROM ${q(renamed(index))})`;

/** The text edits of one CTE, or undefined when a place cannot be found. */
function capOne(o: One): PgCapEdit[] | undefined {
  const { text, tokens } = o;
  const [nameStart, nameEnd] = pgNameSpan(text, o.cte['location'] as number, 1);
  let k = tokens.findIndex((t) => t.start >= nameEnd);
  const edits: PgCapEdit[] = [{ start: nameStart, end: nameEnd, text: q(renamed(o.index)) }];
  if (o.cte['aliascolnames']) {
    const close = closing(tokens, k);
    if (close < 0) return undefined;
    edits.push({ start: tokens[close]!.start, end: tokens[close]!.start, text: `, ${DEPTH}` });
    k = close + 1;
  } else {
    edits.push({ start: nameEnd, end: nameEnd, text: `(${o.columns.map(q).join(', ')}, ${DEPTH})` });
  }
  const open = tokens.findIndex((t, i) => i >= k && t.tokenName === 'ASCII_40');
  const bodyEnd = open < 0 ? -1 : closing(tokens, open);
  const anchorEnd = targetListEnd(text, tokens, ((o.anchor['targetList'] as PgNode[]).at(-1)!['ResTarget'] as PgNode)['location'] as number);
  const termEnd = targetListEnd(text, tokens, ((o.term['targetList'] as PgNode[]).at(-1)!['ResTarget'] as PgNode)['location'] as number);
  if (bodyEnd < 0 || anchorEnd === undefined || termEnd === undefined) return undefined;
  const alias = String((o.ref['alias'] as PgNode | undefined)?.['aliasname'] ?? o.name);
  const [refStart, refEnd] = pgNameSpan(text, o.ref['location'] as number, 1);
  if (o.star !== undefined) {
    const first = ((o.term['targetList'] as PgNode[])[0]!['ResTarget'] as PgNode)['location'] as number;
    const starToken = tokens.find((t) => t.start >= first && t.tokenName === 'ASCII_42');
    if (!starToken) return undefined;
    edits.push({ start: first, end: starToken.end, text: o.star });
  }
  edits.push(
    { start: anchorEnd, end: anchorEnd, text: ', 0' },
    { start: termEnd, end: termEnd, text: `, ${depthOf(alias, o.cap)}` },
    { start: refStart, end: refEnd, text: `${q(renamed(o.index))}${o.ref['alias'] ? '' : ` AS ${q(o.name)}`}` },
    { start: tokens[bodyEnd]!.end, end: tokens[bodyEnd]!.end, text: `, ${wrapper(o.name, o.columns, o.index)}` },
  );
  return edits;
}

/** The same changes on the expected tree. */
function expectCapped({ cte, withClause }: Cte, o: Pick<One, 'name' | 'columns' | 'index' | 'cap' | 'star'>, parse: Parse): void {
  const body = (cte['ctequery'] as PgNode)['SelectStmt'] as PgNode;
  const anchor = body['larg'] as PgNode;
  const term = body['rarg'] as PgNode;
  const ref = cteRef(term['fromClause'] as PgNode[], o.name)!;
  const alias = String((ref['alias'] as PgNode | undefined)?.['aliasname'] ?? o.name);
  const targets = (sql: string) => (parse(sql)['SelectStmt'] as PgNode)['targetList'] as PgNode[];
  // Keys in the parser's order (the trees are compared as JSON text): the column list follows the name.
  const fields = Object.entries(cte).filter(([k]) => k !== 'ctename' && k !== 'aliascolnames');
  for (const k of Object.keys(cte)) delete cte[k];
  Object.assign(cte, { ctename: renamed(o.index), aliascolnames: [...o.columns, DEPTH].map((sv) => ({ String: { sval: sv } })) }, Object.fromEntries(fields));
  (anchor['targetList'] as PgNode[]).push(...targets('SELECT 0'));
  if (o.star !== undefined) term['targetList'] = targets(`SELECT ${o.star}`);
  (term['targetList'] as PgNode[]).push(...targets(`SELECT ${depthOf(alias, o.cap)}`));
  ref['relname'] = renamed(o.index);
  ref['alias'] ??= { aliasname: o.name };
  const ctes = withClause['ctes'] as PgNode[];
  const added = ((parse(`WITH ${wrapper(o.name, o.columns, o.index)} SELECT 1`)['SelectStmt'] as PgNode)['withClause'] as PgNode)['ctes'] as PgNode[];
  ctes.splice(ctes.findIndex((c) => c['CommonTableExpr'] === cte) + 1, 0, ...added);
}
