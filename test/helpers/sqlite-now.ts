// Synchronous fixtures on SQLite: one query of the executor's builder, run on the handle at once (its
// rows returned, its failure thrown), for helpers that many tests call without awaiting.
import { compile, type Query } from '../../src/store/executor.ts';
import { sqliteExecutor } from '../../src/store/sqlite-executor.ts';
import { statement, type Db } from '../../src/store/index.ts';

/** Runs `build(x)` (a query on an executor over `db`) now and returns its rows (RETURNING, SELECT). */
export function sqliteNow<O>(db: Db, build: (x: ReturnType<typeof sqliteExecutor>) => Query<O>): O[] {
  const x = sqliteExecutor(db);
  const c = compile(x.db, build(x));
  const st = statement(db, c.sql);
  const params = c.parameters as unknown[];
  if (st.reader) return st.all(...params) as O[];
  st.run(...params);
  return [];
}
