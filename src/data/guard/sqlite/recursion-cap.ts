// A row cap for SQLite's recursive CTEs. SQLite has no setting for it (and LIMIT inside the CTE would
// cut the result silently), so the last output column of each recursive term is wrapped in
// `sextant_step(...)`: a function of the query process's SQLite session that returns its argument
// and counts the rows the recursion produced, failing the statement past the cap (sqlite-session.ts).
// A term written `SELECT * FROM r` (or `r.*`, the CTE alone in FROM) is written out as the CTE's
// columns first; a `*` over a join, whose columns only the catalog knows, stays bounded by time.
import { foldName } from '../cte-scope.ts';
import type { PgNode } from '../pg/pg-parser.ts';
import { STEP_FUNCTION } from '../recursion-step.ts';
import { quoteIdent } from '../table-ref.ts';
import { tokenizeSqlite, type SqliteToken } from './sqlite-tokens.ts';

/** Where one wrap goes: `sextant_step(` before `start`, `)` after `end` (insertions, so table edits inside stay apart). */
export interface CapEdit {
  start: number;
  end: number;
  /** The recursive term's index in the walk's `recursiveTerms`. */
  term: number;
  /** A `*` term: the text replacing `start`-`end` (the CTE's columns, the last one wrapped). */
  star?: string;
}

const word = (t: SqliteToken | undefined, w: string) => t?.kind === 'id' && t.text.toLowerCase() === w;

/**
 * The edits that wrap the last output expression of each recursive term; a `*` over more than the
 * CTE (or an expression that cannot be located) is left as it is, bounded by the statement's time only.
 */
export function recursionCapEdits(text: string, terms: PgNode[], ctes: PgNode[], source: (offset: number) => number): CapEdit[] {
  const tokens = tokenizeSqlite(text).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
  const edits: CapEdit[] = [];
  terms.forEach((term, index) => {
    const target = ((term['targetList'] as PgNode[] | undefined) ?? []).at(-1)?.['ResTarget'] as PgNode | undefined;
    if (!target || target['location'] === undefined) return;
    const start = source(target['location'] as number);
    if (isStar(target['val'] as PgNode)) {
      const star = starColumns(term, ctes[index]!);
      const end = tokens.slice(tokens.findIndex((t) => t.start === start)).find((t) => t.text === '*')?.end;
      if (star && end !== undefined) edits.push({ start, end, term: index, star });
      return;
    }
    const end = expressionEnd(tokens, start, target['name'] !== undefined);
    if (end !== undefined) edits.push({ start, end, term: index });
  });
  return edits;
}

const svalOf = (n: PgNode | undefined) => ((n?.['String'] as PgNode | undefined)?.['sval'] as string | undefined);

/** `q."a", sextant_step(q."b")` for a term `SELECT * FROM <cte> [AS q]`, when the CTE's column names are known. */
function starColumns(term: PgNode, cte: PgNode): string | undefined {
  const from = (term['fromClause'] as PgNode[] | undefined) ?? [];
  const rv = from.length === 1 ? (from[0]!['RangeVar'] as PgNode | undefined) : undefined;
  const cteName = String(cte['ctename']);
  if (!rv || rv['schemaname'] !== undefined || foldName('sqlite', String(rv['relname'])) !== foldName('sqlite', cteName) || (term['targetList'] as PgNode[]).length !== 1) return undefined;
  const qualifier = String((rv['alias'] as PgNode | undefined)?.['aliasname'] ?? rv['relname']);
  const fields = (((term['targetList'] as PgNode[])[0]!['ResTarget'] as PgNode)['val'] as PgNode)['ColumnRef'] as PgNode;
  const written = (fields['fields'] as PgNode[]).slice(0, -1).map(svalOf);
  if (written.length > 1 || (written.length === 1 && foldName('sqlite', written[0] ?? '') !== foldName('sqlite', qualifier))) return undefined;
  const names = cteColumns(cte);
  if (!names?.length) return undefined;
  const cols = names.map((n) => `${quoteIdent('sqlite', qualifier)}.${quoteIdent('sqlite', n)}`);
  return [...cols.slice(0, -1), `${STEP_FUNCTION}(${cols.at(-1)!})`].join(', ');
}

/** The CTE's column names: its column list, else its anchor's output names when each is a name. */
function cteColumns(cte: PgNode): string[] | undefined {
  const listed = (cte['aliascolnames'] as PgNode[] | undefined)?.map(svalOf);
  if (listed) return listed.every((n) => n !== undefined) ? (listed as string[]) : undefined;
  let anchor = (cte['ctequery'] as PgNode)['SelectStmt'] as PgNode;
  while (anchor['larg']) anchor = anchor['larg'] as PgNode;
  const names = ((anchor['targetList'] as PgNode[] | undefined) ?? []).map((t) => {
    const target = t['ResTarget'] as PgNode;
    if (target['name'] !== undefined) return String(target['name']);
    const ref = (target['val'] as PgNode)['ColumnRef'] as PgNode | undefined;
    return svalOf((ref?.['fields'] as PgNode[] | undefined)?.at(-1));
  });
  return names.every((n) => n !== undefined) ? (names as string[]) : undefined;
}

function isStar(val: PgNode): boolean {
  const fields = ((val['ColumnRef'] as PgNode | undefined)?.['fields'] as PgNode[] | undefined) ?? [];
  return fields.some((f) => f['A_Star'] !== undefined);
}

/** The end of the expression starting at `start`: before `[AS] alias` and the FROM that follows it. */
function expressionEnd(tokens: SqliteToken[], start: number, aliased: boolean): number | undefined {
  let i = tokens.findIndex((t) => t.start === start);
  if (i < 0) return undefined;
  const first = i;
  for (let depth = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    else if (depth === 0 && word(t, 'from')) break;
    if (depth < 0) return undefined;
  }
  if (i >= tokens.length) return undefined;
  let last = i - 1;
  if (aliased) {
    last--;
    if (word(tokens[last], 'as')) last--;
  }
  return last >= first ? tokens[last]!.end : undefined;
}

/** The tree the wrapped text must parse to: the term's last `val` becomes `call` around it. */
export function wrapLastTarget(term: PgNode, call: PgNode): void {
  const target = (term['targetList'] as PgNode[]).at(-1)!['ResTarget'] as PgNode;
  const wrapped = structuredClone(call);
  (wrapped['FuncCall'] as PgNode)['args'] = [target['val']];
  target['val'] = wrapped;
}
