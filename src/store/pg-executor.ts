// The executor on PostgreSQL: queries compiled by the pool's Kysely, run on the pool; a batch in one
// transaction on one pooled client. Imported by path (pg loads only where PostgreSQL is used).
import type { Kysely } from 'kysely';
import { compile, RequiredStatementMissed, type BatchResult, type Executor, type Outcome, type Query, type WatchedTables } from './executor.ts';
import { mayWrite } from './pg-write-watch.ts';

async function execute(db: Kysely<unknown>, q: Query, via: { executeQuery: Kysely<unknown>['executeQuery'] } = db): Promise<Outcome> {
  const r = await via.executeQuery(compile(db, q));
  // INSERT, UPDATE and DELETE report the rows they changed, RETURNING or not; a SELECT, none.
  return { rows: r.rows, changes: r.numAffectedRows === undefined ? r.rows.length : Number(r.numAffectedRows) };
}

/**
 * PostgreSQL aborts one of two transactions that wait on each other (deadlock_detected), or that its
 * serializable checks cannot order (serialization_failure); nothing of the aborted one remains. Two
 * conditional UPDATEs racing over the same rows in a different order (a magic link and its code spent
 * at once) can meet that: the loser is run again and then sees the rows changed, as on SQLite, rather
 * than failing the request.
 */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

async function retrying<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw err;
    }
  }
}

export function pgExecutor(db: Kysely<any>): Executor { // eslint-disable-line @typescript-eslint/no-explicit-any -- as pg-open's
  const watchers: { tables: WatchedTables; changed: () => void }[] = [];
  // Told after the statement (or the batch's transaction) committed, never before: a reader told
  // earlier could read the old rows again and keep them.
  const wrote = (qs: Query[]) => {
    if (watchers.length === 0) return;
    const texts = qs.map((q) => compile(db, q).sql);
    for (const w of watchers) if (texts.some((text) => mayWrite(text, w.tables))) w.changed();
  };
  const single = async (q: Query) => {
    const outcome = await retrying(() => execute(db, q));
    wrote([q]);
    return outcome;
  };
  return {
    db,
    one: async <O>(q: Query<O>) => (await single(q)).rows[0] as O | undefined,
    all: async <O>(q: Query<O>) => (await single(q)).rows as O[],
    run: async (q) => ({ changes: (await single(q)).changes }),
    batch: async (qs, { require = [] } = {}): Promise<BatchResult> => {
      try {
        const results = await retrying(() => db.transaction().execute(async (trx) => {
          const done: Outcome[] = [];
          for (const [i, q] of qs.entries()) {
            const outcome = await execute(db, q, trx);
            if (outcome.changes === 0 && require.includes(i)) throw new RequiredStatementMissed(i);
            done.push(outcome);
          }
          return done;
        }));
        wrote(qs);
        return { ok: true, results };
      } catch (err) {
        if (err instanceof RequiredStatementMissed) return { ok: false, failed: err.index };
        throw err;
      }
    },
    watch: (tables, changed) => void watchers.push({ tables, changed }),
  };
}
