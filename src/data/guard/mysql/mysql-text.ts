// MySQL and MariaDB read comments and strings in ways no general parser does: `/*! ... */` and
// `/*!50000 ... */` (MariaDB also `/*M! ... */`) are code to the server and comments to a parser,
// `--1` is "minus minus one" (a comment needs `-- `), and backslashes in strings escape or not
// depending on sql_mode. Before parsing, executable comments and bare `--` are refused, every comment
// (optimizer hints `/*+ ... */` included) is blanked, and every string is spelled with only `''` and
// `\\` escapes, which read the same with and without NO_BACKSLASH_ESCAPES or ANSI_QUOTES.
import { QueryRefused } from '../../errors.ts';

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', Z: '\x1a', '\\': '\\', "'": "'", '"': '"', '%': '\\%', _: '\\_' };

/** A MySQL string constant from its value, read the same in every sql_mode. */
export function mysqlStringLiteral(value: string): string {
  return `'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** Reads a quoted string starting at `i`; returns its value and end. */
function readString(sql: string, i: number): { value: string; end: number } {
  const q = sql[i]!;
  let value = '';
  for (let j = i + 1; j < sql.length; j++) {
    const c = sql[j]!;
    if (c === '\\') {
      const e = sql[j + 1];
      if (e === undefined) break;
      if (e === '0') throw new QueryRefused('ambiguous_syntax', 'The escape \\0 is refused in strings');
      // \% and \_ keep their backslash (they are LIKE escapes); other unknown escapes drop it.
      value += ESCAPES[e] ?? e;
      j++;
    } else if (c === q && sql[j + 1] === q) {
      value += q;
      j++;
    } else if (c === q) {
      return { value, end: j + 1 };
    } else {
      value += c;
    }
  }
  throw new QueryRefused('parse_error', 'Unterminated string in the statement');
}

function identifierEnd(sql: string, i: number): number {
  for (let j = i + 1; ; ) {
    const end = sql.indexOf('`', j);
    if (end < 0) throw new QueryRefused('parse_error', 'Unterminated quoted identifier in the statement');
    if (sql[end + 1] !== '`') return end + 1;
    j = end + 2;
  }
}

function commentEnd(sql: string, i: number): number {
  if (sql.startsWith('/*!', i) || sql.startsWith('/*M!', i)) {
    throw new QueryRefused('executable_comment', 'Executable comments (/*! ... */, /*M! ... */) are refused: write the SQL without comment markers');
  }
  const close = sql.indexOf('*/', i + 2);
  if (close < 0) throw new QueryRefused('parse_error', 'Unterminated comment in the statement');
  return close + 2;
}

/** The canonical text of MySQL SQL: comments blanked, strings respelled; refuses what is ambiguous. */
export function canonicalMysqlText(sql: string): string {
  if (sql.includes('\0')) throw new QueryRefused('ambiguous_syntax', 'The statement contains a NUL character');
  let out = '';
  let at = 0;
  const emit = (start: number, end: number, text: string) => {
    out += sql.slice(at, start) + text;
    at = end;
  };
  for (let i = 0; i < sql.length; ) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const s = readString(sql, i);
      emit(i, s.end, mysqlStringLiteral(s.value));
      i = s.end;
    } else if (c === '`') {
      i = identifierEnd(sql, i);
    } else if (c === '#' || (c === '-' && sql[i + 1] === '-')) {
      const after = sql.charCodeAt(i + 2);
      // MySQL starts a `--` comment only before whitespace or a control character (or the end).
      if (c === '-' && !(Number.isNaN(after) || after <= 32)) {
        throw new QueryRefused('ambiguous_syntax', '`--` without a following space is an operator to MySQL, not a comment: write `- -1` or `-- comment`');
      }
      const nl = sql.indexOf('\n', i);
      const end = nl < 0 ? sql.length : nl;
      emit(i, end, ' '.repeat(end - i));
      i = end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = commentEnd(sql, i);
      emit(i, end, sql.slice(i, end).replace(/[^\n]/g, ' '));
      i = end;
    } else {
      i++;
    }
  }
  return out + sql.slice(at);
}

/** True when a text has no comment and only canonically spelled strings (checks generated SQL). */
export function isCanonicalMysqlText(sql: string): boolean {
  try {
    return canonicalMysqlText(sql) === sql;
  } catch {
    return false;
  }
}
