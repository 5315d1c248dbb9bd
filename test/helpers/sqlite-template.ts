// A migrated service database for test apps, copied instead of migrated: applying the ~120 migrations
// to a new SQLite file took ~40 ms of CPU and 0.3 to 0.8 s of wall time on a busy disk (one commit per
// migration), at every start of a test app, and a copy of the result takes a few milliseconds. One
// template per set of migrations (a hash of them in its name, as pg-database.ts names PostgreSQL's),
// shared by the test processes: each builds it under a name of its own and renames it into place, so
// no process copies half a file, and two building at once write the same content.
import Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listMigrations, migrate } from '../../src/store/migrate.ts';

let template: string | undefined;

/** The template's path, built when absent. */
function migratedTemplate(): string {
  if (template && existsSync(template)) return template;
  const migrations = listMigrations('sqlite');
  const hash = createHash('sha256');
  for (const m of migrations) hash.update(`${m.id}\0${m.name}\0${m.sql}\0`);
  const path = join(tmpdir(), `sextant-test-sqlite-${hash.digest('hex').slice(0, 16)}.db`);
  if (!existsSync(path)) {
    const building = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    const db = new Database(building);
    try {
      migrate(db, migrations);
    } finally {
      db.close();
    }
    renameSync(building, path);
  }
  template = path;
  return path;
}

/** Puts a migrated service database at `file` (the service's store then finds nothing to apply). */
export function copyMigratedDatabase(file: string): void {
  copyFileSync(migratedTemplate(), file);
}
