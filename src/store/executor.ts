// The asynchronous store: one interface over SQLite and PostgreSQL, on which the domains' store code
// is written once. Queries are Kysely queries (the builder on `x.db`, or the `sql` tag), compiled by
// the executor's dialect: on SQLite they run on the service's better-sqlite3 handle through the cached
// prepared statements, synchronously (the promises come back already settled, so the hot paths keep
// their speed); on PostgreSQL, on the pool.
//
// There are no interactive transactions, only batches. While the rest of the service still writes
// SQLite synchronously on the same connection, a transaction held open across `await`s would let
// another request's writes land inside it (and vanish with its rollback). A batch is a list of
// statements known in advance: on SQLite it runs synchronously inside `transact` (so it nests in a
// legacy transaction as a savepoint), on PostgreSQL in one transaction on one pooled client. A
// read-modify-write becomes conditional SQL (`UPDATE ... WHERE status = 'running'`, `RETURNING`,
// `INSERT ... ON CONFLICT`) whose row count says who won, which also keeps replicas correct; a
// statement the batch `require`s that changes no row rolls the whole batch back.
import type { Compilable, CompiledQuery, Kysely, RawBuilder } from 'kysely';

/** A query of `x.db`'s builder, or a `sql` template. */
export type Query<O = unknown> = Compilable<O> | RawBuilder<O>;

/** What one statement of a batch did: its rows (a SELECT, or RETURNING) and the rows it changed. */
export interface Outcome<O = unknown> {
  rows: O[];
  /** Rows changed; for a statement that returns rows (SELECT, RETURNING), the rows it returned. */
  changes: number;
}

export type BatchResult = { ok: true; results: Outcome[] } | { ok: false; failed: number };

export interface Executor<DB = any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- untyped unless a domain names its tables
  /** The query builder of this executor's dialect: build on it, execute with the methods below. */
  readonly db: Kysely<DB>;
  /** The first row, or undefined. */
  one<O>(q: Query<O>): Promise<O | undefined>;
  all<O>(q: Query<O>): Promise<O[]>;
  run(q: Query): Promise<{ changes: number }>;
  /**
   * Every statement in one transaction, in order. A statement whose index is in `require` and that
   * changes no row (returns none, for a SELECT) rolls everything back: `{ ok: false, failed }` names
   * the first. An error rolls back too and rejects.
   */
  batch(qs: Query[], options?: { require?: number[] }): Promise<BatchResult>;
  /**
   * Calls `changed` after each committed write of this process that may have changed a row of the
   * watched tables (conservatively: also for some that changed nothing). On SQLite that is every
   * write through the shared handle (temporary triggers); on PostgreSQL every write through this
   * executor. Other processes' writes are not seen here (see pg-listen.ts).
   */
  watch(tables: WatchedTables, changed: () => void): void;
}

/** Tables to watch: every INSERT, UPDATE and DELETE, or only some, an UPDATE only of some columns. */
export type WatchedTables = Record<string, { insert?: boolean; update: true | readonly string[]; delete: boolean }>;

/** Compiles a query with the dialect of `db` (a `sql` template needs it named; a builder knows its own). */
export function compile(db: Kysely<unknown>, q: Query): CompiledQuery {
  return 'isRawBuilder' in q ? q.compile(db) : q.compile();
}

/** Thrown inside a batch's transaction to roll it back when a required statement changed nothing. */
export class RequiredStatementMissed extends Error {
  constructor(readonly index: number) {
    super(`statement ${index} of the batch changed no row`);
  }
}
