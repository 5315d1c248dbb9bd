// The PostgreSQL migration runner, the twin of migrate.ts: the same ids and names from
// migrations/postgres/, recorded in the same schema_migrations table. Each migration runs in its own
// transaction under a transaction-scoped advisory lock, so replicas starting together apply each
// migration exactly once (the others wait, then find it recorded).
import { sql, type Kysely, type Transaction } from 'kysely';
import { listMigrations, type Migration } from './migrate.ts';
import { assertKnownSchema } from './schema-version.ts';

/** Key of the advisory lock that serializes migrators; any constant, but never changed between versions. */
const MIGRATION_LOCK = 0x5e7a_0001;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's untyped database
type AnyDb = Kysely<any>;

/** Locks, makes sure schema_migrations exists, and returns what it records; throws on a newer schema. */
async function lockAndRead(trx: Transaction<unknown>, migrations: Migration[]): Promise<Set<number>> {
  await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
  // Same format as SQLite's datetime('now'): 'YYYY-MM-DD HH:MM:SS' in UTC, as TEXT.
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    id BIGINT PRIMARY KEY, name TEXT NOT NULL,
    applied_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'))`.execute(trx);
  const { rows } = await sql<{ id: number; name: string }>`SELECT id, name FROM schema_migrations`.execute(trx);
  assertKnownSchema(rows, migrations);
  return new Set(rows.map((r) => Number(r.id)));
}

/**
 * Applies every migration not yet recorded, each in its own transaction; returns the ids this call
 * applied. Refuses (SchemaNewerThanCode) a database that records a migration this code does not know.
 */
export async function migratePostgres(db: AnyDb, migrations: Migration[] = listMigrations('postgres')): Promise<number[]> {
  const applied: number[] = [];
  for (;;) {
    const next = await db.transaction().execute(async (trx) => {
      const done = await lockAndRead(trx, migrations);
      const m = migrations.find((candidate) => !done.has(candidate.id));
      if (!m) return undefined;
      // No parameters: pg sends the file as one simple query, so it may hold many statements.
      await sql.raw(m.sql).execute(trx);
      await sql`INSERT INTO schema_migrations (id, name) VALUES (${m.id}, ${m.name})`.execute(trx);
      return m.id;
    });
    if (next === undefined) return applied;
    applied.push(next);
  }
}
