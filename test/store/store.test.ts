import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { listMigrations, migrate, openStore, SchemaNewerThanCode } from '../../src/store/index.ts';

const file = () => join(mkdtempSync(join(tmpdir(), 'sextant-store-')), 'db', 'test.db');

test('opening a store creates the file with WAL, foreign keys on, temporary data in memory and all migrations applied', (t) => {
  const store = openStore({ file: file() });
  t.teardown(() => store.close());
  t.is(store.db.pragma('journal_mode', { simple: true }), 'wal');
  t.is(store.db.pragma('foreign_keys', { simple: true }), 1);
  // Savepoint journals stay in memory (2 = MEMORY): spilled to a file they cost a write per page.
  t.is(store.db.pragma('temp_store', { simple: true }), 2);
  const applied = store.db.prepare('SELECT id FROM schema_migrations ORDER BY id').pluck().all();
  t.true(applied.includes(1));
});

test('migrations are applied once: a second run is a no-op', (t) => {
  const f = file();
  openStore({ file: f }).close();
  const store = openStore({ file: f });
  t.teardown(() => store.close());
  t.deepEqual(migrate(store.db), []);
});

test('a later migration applies on top of an existing database, and a failing one leaves nothing behind', (t) => {
  const store = openStore({ file: file() });
  t.teardown(() => store.close());
  // The list names every known migration: one recorded but absent would be a newer schema (refused).
  const extra = { id: 9001, name: 'extra', sql: 'CREATE TABLE extra (x INTEGER)' };
  t.deepEqual(migrate(store.db, [...listMigrations(), extra]), [9001]);
  const broken = { id: 9002, name: 'broken', sql: 'CREATE TABLE half (x INTEGER); SELECT * FROM nowhere' };
  t.throws(() => migrate(store.db, [...listMigrations(), extra, broken]), { any: true, message: /nowhere/ });
  t.falsy(store.db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get());
  t.falsy(store.db.prepare('SELECT id FROM schema_migrations WHERE id = 9002').get());
});

test('the transaction helper rolls back on error', (t) => {
  const store = openStore({ file: file() });
  t.teardown(() => store.close());
  store.db.exec('CREATE TABLE t (x INTEGER)');
  t.throws(() =>
    store.tx(() => {
      store.db.prepare('INSERT INTO t VALUES (1)').run();
      throw new Error('boom');
    }),
  );
  t.is(store.db.prepare('SELECT count(*) FROM t').pluck().get(), 0);
});

test('foreign keys are enforced', (t) => {
  const store = openStore({ file: file() });
  t.teardown(() => store.close());
  t.throws(() => store.db.prepare("INSERT INTO memberships (user_id, org_id, role, created_at) VALUES ('nobody', 'nowhere', 'user', 0)").run(), {
    any: true,
    code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  });
});

test('ping answers while the database is open and throws once it is closed', (t) => {
  const store = openStore({ file: file() });
  t.notThrows(() => store.ping());
  store.close();
  t.throws(() => store.ping());
});

test('a database that records a migration this code does not know is refused with a typed error, and nothing is applied', (t) => {
  const f = file();
  openStore({ file: f }).close();
  const db = new Database(f);
  db.prepare("INSERT INTO schema_migrations (id, name) VALUES (9999, 'from_the_future')").run();
  const err = t.throws(() => openStore({ file: f }), { instanceOf: SchemaNewerThanCode });
  t.is(err!.code, 'SCHEMA_NEWER_THAN_CODE');
  t.regex(err!.message, /9999_from_the_future/);
  const extra = { id: 9001, name: 'extra', sql: 'CREATE TABLE extra (x INTEGER)' };
  t.throws(() => migrate(db, [...listMigrations(), extra]), { instanceOf: SchemaNewerThanCode });
  t.falsy(db.prepare("SELECT name FROM sqlite_master WHERE name = 'extra'").get());
  db.close();
});
