// Guard and rewriting for the dialects read with PostgreSQL's grammar (PostgreSQL, SQLite). What the
// warehouse receives is the canonical text (pg-text.ts, sqlite-sql.ts) with each rewritten table
// name replaced in place; the result is parsed again and must equal the checked tree with exactly
// those replacements, or the statement is refused. So what runs is what was checked.
import { QueryRefused } from '../../errors.ts';
import { boundGenerators } from '../row-generators.ts';
import { dedupeTables, quoteIdent, type GuardedQuery, type TableRewrite } from '../table-ref.ts';
import { STEP_FUNCTION } from '../recursion-step.ts';
import { recursionCapEdits, wrapLastTarget } from '../sqlite/recursion-cap.ts';
import { firstLocation, groupByAdditions } from './pg-group-by.ts';
import { pgRecursionCapEdits } from './pg-recursion-cap.ts';
import { statementsOf, withoutLocations, type PgNode, type PgParser } from './pg-parser.ts';
import { walkPg, type PgDialect, type PgRef } from './pg-walk.ts';

/** What a dialect read through PostgreSQL's grammar provides. */
export interface TextDialect {
  dialect: PgDialect;
  /** The text the warehouse would receive for `sql`: comments blanked, literals spelled canonically. */
  canonical(parser: PgParser, sql: string): string;
  /** The PostgreSQL spelling of canonical text, and where its offsets fall in that text. */
  checkText(text: string): { text: string; source(offset: number): number };
  /** The span of a qualified table name of `parts` parts starting at `start` of canonical text. */
  nameSpan(text: string, start: number, parts: number): [number, number];
  /** The end of a TABLESAMPLE clause after a name ending at `at`, with the alias written before it. */
  sampleClause?(parser: PgParser, text: string, at: number): { alias: string; sample: string; end: number };
  /** Keeps the planner from pushing the caller's predicates below a filter (see table-ref.ts). */
  fence: string;
}

interface Checked {
  text: string;
  stmt: PgNode;
  source(offset: number): number;
}

/** The private part of a GuardedQuery of these dialects. */
interface PgTree extends Checked {
  parser: PgParser;
  textDialect: TextDialect;
  refs: PgRef[];
  recursiveTerms: PgNode[];
  recursiveCtes: PgNode[];
}

