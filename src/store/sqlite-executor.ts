// The executor on the service's SQLite handle: Kysely compiles (synchronously, no connection: a
// dummy driver), better-sqlite3 runs through the cached prepared statements, inside `transact` for a
// batch. Every method has done its work when it returns; the promise only carries the result.
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type CompiledQuery } from 'kysely';
import type { Db } from './db.ts';
import { compile, RequiredStatementMissed, type BatchResult, type Executor, type Outcome, type Query } from './executor.ts';
import { watchSqliteTables } from './sqlite-watch.ts';
import { statement } from './statement.ts';
import { transact } from './transact.ts';

/** A query builder that compiles SQLite and executes nothing (the executor does). */
export function sqliteBuilder(): Kysely<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- untyped: the domains type their tables
  return new Kysely({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new SqliteIntrospector(k),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}

function execute(db: Db, c: CompiledQuery): Outcome {
  const st = statement(db, c.sql);
  const params = c.parameters as unknown[];
  if (st.reader) {
    const rows = st.all(...params);
    return { rows, changes: rows.length };
  }
  return { rows: [], changes: st.run(...params).changes };
}

export function sqliteExecutor(db: Db): Executor {
  const builder = sqliteBuilder();
  const exec = (q: Query) => execute(db, compile(builder, q));
  return {
    db: builder,
    one: async <O>(q: Query<O>) => {
      const c = compile(builder, q);
      return statement(db, c.sql).get(...(c.parameters as unknown[])) as O | undefined;
    },
    all: async <O>(q: Query<O>) => exec(q).rows as O[],
    run: async (q) => ({ changes: exec(q).changes }),
    batch: async (qs, { require = [] } = {}): Promise<BatchResult> => {
      const compiled = qs.map((q) => compile(builder, q));
      try {
        return {
          ok: true,
          results: transact(db, () =>
            compiled.map((c, i) => {
              const outcome = execute(db, c);
              if (outcome.changes === 0 && require.includes(i)) throw new RequiredStatementMissed(i);
              return outcome;
            }),
          ),
        };
      } catch (err) {
        if (err instanceof RequiredStatementMissed) return { ok: false, failed: err.index };
        throw err;
      }
    },
    watch: (tables, changed) => watchSqliteTables(db, tables, changed),
  };
}
