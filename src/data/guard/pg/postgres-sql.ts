// PostgreSQL read with its own lexer and grammar (libpg-query), rewritten in place (pg-sql.ts).
import { QueryRefused } from '../../errors.ts';
import type { PgParser } from './pg-parser.ts';
import type { TextDialect } from './pg-sql.ts';
import { canonicalPgText, pgNameSpan } from './pg-text.ts';

const word = (text: string, t: { start: number; end: number }) => text.slice(t.start, t.end).toUpperCase();

/** `[AS] alias TABLESAMPLE method (args) [REPEATABLE (seed)]` after a table name ending at `at`. */
function sampleClause(parser: PgParser, text: string, at: number): { alias: string; sample: string; end: number } {
  const tokens = parser.scan(text).filter((t) => t.start >= at && t.tokenName !== 'C_COMMENT' && t.tokenName !== 'SQL_COMMENT');
  const k = tokens.findIndex((t) => word(text, t) === 'TABLESAMPLE');
  if (k < 0) throw new QueryRefused('unsupported_syntax', 'The TABLESAMPLE clause could not be located');
  let i = k + 2;
  const group = () => {
    if (tokens[i]?.tokenName !== 'ASCII_40') throw new QueryRefused('unsupported_syntax', 'The TABLESAMPLE clause could not be read');
    for (let depth = 0; i < tokens.length; i++) {
      if (tokens[i]!.tokenName === 'ASCII_40') depth++;
      if (tokens[i]!.tokenName === 'ASCII_41' && --depth === 0) return tokens[i++]!.end;
    }
    throw new QueryRefused('unsupported_syntax', 'The TABLESAMPLE clause could not be read');
  };
  let end = group();
  if (tokens[i] && word(text, tokens[i]!) === 'REPEATABLE') {
    i++;
    end = group();
  }
  return { alias: text.slice(at, tokens[k]!.start).trim(), sample: text.slice(tokens[k]!.start, end), end };
}

/** PostgreSQL as the guard reads and rewrites it. */
export const POSTGRES_TEXT: TextDialect = {
  dialect: 'postgresql',
  canonical: canonicalPgText,
  checkText: (text) => ({ text, source: (offset) => offset }),
  nameSpan: pgNameSpan,
  sampleClause,
  fence: ' OFFSET 0',
};
