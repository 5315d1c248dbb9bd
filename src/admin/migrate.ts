// `sextant-admin migrate`: the migrations a server applies at start, run on their own (before a
// deployment's new replicas start, or to create a PostgreSQL schema).
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { lockDataDir } from '../store/data-dir-lock.ts';
import { migrate } from '../store/index.ts';
import { migratePostgres } from '../store/pg-migrate.ts';
import { openPostgres, redactDatabaseUrl } from '../store/pg-open.ts';
import type { AdminOutput } from './output.ts';

const ids = (applied: number[]) => (applied.length === 0 ? 'none (the schema is current)' : applied.map((id) => String(id).padStart(4, '0')).join(', '));

export async function migrateCommand(config: Config, o: { databaseUrl?: string }, output: AdminOutput): Promise<number> {
  const url = o.databaseUrl ?? config.databaseUrl;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error('--database-url must be a postgres:// or postgresql:// URL');
    const pg = openPostgres(url, { max: 1 });
    try {
      output.out(`PostgreSQL ${redactDatabaseUrl(url)}: applied ${ids(await migratePostgres(pg.db))}`);
    } finally {
      await pg.close();
    }
    return 0;
  }
  // A running server holds the folder (and already migrated it at start).
  const lock = lockDataDir(config.dataDir);
  try {
    mkdirSync(config.dataDir, { recursive: true });
    const file = join(config.dataDir, 'sextant.db');
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      output.out(`SQLite ${file}: applied ${ids(migrate(db))}`);
    } finally {
      db.close();
    }
  } finally {
    lock.release();
  }
  return 0;
}
