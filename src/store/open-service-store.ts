// The service database as the gateway holds it, whichever the dialect: SQLite in the data folder by
// default, PostgreSQL when SEXTANT_DATABASE_URL is set. Both are migrated at open (a database migrated
// by a newer Sextant is refused: SchemaNewerThanCode), and both are reached by the domains through the
// same Executor.
import { join } from 'node:path';
import type { Db } from './db.ts';
import type { Executor } from './executor.ts';
import type { Dialect } from './migrate.ts';
import { openStore } from './open-store.ts';
import { sqliteExecutor } from './sqlite-executor.ts';
import { observeTransactions } from './transact.ts';

/** A start-up failure: the configured PostgreSQL does not answer (the message names it, password masked). */
export class DatabaseUnreachable extends Error {
  readonly code = 'DATABASE_UNREACHABLE';
  constructor(where: string, cause: unknown) {
    super(`The service database at ${where} does not answer (${cause instanceof Error ? cause.message : String(cause)}). Check SEXTANT_DATABASE_URL and that PostgreSQL runs.`);
    this.name = 'DatabaseUnreachable';
  }
}

export interface ServiceStore {
  dialect: Dialect;
  /** The store every domain runs on. */
  executor: Executor;
  /** False once close() began (background jobs stop reading). */
  readonly open: boolean;
  /**
   * A round trip to the database (health and readiness). SQLite answers synchronously (and throws when
   * it cannot), sparing /api/health a promise; PostgreSQL returns one that rejects when it does not answer.
   */
  ping(): void | Promise<void>;
  /** Reports the duration of every write transaction (a batch, and on SQLite a legacy transaction) to `observe`. */
  observeTransactions(observe: (seconds: number) => void): void;
  close(): Promise<void>;
  /** The SQLite handle, on SQLite only: what still writes synchronously shares it with the executor. */
  sqlite?: Db;
}

/** Opens the configured service database and applies its pending migrations. */
export async function openServiceStore(config: { dataDir: string; databaseUrl: string | undefined; databaseConnectTimeoutMs?: number }): Promise<ServiceStore> {
  return config.databaseUrl ? openPostgresStore(config.databaseUrl, config.databaseConnectTimeoutMs) : openSqliteStore(join(config.dataDir, 'sextant.db'));
}

function openSqliteStore(file: string): ServiceStore {
  const store = openStore({ file });
  return {
    dialect: 'sqlite',
    executor: sqliteExecutor(store.db),
    get open() {
      return store.db.open;
    },
    ping: () => store.ping(),
    observeTransactions: (observe) => observeTransactions(store.db, observe),
    close: async () => store.close(),
    sqlite: store.db,
  };
}

async function openPostgresStore(url: string, connectTimeoutMs: number | undefined): Promise<ServiceStore> {
  // Imported here: pg loads only in a gateway that serves from PostgreSQL.
  const [{ openPostgres, redactDatabaseUrl }, { migratePostgres }, { pgExecutor }] = await Promise.all([import('./pg-open.ts'), import('./pg-migrate.ts'), import('./pg-executor.ts')]);
  const pg = openPostgres(url, connectTimeoutMs === undefined ? {} : { connectTimeoutMs });
  try {
    await pg.ping().catch((err: unknown) => {
      throw new DatabaseUnreachable(redactDatabaseUrl(url), err);
    });
    // Replicas starting together migrate one after the other (an advisory lock per migration).
    await migratePostgres(pg.db);
  } catch (err) {
    await pg.close();
    throw err;
  }
  let observe: ((seconds: number) => void) | undefined;
  let open = true;
  return {
    dialect: 'postgres',
    executor: timedBatches(pgExecutor(pg.db), (seconds) => observe?.(seconds)),
    get open() {
      return open;
    },
    ping: () => pg.ping(),
    observeTransactions: (o) => void (observe = o),
    close: async () => {
      open = false;
      await pg.close();
    },
  };
}

/** The executor with each batch (one transaction) timed; the single statements are not transactions of their own to watch. */
function timedBatches(x: Executor, observe: (seconds: number) => void): Executor {
  return {
    ...x,
    batch: async (qs, options) => {
      const started = performance.now();
      const result = await x.batch(qs, options);
      observe((performance.now() - started) / 1000);
      return result;
    },
  };
}
