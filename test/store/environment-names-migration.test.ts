// Migration 0109 (issue 35): environment names become unique per organization, ignoring ASCII case.
// Existing duplicates are renamed deterministically (the oldest keeps its name, later ones get " (2)",
// " (3)"... and their id when that too is taken); on SQLite and PostgreSQL alike.
import test from 'ava';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { listMigrations, migrate } from '../../src/store/migrate.ts';
import { migratePostgres } from '../../src/store/pg-migrate.ts';
import { openPostgres } from '../../src/store/pg-open.ts';
import { pgExecutor } from '../../src/store/pg-executor.ts';
import { freshPgDatabase, SKIP_PG_STORE } from '../helpers/pg-database.ts';

const before = (dialect: 'sqlite' | 'postgres') => listMigrations(dialect).filter((m) => m.id < 109);

const ORGS = "INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0), ('zeta', 'Zeta', 0)";
const row = (id: string, org: string, name: string, createdAt: number) => `('${id}', '${org}', '${name}', '${id}', '#000000', ${createdAt}, ${createdAt})`;
const ENVIRONMENTS = `INSERT INTO environments (id, org_id, name, slug, color, created_at, last_activity_at) VALUES ${[
  row('e1', 'acme', 'Dev', 10),
  row('e2', 'acme', 'dev', 20),
  row('e3', 'acme', 'DEV', 30),
  row('e4', 'acme', 'dev (2)', 5),
  row('e5', 'zeta', 'dev', 1),
  row('e6', 'acme', 'Fix', 40),
  row('e0', 'acme', 'fix', 40),
].join(', ')}`;

const EXPECTED = [
  ['e0', 'fix'],
  ['e1', 'Dev'],
  ['e2', 'dev (2) (e2)'],
  ['e3', 'DEV (3)'],
  ['e4', 'dev (2)'],
  ['e5', 'dev'],
  ['e6', 'Fix (2)'],
];

test('sqlite: duplicate names are renamed in creation order and a new duplicate is refused', (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  migrate(db, before('sqlite'));
  db.exec(ORGS);
  db.exec(ENVIRONMENTS);
  migrate(db);
  t.deepEqual(db.prepare('SELECT id, name FROM environments ORDER BY id').raw().all(), EXPECTED);
  t.throws(() => db.exec(`INSERT INTO environments (id, org_id, name, slug, color, created_at, last_activity_at) VALUES ${row('e9', 'acme', 'FIX', 50)}`), { any: true, code: 'SQLITE_CONSTRAINT_UNIQUE' });
});

test('postgres: duplicate names are renamed in creation order and a new duplicate is refused', async (t) => {
  const url = await freshPgDatabase(t);
  if (!url) return t.log(SKIP_PG_STORE), t.pass();
  const pg = openPostgres(url);
  t.teardown(() => pg.close());
  await migratePostgres(pg.db, before('postgres'));
  const x = pgExecutor(pg.db);
  await x.run(sql.raw(ORGS));
  await x.run(sql.raw(ENVIRONMENTS));
  await migratePostgres(pg.db);
  const rows = await x.all(sql<{ id: string; name: string }>`SELECT id, name FROM environments ORDER BY id COLLATE "C"`);
  t.deepEqual(rows.map((r) => [r.id, r.name]), EXPECTED);
  await t.throwsAsync(x.run(sql.raw(`INSERT INTO environments (id, org_id, name, slug, color, created_at, last_activity_at) VALUES ${row('e9', 'acme', 'FIX', 50)}`)), { message: /unique|duplicate/i });
});
