// What cannot be written once for both dialects: which one an executor speaks, and the order of text.
// SQLite compares text by its bytes (BINARY); PostgreSQL by the database's collation, which on a server
// initialised under en_US.UTF-8 (the official image, most hosted services) puts `apple` before
// `Banana` and weighs punctuation last. Where an order is part of an answer, both use the bytes'.
import { PostgresAdapter, sql, type Expression, type RawBuilder } from 'kysely';
import type { Executor } from './executor.ts';

/** True when the executor runs on PostgreSQL. */
export function onPostgres(x: Executor): boolean {
  return x.db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A text column (`name`, `t.name`) ordered and compared by its bytes, as SQLite does, on both dialects. */
export function byteOrder(x: Executor, column: string): RawBuilder<string> {
  return onPostgres(x) ? sql<string>`${sql.ref(column)} COLLATE "C"` : sql<string>`${sql.ref(column)}`;
}

/**
 * Text lower-cased in ASCII only and compared by its bytes, on both dialects: what SQLite's `lower()`,
 * `LIKE` and `COLLATE NOCASE` fold (and no more). PostgreSQL's `lower()` folds all of Unicode by the
 * database's locale, except under the "C" collation, where it too folds only A-Z.
 */
export function asciiLower(x: Executor, text: Expression<unknown>): RawBuilder<string> {
  return onPostgres(x) ? sql<string>`lower(CAST(${text} AS text) COLLATE "C")` : sql<string>`lower(${text})`;
}

/**
 * True where `text` contains `q` in any ASCII case (asciiLower's folding), on both dialects. LIKE's
 * wildcards in `q` are escaped, so a search for `a_b` finds only `a_b`.
 */
export function containsText(x: Executor, text: Expression<unknown>, q: string): RawBuilder<boolean> {
  const pattern = `%${q.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`${asciiLower(x, text)} LIKE ${pattern} ESCAPE '\\'`;
}
