import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { transact } from './transact.ts';

// Resolved through the repository's src so that the compiled build (dist/store) reads the same files.
const migrationsDir = new URL('../../src/store/migrations/', import.meta.url);

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
export function listMigrations(): Migration[] {
  return readdirSync(migrationsDir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .map((f) => ({ id: Number(f.slice(0, 4)), name: f.slice(5, -4), sql: readFileSync(new URL(f, migrationsDir), 'utf8') }))
    .sort((a, b) => a.id - b.id);
}

/** Applies every migration not yet recorded, each in its own transaction. */
export function migrate(db: Database.Database, migrations: Migration[] = listMigrations()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))`);
  const done = new Set(db.prepare('SELECT id FROM schema_migrations').pluck().all() as number[]);
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
