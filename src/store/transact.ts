// Transactions without better-sqlite3's per-call wrappers. `db.transaction(fn)` builds four wrapper
// functions and defines five properties on each of them every time it is called; called per request
// (a session's checks, a run's start, a message), that was ~6% of the gateway's CPU over a burst of
// questions (perf: Object.defineProperties). This follows the same protocol with statements prepared
// once per database: BEGIN and COMMIT at the top, a savepoint when nested, rolled back on a throw.
import { statement } from './statement.ts';
import type { Db } from './db.ts';

// Who times the write transactions of a database (metrics), found by its handle: set once by the
// composition root, read once per outermost transaction.
const observers = new WeakMap<Db, (seconds: number) => void>();

/** Reports the duration of every outermost write transaction of `db` (BEGIN to COMMIT) to `observe`. */
export function observeTransactions(db: Db, observe: (seconds: number) => void): void {
  observers.set(db, observe);
}

/** Runs `fn` atomically and returns its result; nested, in a savepoint that a throw rolls back alone. */
export function transact<T>(db: Db, fn: () => T): T {
  const nested = db.inTransaction;
  const observe = nested ? undefined : observers.get(db);
  const started = observe ? performance.now() : 0;
  statement(db, nested ? 'SAVEPOINT sextant' : 'BEGIN').run();
  try {
    const result = fn();
    if (typeof (result as { then?: unknown } | undefined)?.then === 'function') throw new TypeError('A transaction cannot wait: its function must be synchronous');
    statement(db, nested ? 'RELEASE sextant' : 'COMMIT').run();
    observe?.((performance.now() - started) / 1000);
    return result;
  } catch (err) {
    // SQLite may already have rolled the transaction back (a full disk, for one): nothing is left to undo.
    if (db.inTransaction) {
      if (nested) {
        statement(db, 'ROLLBACK TO sextant').run();
        statement(db, 'RELEASE sextant').run();
      } else statement(db, 'ROLLBACK').run();
    }
    throw err;
  }
}
