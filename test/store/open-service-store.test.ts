// The service store handle on either dialect: migrated at open, one executor, an asynchronous ping,
// write transactions timed for the metrics, closed once; on PostgreSQL two replicas opening one empty
// database together both start, and a newer schema is refused.
import test, { type ExecutionContext } from 'ava';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listMigrations, openServiceStore, SchemaNewerThanCode, type ServiceStore } from '../../src/store/index.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';

type Dialect = ServiceStore['dialect'];

/** The configuration of a fresh database of `dialect`, or undefined when PostgreSQL is absent. */
async function freshConfig(t: ExecutionContext, dialect: Dialect): Promise<{ dataDir: string; databaseUrl: string | undefined } | undefined> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-service-store-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  if (dialect === 'sqlite') return { dataDir, databaseUrl: undefined };
  const databaseUrl = await freshPgDatabase(t);
  return databaseUrl ? { dataDir, databaseUrl } : undefined;
}

function bothDialects(title: string, body: (t: ExecutionContext, config: { dataDir: string; databaseUrl: string | undefined }, dialect: Dialect) => Promise<void>) {
  for (const dialect of ['sqlite', 'postgres'] as const) {
    test(`${dialect}: ${title}`, async (t) => {
      const config = await freshConfig(t, dialect);
      if (!config) return t.log(SKIP_PG_STORE), t.pass();
      await body(t, config, dialect);
    });
  }
}

const recorded = async (s: ServiceStore) => (await s.executor.all<{ id: number }>(sql`SELECT id FROM schema_migrations ORDER BY id`)).map((r) => Number(r.id));

bothDialects('opening migrates the database and serves it through the executor', async (t, config, dialect) => {
  const store = await openServiceStore(config);
  t.teardown(() => store.close());
  t.is(store.dialect, dialect);
  t.is(store.sqlite === undefined, dialect === 'postgres', 'the SQLite handle exists on SQLite only');
  t.deepEqual(await recorded(store), listMigrations(dialect).map((m) => m.id));
  await store.executor.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'One', 1)`);
  t.like(await store.executor.one(sql`SELECT name, created_at FROM organizations WHERE id = 'o1'`), { name: 'One', created_at: 1 });
});

bothDialects('ping answers while open; after close it fails and the handle says it is closed', async (t, config) => {
  const store = await openServiceStore(config);
  t.true(store.open);
  // SQLite answers (or throws) synchronously, PostgreSQL through a promise: both fail the same way here.
  await t.notThrowsAsync(async () => store.ping());
  await store.close();
  t.false(store.open);
  await t.throwsAsync(async () => store.ping());
});

bothDialects('every batch is reported to the transaction observer, and a single statement is not', async (t, config) => {
  const store = await openServiceStore(config);
  t.teardown(() => store.close());
  const seen: number[] = [];
  store.observeTransactions((seconds) => seen.push(seconds));
  await store.executor.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'One', 1)`);
  t.is(seen.length, 0);
  const done = await store.executor.batch([sql`INSERT INTO organizations (id, name, created_at) VALUES ('o2', 'Two', 1)`, sql`UPDATE organizations SET name = 'Uno' WHERE id = 'o1'`]);
  t.true(done.ok);
  t.is(seen.length, 1);
  t.true(seen[0]! >= 0 && seen[0]! < 5, `${seen[0]} s`);
});

bothDialects('a database migrated by a newer version is refused at open', async (t, config) => {
  const first = await openServiceStore(config);
  await first.executor.run(sql`INSERT INTO schema_migrations (id, name) VALUES (9999, 'from_the_future')`);
  await first.close();
  const err = await t.throwsAsync(openServiceStore(config), { instanceOf: SchemaNewerThanCode });
  t.regex(err!.message, /9999_from_the_future/);
});

test('postgres: two replicas opening one empty database at once both start, and each migration is applied once', async (t) => {
  const config = await freshConfig(t, 'postgres');
  if (!config) return t.log(SKIP_PG_STORE), t.pass();
  const [a, b] = await Promise.all([openServiceStore(config), openServiceStore(config)]);
  t.teardown(async () => {
    await a.close();
    await b.close();
  });
  const ids = listMigrations('postgres').map((m) => m.id);
  t.deepEqual(await recorded(a), ids);
  t.deepEqual(await recorded(b), ids);
});

test('postgres: an unreachable database fails the open with the address, never the password', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-service-store-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
  const err = await t.throwsAsync(openServiceStore({ dataDir, databaseUrl: 'postgres://sextant:hunter2@127.0.0.1:9/sextant' }));
  t.is((err as { code?: string }).code, 'DATABASE_UNREACHABLE');
  t.regex(err!.message, /127\.0\.0\.1:9/);
  t.notRegex(err!.message, /hunter2/);
});

test('postgres: closing the store ends its pool (no connection left on the server)', async (t) => {
  const config = await freshConfig(t, 'postgres');
  if (!config) return t.log(SKIP_PG_STORE), t.pass();
  const store = await openServiceStore(config);
  await store.ping();
  await store.close();
  const name = new URL(config.databaseUrl!).pathname.slice(1);
  const admin = openTestPostgres(config.databaseUrl!.replace(/\/[^/]+$/, '/postgres'));
  t.teardown(() => admin.close());
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${name}`.execute(admin.db);
  t.is(rows[0]!.n, 0);
});
