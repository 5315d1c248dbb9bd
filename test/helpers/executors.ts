// One test body on both dialects: `dialectTest(title, body)` declares "sqlite: title" and
// "postgres: title", each with a migrated database of its own behind an executor. The PostgreSQL one
// skips with a message when the server is absent (required under CI=true, as freshPgDatabase).
import test, { type ExecutionContext } from 'ava';
import { openStore, type Db } from '../../src/store/index.ts';
import type { Executor } from '../../src/store/executor.ts';
import { pgExecutor } from '../../src/store/pg-executor.ts';
import { sqliteExecutor } from '../../src/store/sqlite-executor.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE, type PgCollation } from './pg-database.ts';

export interface DialectCase {
  dialect: 'sqlite' | 'postgres';
  x: Executor;
  /** The SQLite handle (legacy synchronous code shares it); undefined on PostgreSQL. */
  sqlite: Db | undefined;
  /** A second executor on the same database (another replica, another pooled client). */
  other: Executor;
  /** The PostgreSQL database's URL (for a listener of its own); undefined on SQLite. */
  url?: string | undefined;
}

export interface DialectOptions {
  /** How the PostgreSQL database orders text (default: linguistic, as en_US servers do; see pg-database.ts). */
  pgCollation?: PgCollation;
  /** One test at a time in the file (each of a pair runs alone): for tests that open many connections at once. */
  serial?: boolean;
}

async function openCase(t: ExecutionContext, dialect: DialectCase['dialect'], options: DialectOptions): Promise<DialectCase | undefined> {
  if (dialect === 'sqlite') {
    const store = openStore({ file: ':memory:' });
    t.teardown(() => store.close());
    const x = sqliteExecutor(store.db);
    return { dialect, x, sqlite: store.db, other: x };
  }
  const url = await freshPgDatabase(t, { collation: options.pgCollation ?? 'linguistic', migrated: true });
  if (!url) return undefined;
  const pg = openTestPostgres(url);
  const pg2 = openTestPostgres(url);
  t.teardown(async () => {
    await pg.close();
    await pg2.close();
  });
  return { dialect, x: pgExecutor(pg.db), sqlite: undefined, other: pgExecutor(pg2.db), url };
}

export function dialectTest(title: string, body: (t: ExecutionContext, c: DialectCase) => Promise<void>, options: DialectOptions = {}): void {
  const declare = options.serial ? test.serial : test;
  for (const dialect of ['sqlite', 'postgres'] as const) {
    declare(`${dialect}: ${title}`, async (t) => {
      const c = await openCase(t, dialect, options);
      if (!c) return t.log(SKIP_PG_STORE), t.pass();
      await body(t, c);
    });
  }
}
