// SQLite is read through PostgreSQL's grammar: the tokens SQLite itself would see (sqlite-tokens.ts)
// are rewritten into their PostgreSQL spelling where the two differ ([x] and `x` identifiers, `==`,
// GLOB/REGEXP/MATCH, `IS`/`IS NOT` between values, postfix `NOT NULL`, `LIMIT offset, count`, the
// n-th bare `?` as `$n`, which is the number SQLite gives it when no other form is used). The spelling
// only serves the check: what runs is SQLite's own text, rewritten at the same tokens. Every other
// form of variable (`?NNN`, `:name`, `@name`, `$name`) is refused here, whatever the caller binds.
// Anything the translation does not cover fails PostgreSQL's grammar and is refused.
import { QueryRefused } from '../../errors.ts';
import { identifierOf, tokenizeSqlite, type SqliteToken } from './sqlite-tokens.ts';

export interface CheckText {
  /** PostgreSQL spelling of the statement. */
  text: string;
  /** Offset in the SQLite text of the token that starts at `offset` in the check text. */
  source(offset: number): number;
}

const LIKE_OPERATORS = new Set(['GLOB', 'REGEXP', 'MATCH']);
const IS_OPERANDS = new Set(['NULL', 'TRUE', 'FALSE', 'UNKNOWN', 'DISTINCT', 'JSON']);
const CLAUSE_KEYWORDS = new Set(['WHERE', 'AND', 'OR', 'NOT', 'WHEN', 'THEN', 'ELSE', 'SELECT', 'ON', 'HAVING', 'BY', 'IS', 'CASE', 'RETURNING']);
const LIMIT_ENDS = new Set(['UNION', 'INTERSECT', 'EXCEPT', 'ORDER', 'WINDOW']);

const upper = (t: SqliteToken | undefined) => (t?.kind === 'id' && /^[A-Za-z_]/.test(t.text) ? t.text.toUpperCase() : undefined);
const endsOperand = (t: SqliteToken | undefined) => !!t && (['string', 'number', 'blob'].includes(t.kind) || t.text === ')' || (t.kind === 'id' && !CLAUSE_KEYWORDS.has(upper(t) ?? '')));

/** The comma of `LIMIT a, b` at the depth of the LIMIT keyword at `i`, if any. */
function limitComma(tokens: SqliteToken[], i: number): number | undefined {
  let depth = 0;
  for (let j = i + 1; j < tokens.length; j++) {
    const t = tokens[j]!;
    if (t.text === '(') depth++;
    else if (t.text === ')') depth--;
    if (depth < 0 || t.text === ';' || LIMIT_ENDS.has(upper(t) ?? '')) return undefined;
    if (depth === 0 && t.text === ',') return j;
  }
  return undefined;
}

function spell(tokens: SqliteToken[], i: number, skip: Set<number>): string {
  const t = tokens[i]!;
  if (t.kind === 'variable') throw new QueryRefused('parameter', 'Bind parameters (?NNN, :name, @name, $name) are refused: write the values into the query');
  if (t.kind === 'op') return t.text === '==' ? '=' : t.text;
  if (t.kind !== 'id') return t.text;
  if (t.text[0] === '[' || t.text[0] === '`') return `"${identifierOf(t)!.replaceAll('"', '""')}"`;
  const word = upper(t);
  if (word && LIKE_OPERATORS.has(word)) return 'LIKE';
  if (word === 'IS') {
    const negated = upper(tokens[i + 1]) === 'NOT';
    if (IS_OPERANDS.has(upper(tokens[i + (negated ? 2 : 1)]) ?? '')) return t.text;
    if (negated) skip.add(i + 1);
    return negated ? 'IS DISTINCT FROM' : 'IS NOT DISTINCT FROM';
  }
  if (word === 'NOT' && upper(tokens[i + 1]) === 'NULL' && endsOperand(tokens[i - 1])) return 'IS NOT';
  if (word === 'LIMIT') {
    const comma = limitComma(tokens, i);
    if (comma !== undefined) skip.add(-comma - 1);
  }
  return t.text;
}

/** The PostgreSQL spelling of SQLite tokens (whitespace and comments left out). */
export function sqliteCheckText(sqliteSql: string): CheckText {
  const tokens = tokenizeSqlite(sqliteSql).filter((t) => t.kind !== 'space' && t.kind !== 'comment');
  const skip = new Set<number>();
  const starts = new Map<number, number>();
  let text = '';
  let placeholders = 0;
  tokens.forEach((t, i) => {
    if (skip.has(i)) return;
    const bare = t.kind === 'variable' && t.text === '?';
    const spelled = bare ? `$${++placeholders}` : skip.has(-i - 1) ? 'OFFSET' : spell(tokens, i, skip);
    if (text) text += ' ';
    starts.set(text.length, t.start);
    text += spelled;
  });
  return {
    text,
    source(offset) {
      const s = starts.get(offset);
      if (s === undefined) throw new QueryRefused('unsupported_syntax', 'A table reference could not be located in the statement');
      return s;
    },
  };
}
