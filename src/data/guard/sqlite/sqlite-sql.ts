// SQLite read with PostgreSQL's grammar through its own tokens (sqlite-check-text.ts), rewritten in
// place (pg/pg-sql.ts). The text SQLite receives is its own, with comments blanked.
import { QueryRefused } from '../../errors.ts';
import type { TextDialect } from '../pg/pg-sql.ts';
import { sqliteCheckText } from './sqlite-check-text.ts';
import { tokenizeSqlite } from './sqlite-tokens.ts';

function canonical(_parser: unknown, sql: string): string {
  return tokenizeSqlite(sql)
    .map((t) => (t.kind === 'comment' ? t.text.replace(/[^\n]/g, ' ') : t.text))
    .join('');
}

function nameSpan(text: string, start: number, parts: number): [number, number] {
  const tokens = tokenizeSqlite(text).filter((t) => t.start >= start && t.kind !== 'space' && t.kind !== 'comment');
  const last = tokens[2 * parts - 2];
  const shape = tokens.slice(0, 2 * parts - 1).every((t, i) => (i % 2 === 0 ? t.kind === 'id' : t.text === '.'));
  if (tokens[0]?.start !== start || !last || !shape) throw new QueryRefused('unsupported_syntax', 'A table name could not be located in the statement');
  return [start, last.end];
}

/** SQLite as the guard reads and rewrites it. */
export const SQLITE_TEXT: TextDialect = {
  dialect: 'sqlite',
  canonical,
  checkText: sqliteCheckText,
  nameSpan,
  fence: ' LIMIT -1 OFFSET 0',
};
