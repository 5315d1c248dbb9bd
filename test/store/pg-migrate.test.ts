// The PostgreSQL migration runner on the local server: from empty, idempotent, serialized across
// pools, refusing a newer schema; and the search triggers its migrations create.
import test from 'ava';
import { sql } from 'kysely';
import { indexPendingMessages } from '../../src/chats/index.ts';
import { listMigrations, SchemaNewerThanCode } from '../../src/store/index.ts';
import { pgExecutor } from '../../src/store/pg-executor.ts';
import { migratePostgres } from '../../src/store/pg-migrate.ts';
import { openPostgres } from '../../src/store/pg-open.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';

const ALL = listMigrations('postgres').map((m) => m.id);

const recordedMigrations = async (db: ReturnType<typeof openPostgres>['db']) =>
  (await sql<{ id: number }>`SELECT id FROM schema_migrations ORDER BY id`.execute(db)).rows.map((r) => r.id);

async function database(t: Parameters<typeof freshPgDatabase>[0]) {
  const url = await freshPgDatabase(t);
  if (!url) return undefined;
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  return { url, pg };
}

test('migrating an empty database applies every migration in order and records them as SQLite does', async (t) => {
  const d = await database(t);
  if (!d) return t.log(SKIP_PG_STORE), t.pass();
  t.deepEqual(await migratePostgres(d.pg.db), ALL);
  t.deepEqual(await recordedMigrations(d.pg.db), ALL);
  const { rows } = await sql<{ name: string; applied_at: string }>`SELECT name, applied_at FROM schema_migrations WHERE id = 1`.execute(d.pg.db);
  t.is(rows[0]!.name, 'core');
  t.regex(rows[0]!.applied_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/, "datetime('now')'s format");
});

test('migrating twice is a no-op', async (t) => {
  const d = await database(t);
  if (!d) return t.log(SKIP_PG_STORE), t.pass();
  await migratePostgres(d.pg.db);
  t.deepEqual(await migratePostgres(d.pg.db), []);
  t.deepEqual(await recordedMigrations(d.pg.db), ALL);
});

test('two migrators on two pools apply each migration exactly once between them', async (t) => {
  const d = await database(t);
  if (!d) return t.log(SKIP_PG_STORE), t.pass();
  const other = openTestPostgres(d.url);
  t.teardown(() => other.close());
  const [a, b] = await Promise.all([migratePostgres(d.pg.db), migratePostgres(other.db)]);
  t.deepEqual([...a, ...b].sort((x, y) => x - y), ALL);
  t.deepEqual(await recordedMigrations(d.pg.db), ALL);
});

test('a database that records a migration this code does not know is refused, and nothing runs', async (t) => {
  const d = await database(t);
  if (!d) return t.log(SKIP_PG_STORE), t.pass();
  const known = listMigrations('postgres');
  await migratePostgres(d.pg.db, known.slice(0, 3));
  await sql`INSERT INTO schema_migrations (id, name) VALUES (9999, 'from_the_future')`.execute(d.pg.db);
  const err = await t.throwsAsync(migratePostgres(d.pg.db, known), { instanceOf: SchemaNewerThanCode });
  t.is(err!.code, 'SCHEMA_NEWER_THAN_CODE');
  t.regex(err!.message, /9999_from_the_future/);
  t.deepEqual(await recordedMigrations(d.pg.db), [...known.slice(0, 3).map((m) => m.id), 9999]);
});

test('a failing migration leaves nothing behind and is not recorded', async (t) => {
  const d = await database(t);
  if (!d) return t.log(SKIP_PG_STORE), t.pass();
  const broken = { id: 9002, name: 'broken', sql: 'CREATE TABLE half (x BIGINT); SELECT * FROM nowhere' };
  await t.throwsAsync(migratePostgres(d.pg.db, [...listMigrations('postgres'), broken]), { message: /nowhere/ });
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'half'`.execute(d.pg.db);
  t.is(rows[0]!.n, 0);
  t.deepEqual(await recordedMigrations(d.pg.db), ALL);
});

test('the search triggers queue displayed messages of visible chats, and edits queue them again to be re-indexed with the tsvector', async (t) => {
  const d = await database(t);
  if (!d) return t.log(SKIP_PG_STORE), t.pass();
  const db = d.pg.db;
  await migratePostgres(db);
  await sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'O', 1)`.execute(db);
  await sql`INSERT INTO users (id, email, created_at) VALUES ('u1', 'Ann@Example.com', 1)`.execute(db);
  await sql`INSERT INTO chats (org_id, chat_id, user_id, created_at, updated_at, hidden) VALUES ('o1', 'c1', 'u1', 1, 1, 0), ('o1', 'c2', 'u1', 1, 1, 1)`.execute(db);
  const msg = (chat: number, uuid: string, content: string, displayed = 1) =>
    sql`INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, displayed, created_at) VALUES (${chat}, ${uuid}, 'user', ${content}, 0, ${displayed}, 1)`.execute(db);
  await msg(1, 'a', 'Café revenue by région');
  await msg(1, 'b', 'kept for the agent only', 0);
  await msg(2, 'c', 'an evaluation chat');
  const pending = await sql<{ message_id: number }>`SELECT message_id FROM chat_messages_fts_pending ORDER BY 1`.execute(db);
  t.deepEqual(pending.rows, [{ message_id: 1 }], 'only the displayed message of the visible chat is queued');
  await indexPendingMessages(pgExecutor(db));
  await sql`UPDATE chat_messages SET content = 'Umsätze nach Region' WHERE id = 1`.execute(db);
  const requeued = await sql<{ message_id: number }>`SELECT message_id FROM chat_messages_fts_pending ORDER BY 1`.execute(db);
  t.deepEqual(requeued.rows, [{ message_id: 1 }], 'the edit took the old body off the index and queued the message again');
  t.is((await sql`SELECT 1 FROM chat_messages_fts`.execute(db)).rows.length, 0);
  await sql`UPDATE chat_messages SET content = 'kept for the agent only now' WHERE id = 2`.execute(db);
  t.is(await indexPendingMessages(pgExecutor(db)), 1, 'an edit of a message not shown queues nothing');
  const found = await sql<{ rowid: number; scope: string }>`SELECT rowid, scope FROM chat_messages_fts WHERE tsv @@ websearch_to_tsquery('sextant_fts', 'umsatze REGION')`.execute(db);
  // The scope token is SQLite's: 's' || hex('o1/u1'); the rowid the negated message id.
  t.deepEqual(found.rows, [{ rowid: -1, scope: 's6F312F7531' }]);
  t.is((await sql`SELECT 1 FROM chat_messages_fts_pending`.execute(db)).rows.length, 0, 'the indexer took the message off the queue');
  t.is((await sql`SELECT 1 FROM users WHERE email = 'ann@example.COM'`.execute(db)).rows.length, 1, 'emails compare without case, as COLLATE NOCASE');
});