function check(d: TextDialect, parser: PgParser, text: string): Checked {
  const spelled = d.checkText(text);
  const stmts = statementsOf(parser.parse(spelled.text, d.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'));
  if (stmts.length === 0) throw new QueryRefused('empty', 'The query is empty');
  if (stmts.length > 1) throw new QueryRefused('multiple_statements', 'Send exactly one statement; multiple statements are refused');
  return { text, stmt: stmts[0]!, source: spelled.source };
}

/** Guards one statement. */
export function guardPgLike(d: TextDialect, parser: PgParser, sql: string): GuardedQuery {
  const checked = check(d, parser, d.canonical(parser, sql));
  const walk = walkPg(d.dialect, checked.stmt);
  boundGenerators(walk.generators);
  const tree: PgTree = { ...checked, parser, textDialect: d, refs: walk.refs, recursiveTerms: walk.recursiveTerms, recursiveCtes: walk.recursiveCtes };
  return { dialect: d.dialect, sql, tables: dedupeTables(walk.refs.map((r) => r.ref)), functions: [...walk.functions], placeholders: walk.placeholders, tree };
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Rewrites the references as `rewrite` says; returns the verified text the warehouse receives. */
export function rewritePgLike(q: GuardedQuery, rewrite: TableRewrite, maxRecursion: number): string {
  const t = q.tree as PgTree;
  const d = t.textDialect;
  const expected = structuredClone(t.stmt);
  const expectedWalk = walkPg(d.dialect, expected);
  const expectedRefs = expectedWalk.refs;
  const edits: Edit[] = [];
  if (d.dialect === 'sqlite') capRecursion(t, expectedWalk.recursiveTerms, edits);
  else edits.push(...pgRecursionCapEdits(t.parser, t.text, t.stmt, expected, maxRecursion, (sql) => check(d, t.parser, sql).stmt));
  t.refs.forEach((r, i) => {
    const target = rewrite(r.ref);
    if (!target) return;
    const exp = expectedRefs[i]!;
    const start = t.source(r.rangeVar['location'] as number);
    const [, end] = d.nameSpan(t.text, start, r.ref.schema ? 2 : 1);
    const qualified = `${quoteIdent(d.dialect, target.schema)}.${quoteIdent(d.dialect, target.name)}`;
    if (target.filter === undefined) {
      edits.push({ start, end, text: qualified });
      Object.assign(exp.rangeVar, { schemaname: target.schema, relname: target.name });
      return;
    }
    if (r.rangeVar['inh'] === false) throw new QueryRefused('unsupported_syntax', 'ONLY is not supported on a table with a row filter');
    const alias = (r.rangeVar['alias'] as PgNode | undefined) ?? { aliasname: r.ref.name };
    const where = ` WHERE (${target.filter})${d.fence})`;
    const asName = ` AS ${quoteIdent(d.dialect, r.ref.name)}`;
    let edit: Edit;
    let snippet: string;
    if (r.sample && d.sampleClause) {
      // The sample moves inside, onto the table; the alias written before TABLESAMPLE moves out.
      const s = d.sampleClause(t.parser, t.text, end);
      edit = { start, end: s.end, text: `(SELECT * FROM ${qualified} ${s.sample}${where} ${s.alias || asName}` };
      snippet = edit.text;
    } else {
      edit = { start, end, text: `(SELECT * FROM ${qualified}${where}${r.rangeVar['alias'] ? '' : asName}` };
      snippet = r.rangeVar['alias'] ? `${edit.text} AS x` : edit.text;
    }
    edits.push(edit);
    const sub = (check(d, t.parser, `SELECT * FROM ${snippet}`).stmt['SelectStmt'] as PgNode)['fromClause'] as PgNode[];
    const replacement = sub[0]!;
    (replacement['RangeSubselect'] as PgNode)['alias'] = alias;
    exp.replace(replacement);
    if (d.dialect === 'postgresql' && target.primaryKey) groupBy(t, r, exp, String(alias['aliasname']), target.primaryKey, edits);
  });
  if (edits.length === 0) return t.text;
  let out = t.text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  // Filters are admin-written text: their comments and literals get the same canonical spelling.
  out = d.canonical(t.parser, out);
  const again = check(d, t.parser, out);
  if (JSON.stringify(withoutLocations(again.stmt)) !== JSON.stringify(withoutLocations(expected))) {
    throw new QueryRefused('unsupported_syntax', 'The statement could not be rewritten with its row filters in a form verified to mean the same; simplify it');
  }
  return out;
}

/** SQLite: each recursive term counts its rows through the session's step function (sqlite/recursion-cap.ts). */
function capRecursion(t: PgTree, expectedTerms: PgNode[], edits: Edit[]): void {
  const caps = recursionCapEdits(t.text, t.recursiveTerms, t.recursiveCtes, t.source);
  if (caps.length === 0) return;
  const targets = (sql: string) => (check(t.textDialect, t.parser, sql).stmt['SelectStmt'] as PgNode)['targetList'] as PgNode[];
  const callNode = (targets(`SELECT ${STEP_FUNCTION}(0)`)[0]!['ResTarget'] as PgNode)['val'] as PgNode;
  for (const c of caps) {
    if (c.star !== undefined) {
      edits.push({ start: c.start, end: c.end, text: c.star });
      expectedTerms[c.term]!['targetList'] = targets(`SELECT ${c.star}`);
      continue;
    }
    edits.push({ start: c.start, end: c.start, text: `${STEP_FUNCTION}(` }, { start: c.end, end: c.end, text: ')' });
    wrapLastTarget(expectedTerms[c.term]!, callNode);
  }
}

function groupBy(t: PgTree, r: PgRef, exp: PgRef, alias: string, primaryKey: string[], edits: Edit[]): void {
  const from = (r.select['fromClause'] as PgNode[] | undefined) ?? [];
  const sole = from.length === 1 && from[0]!['RangeVar'] === r.rangeVar;
  const cols = groupByAdditions(r.select, alias, primaryKey, sole);
  if (cols.length === 0) return;
  const first = firstLocation((r.select['groupClause'] as PgNode[])[0]);
  const by = t.parser.scan(t.text).filter((tok) => tok.end <= first && /^by$/i.test(t.text.slice(tok.start, tok.end))).at(-1);
  if (!by) return;
  const q = (s: string) => quoteIdent('postgresql', s);
  edits.push({ start: by.end, end: by.end, text: ` ${cols.map((c) => `${q(alias)}.${q(c)}`).join(', ')},` });
  const refs = cols.map((c) => ({ ColumnRef: { fields: [{ String: { sval: alias } }, { String: { sval: c } }] } }));
  exp.select['groupClause'] = [...refs, ...((exp.select['groupClause'] as PgNode[]) ?? [])];
}
