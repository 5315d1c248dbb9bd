// Prepared statements cached per database. Preparing costs more than running a short statement, and
// the hot paths (credentials on every request, agent events, chat messages) run the same SQL over and
// over. Only for statements used with run/get/all: a cached statement is shared, so it must not be
// switched to pluck/raw/expand mode or iterated (an iterating statement is busy until it ends).
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.ts';

const cache = new WeakMap<Db, Map<string, Statement<unknown[]>>>();

/** The prepared statement for `sql` on `db`, prepared on first use. */
export function statement(db: Db, sql: string): Statement<unknown[]> {
  let byDb = cache.get(db);
  if (!byDb) cache.set(db, (byDb = new Map()));
  let st = byDb.get(sql);
  if (!st) byDb.set(sql, (st = db.prepare(sql)));
  return st;
}
