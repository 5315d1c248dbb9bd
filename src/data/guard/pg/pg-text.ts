// The text PostgreSQL receives: the input as the server's own lexer splits it, with every comment
// blanked (pg_hint_plan reads `/*+ ... */` hints, including `Set(...)` of settings, that no parser
// sees) and every string constant spelled from its value so that it reads the same whatever the
// server's standard_conforming_strings: 'x' without backslashes, else E'...' with them escaped.
import { QueryRefused } from '../../errors.ts';
import { eachNode, type PgNode, type PgParser, type PgToken } from './pg-parser.ts';

/** A string constant spelled the same under both settings of standard_conforming_strings. */
export function pgStringLiteral(value: string): string {
  const quoted = value.replaceAll("'", "''");
  return value.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

const isString = (sql: string, t: PgToken) => t.tokenName === 'SCONST' || /^[uU]&'/.test(sql.slice(t.start, t.end));

function blankComments(sql: string, tokens: PgToken[]): string {
  let out = sql;
  for (const t of tokens) {
    if (t.tokenName !== 'C_COMMENT' && t.tokenName !== 'SQL_COMMENT') continue;
    out = out.slice(0, t.start) + sql.slice(t.start, t.end).replace(/[^\n]/g, ' ') + out.slice(t.end);
  }
  return out;
}

/** The canonical text of `sql` (same statements, comments blanked, strings respelled). */
export function canonicalPgText(parser: PgParser, sql: string): string {
  if (sql.includes('\0')) throw new QueryRefused('ambiguous_syntax', 'The statement contains a NUL character');
  const tokens = parser.scan(sql);
  if (tokens.some((t) => /^uescape$/i.test(sql.slice(t.start, t.end)))) {
    throw new QueryRefused('ambiguous_syntax', 'UESCAPE is refused: write the characters themselves or use E\'\\uXXXX\' escapes');
  }
  const blanked = blankComments(sql, tokens);
  const strings = tokens.filter((t) => isString(sql, t));
  if (strings.length === 0) return blanked;
  const values = new Map<number, string>();
  eachNode(parser.parse(blanked), 'A_Const', (c) => {
    if (c['sval'] && typeof c['location'] === 'number') values.set(c['location'], String((c['sval'] as PgNode)['sval'] ?? ''));
  });
  let out = '';
  let at = 0;
  for (const t of strings) {
    const value = values.get(t.start);
    if (value === undefined) throw new QueryRefused('unsupported_syntax', `The string ${sql.slice(t.start, Math.min(t.end, t.start + 40))} could not be read as a constant`);
    out += blanked.slice(at, t.start) + pgStringLiteral(value);
    at = t.end;
  }
  return out + blanked.slice(at);
}

const IDENT = /(?:[uU]&"(?:[^"]|"")*"|"(?:[^"]|"")*"|[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*)/y;

/** The span of a qualified name of `parts` parts starting at `start` in PostgreSQL text. */
export function pgNameSpan(sql: string, start: number, parts: number): [number, number] {
  let at = start;
  for (let p = 0; p < parts; p++) {
    if (p > 0) {
      const dot = /\s*\.\s*/y;
      dot.lastIndex = at;
      if (!dot.exec(sql)) throw new QueryRefused('unsupported_syntax', 'A qualified table name could not be located in the statement');
      at = dot.lastIndex;
    }
    IDENT.lastIndex = at;
    if (!IDENT.exec(sql)) throw new QueryRefused('unsupported_syntax', 'A table name could not be located in the statement');
    at = IDENT.lastIndex;
  }
  return [start, at];
}
