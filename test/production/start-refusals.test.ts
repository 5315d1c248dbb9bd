// What `npm start` refuses to serve, with a clear message and exit code 1: a PostgreSQL database that
// does not answer, and a database (SQLite or PostgreSQL) migrated by a newer version.
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrate } from '../../src/store/index.ts';
import { migratePostgres } from '../../src/store/pg-migrate.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';
import { nodeEntry } from '../helpers/node-entry.ts';

function dataDir(t: import('ava').ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-refusal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('with SEXTANT_DATABASE_URL on a PostgreSQL that does not answer the server refuses to start, naming the address without the password', async (t) => {
  // Port 9 (discard) on loopback: nothing listens there.
  const env = { SEXTANT_DATA_DIR: dataDir(t), SEXTANT_SEED_DEMO: 'false', SEXTANT_DATABASE_URL: 'postgres://sextant:hunter2@127.0.0.1:9/sextant' };
  const refused = await t.throwsAsync(startGatewayProcess(nodeEntry('src/main.ts'), env));
  t.regex(refused!.message, /exited with 1/);
  t.regex(refused!.message, /DATABASE_UNREACHABLE/);
  t.regex(refused!.message, /The service database at postgres:\/\/sextant:\*\*\*@127\.0\.0\.1:9\/sextant does not answer/);
  t.notRegex(refused!.message, /hunter2/);
});

test('a PostgreSQL database migrated by a newer version is refused with the unknown migrations named', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const pg = openTestPostgres(url);
  await migratePostgres(pg.db);
  await sql`INSERT INTO schema_migrations (id, name) VALUES (9999, 'from_the_future')`.execute(pg.db);
  await pg.close();
  const refused = await t.throwsAsync(startGatewayProcess(nodeEntry('src/main.ts'), { SEXTANT_DATA_DIR: dataDir(t), SEXTANT_SEED_DEMO: 'false', SEXTANT_DATABASE_URL: url }));
  t.regex(refused!.message, /exited with 1/);
  t.regex(refused!.message, /migrated by a newer version of Sextant \(migrations this version does not know: 9999_from_the_future\)/);
});

test('a data folder whose database was migrated by a newer version is refused with the unknown migrations named', async (t) => {
  const dir = dataDir(t);
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, 'sextant.db'));
  migrate(db);
  db.prepare("INSERT INTO schema_migrations (id, name) VALUES (9999, 'from_the_future')").run();
  db.close();
  const refused = await t.throwsAsync(startGatewayProcess(nodeEntry('src/main.ts'), { SEXTANT_DATA_DIR: dir, SEXTANT_SEED_DEMO: 'false' }));
  t.regex(refused!.message, /exited with 1/);
  t.regex(refused!.message, /migrated by a newer version of Sextant \(migrations this version does not know: 9999_from_the_future\)/);
});
