// What `npm start` refuses to serve, with a clear message and exit code 1: a PostgreSQL database URL
// (the service cannot serve from PostgreSQL yet), and a database migrated by a newer version.
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../../src/store/index.ts';
import { startGatewayProcess } from '../helpers/gateway-process.ts';

function dataDir(t: import('ava').ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-refusal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('with SEXTANT_DATABASE_URL set the server refuses to start and says what works instead, without the password', async (t) => {
  const env = { SEXTANT_DATA_DIR: dataDir(t), SEXTANT_SEED_DEMO: 'false', SEXTANT_DATABASE_URL: 'postgres://sextant:hunter2@127.0.0.1:5432/sextant' };
  const refused = await t.throwsAsync(startGatewayProcess(['--import=tsx', 'src/main.ts'], env));
  t.regex(refused!.message, /exited with 1/);
  t.regex(refused!.message, /serving from the PostgreSQL store is not yet supported/);
  t.regex(refused!.message, /sextant-admin migrate/);
  t.notRegex(refused!.message, /hunter2/);
});

test('a data folder whose database was migrated by a newer version is refused with the unknown migrations named', async (t) => {
  const dir = dataDir(t);
  mkdirSync(dir, { recursive: true });
  const db = new Database(join(dir, 'sextant.db'));
  migrate(db);
  db.prepare("INSERT INTO schema_migrations (id, name) VALUES (9999, 'from_the_future')").run();
  db.close();
  const refused = await t.throwsAsync(startGatewayProcess(['--import=tsx', 'src/main.ts'], { SEXTANT_DATA_DIR: dir, SEXTANT_SEED_DEMO: 'false' }));
  t.regex(refused!.message, /exited with 1/);
  t.regex(refused!.message, /migrated by a newer version of Sextant \(migrations this version does not know: 9999_from_the_future\)/);
});
