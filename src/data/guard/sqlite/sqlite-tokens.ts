// SQLite's lexer, ported from its tokenize.c (sqlite3GetToken), so the guard splits text into tokens
// exactly where SQLite does: comments (`--` to the end of the line, `/*` to `*/` or the end of the
// text), strings with doubled quotes and no backslash escapes, identifiers in "", [], `` or bare
// (any character >= 0x80 included), blobs, numbers with `_` separators, and variables.
import { QueryRefused } from '../../errors.ts';

export type SqliteTokenKind = 'space' | 'comment' | 'id' | 'string' | 'blob' | 'number' | 'variable' | 'op';

export interface SqliteToken {
  kind: SqliteTokenKind;
  start: number;
  end: number;
  text: string;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined) => c !== undefined && /[0-9a-fA-F]/.test(c);
// tokenize.c's IdChar: letters, digits, _, $ and every byte >= 0x80.
const isIdChar = (c: string | undefined) => c !== undefined && (/[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80);
const OPS = ['->>', '->', '||', '==', '<=', '<>', '<<', '>=', '>>', '!=', '(', ')', ';', '+', '*', '%', ',', '&', '~', '-', '/', '=', '<', '>', '|', '.'];

function quoted(sql: string, i: number, close: string): number {
  for (let j = i + 1; j < sql.length; j++) {
    if (sql[j] !== close) continue;
    if (close !== ']' && sql[j + 1] === close) {
      j++;
      continue;
    }
    return j + 1;
  }
  throw new QueryRefused('parse_error', `Unterminated ${close === "'" ? 'string' : 'quoted identifier'} in the statement`);
}

function number(sql: string, i: number): number {
  let j = i;
  const digits = (test: (c: string | undefined) => boolean) => {
    while (test(sql[j]) || (sql[j] === '_' && test(sql[j - 1]) && test(sql[j + 1]))) j++;
  };
  if (sql[j] === '0' && (sql[j + 1] === 'x' || sql[j + 1] === 'X') && isHex(sql[j + 2])) {
    j += 2;
    digits(isHex);
  } else {
    digits(isDigit);
    if (sql[j] === '.') {
      j++;
      digits(isDigit);
    }
    if ((sql[j] === 'e' || sql[j] === 'E') && (isDigit(sql[j + 1]) || ((sql[j + 1] === '+' || sql[j + 1] === '-') && isDigit(sql[j + 2])))) {
      j += 2;
      digits(isDigit);
    }
  }
  if (isIdChar(sql[j])) throw new QueryRefused('parse_error', `Unrecognized token near ${sql.slice(i, j + 1)}`);
  return j;
}

function variable(sql: string, i: number): number {
  let j = i + 1;
  while (isIdChar(sql[j]) || (sql[j] === ':' && sql[j + 1] === ':')) j += sql[j] === ':' ? 2 : 1;
  return j;
}

/** One token starting at `i`. */
function next(sql: string, i: number): { kind: SqliteTokenKind; end: number } {
  const c = sql[i]!;
  if (/[ \t\n\f\r]/.test(c)) {
    let j = i;
    while (j < sql.length && /[ \t\n\f\r]/.test(sql[j]!)) j++;
    return { kind: 'space', end: j };
  }
  if (c === '-' && sql[i + 1] === '-') {
    const nl = sql.indexOf('\n', i);
    return { kind: 'comment', end: nl === -1 ? sql.length : nl };
  }
  if (c === '/' && sql[i + 1] === '*') {
    const close = sql.indexOf('*/', i + 2);
    return { kind: 'comment', end: close === -1 ? sql.length : close + 2 };
  }
  if (c === "'") return { kind: 'string', end: quoted(sql, i, "'") };
  if (c === '"' || c === '`') return { kind: 'id', end: quoted(sql, i, c) };
  if (c === '[') return { kind: 'id', end: quoted(sql, i, ']') };
  if ((c === 'x' || c === 'X') && sql[i + 1] === "'") return { kind: 'blob', end: quoted(sql, i + 1, "'") };
  if (isDigit(c) || (c === '.' && isDigit(sql[i + 1]))) return { kind: 'number', end: number(sql, i) };
  if (c === '?' || c === ':' || c === '@' || c === '$' || c === '#') return { kind: 'variable', end: variable(sql, i) };
  if (isIdChar(c)) {
    let j = i;
    while (isIdChar(sql[j])) j++;
    return { kind: 'id', end: j };
  }
  const op = OPS.find((o) => sql.startsWith(o, i));
  if (!op) throw new QueryRefused('parse_error', `Unrecognized character ${JSON.stringify(c)} in the statement`);
  return { kind: 'op', end: i + op.length };
}

/** Splits SQLite SQL into tokens, whitespace and comments included. */
export function tokenizeSqlite(sql: string): SqliteToken[] {
  if (sql.includes('\0')) throw new QueryRefused('ambiguous_syntax', 'The statement contains a NUL character, after which SQLite reads nothing');
  const tokens: SqliteToken[] = [];
  for (let i = 0; i < sql.length; ) {
    const { kind, end } = next(sql, i);
    tokens.push({ kind, start: i, end, text: sql.slice(i, end) });
    i = end;
  }
  return tokens;
}

/** The identifier a token names (quotes removed), or undefined for other tokens. */
export function identifierOf(t: SqliteToken): string | undefined {
  if (t.kind !== 'id') return undefined;
  const q = t.text[0];
  if (q === '"' || q === '`') return t.text.slice(1, -1).replaceAll(q + q, q);
  if (q === '[') return t.text.slice(1, -1);
  return t.text;
}
