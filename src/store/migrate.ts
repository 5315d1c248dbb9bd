import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { assertKnownSchema } from './schema-version.ts';
import { transact } from './transact.ts';

// Resolved through the repository's src so that the compiled build (dist/store) reads the same files.
// PostgreSQL's twins (same ids and names) live in the subfolder `postgres/`.
const migrationsDirs = {
  sqlite: new URL('../../src/store/migrations/', import.meta.url),
  postgres: new URL('../../src/store/migrations/postgres/', import.meta.url),
};

export type Dialect = keyof typeof migrationsDirs;

/** A numbered, forward-only schema change: `migrations/NNNN_name.sql`. */
export interface Migration {
  id: number;
  name: string;
  sql: string;
}

/**
 * Lists the migration files in order. Number ranges are reserved per domain so parallel work never
 * collides: 0001-0009 core, 0010 accounts, 0020 tokens, 0030 knowledge, 0040 data, 0050 chats,
 * 0060 agent, 0070 MCP, 0090 evaluations.
 */
export function listMigrations(dialect: Dialect = 'sqlite'): Migration[] {
  const migrationsDir = migrationsDirs[dialect];
  return readdirSync(migrationsDir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .map((f) => ({ id: Number(f.slice(0, 4)), name: f.slice(5, -4), sql: readFileSync(new URL(f, migrationsDir), 'utf8') }))
    .sort((a, b) => a.id - b.id);
}

/**
 * Applies every migration not yet recorded, each in its own transaction. Refuses (SchemaNewerThanCode)
 * a database that records a migration this code does not know.
 */
export function migrate(db: Database.Database, migrations: Migration[] = listMigrations()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))`);
  const recorded = db.prepare('SELECT id, name FROM schema_migrations').all() as { id: number; name: string }[];
  assertKnownSchema(recorded, migrations);
  const done = new Set(recorded.map((m) => m.id));
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.id)) continue;
    transact(db, () => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (id, name) VALUES (?, ?)').run(m.id, m.name);
    });
    applied.push(m.id);
  }
  return applied;
}
