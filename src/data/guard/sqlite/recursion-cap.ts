// A row cap for SQLite's recursive CTEs. SQLite has no setting for it (and LIMIT inside the CTE would
// cut the result silently), so the last output column of each recursive term is wrapped in
// `sextant_step(...)`: a function of the query process's SQLite session that returns its argument
// and counts the rows the recursion produced, failing the statement past the cap (sqlite-session.ts).
import type { PgNode } from '../pg/pg-parser.ts';
import { tokenizeSqlite, type SqliteToken } from './sqlite-tokens.ts';

/** Where one wrap goes: `sextant_step(` before `start`, `)` after `end` (insertions, so table edits inside stay apart). */
export interface CapEdit {
  start: number;
  end: number;
  /** The recursive term's index in the walk's `recursiveTerms`. */
  term: number;
}

const word = (t: SqliteToken | undefined, w: string) => t?.kind === 'id' && t.text.toLowerCase() === w;

/**
 * The edits that wrap the last output expression of each recursive term; a term written as `*` (or
 * whose expression cannot be located) is left as it is, bounded by the statement's time only.
 */
export function recursionCapEdits(text: string, terms: PgNode[], source: (offset: number) => number): CapEdit[] {
  const tokens = tokenizeSqlite(text).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
  const edits: CapEdit[] = [];
  terms.forEach((term, index) => {
    const target = ((term['targetList'] as PgNode[] | undefined) ?? []).at(-1)?.['ResTarget'] as PgNode | undefined;
    if (!target || target['location'] === undefined || isStar(target['val'] as PgNode)) return;
    const start = source(target['location'] as number);
    const end = expressionEnd(tokens, start, target['name'] !== undefined);
    if (end !== undefined) edits.push({ start, end, term: index });
  });
  return edits;
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
