// Migration 0103 on SQLite and PostgreSQL: a database whose chat shares were addressed by the chat's
// own (client-chosen, guessable) chat_id comes out with a random id for each of them, so the old
// links answer 404; shares of one message keep their random id; one whole-chat share per chat.
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { appendMessage, listShares, loadSharedChat, shareChat } from '../../src/chats/index.ts';
import { FakeClock } from '../../src/clock.ts';
import type { Executor } from '../../src/store/executor.ts';
import { listMigrations, migrate } from '../../src/store/index.ts';
import { pgExecutor } from '../../src/store/pg-executor.ts';
import { migratePostgres } from '../../src/store/pg-migrate.ts';
import { sqliteExecutor } from '../../src/store/sqlite-executor.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { seedAccounts, who } from './dialects.ts';

const MIGRATION = 103;
const OWNER = who('acme', 'u1');
const before = (dialect: 'sqlite' | 'postgres') => listMigrations(dialect).filter((m) => m.id < MIGRATION);

interface Case {
  x: Executor;
  /** Applies the remaining migrations (0103 and later). */
  finish(): Promise<void>;
}

async function openCase(t: ExecutionContext, dialect: 'sqlite' | 'postgres'): Promise<Case | undefined> {
  if (dialect === 'sqlite') {
    const db = new Database(':memory:');
    t.teardown(() => db.close());
    db.pragma('foreign_keys = ON');
    migrate(db, before('sqlite'));
    return { x: sqliteExecutor(db), finish: async () => void migrate(db) };
  }
  const url = await freshPgDatabase(t);
  if (!url) return undefined;
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  await migratePostgres(pg.db, before('postgres'));
  return { x: pgExecutor(pg.db), finish: async () => void (await migratePostgres(pg.db)) };
}

/** Two chats shared as the code before 0103 did: 'q4-numbers' under its own chat_id, one message of 'other' under a random id. */
async function legacyShares(x: Executor) {
  await seedAccounts(x);
  const deps = { store: x, clock: new FakeClock(1_000) };
  await appendMessage(deps, OWNER, { chatId: 'q4-numbers', role: 'user', content: 'revenue in q4' });
  const msg = await appendMessage(deps, OWNER, { chatId: 'other', role: 'user', content: 'another question' });
  await x.run(sql`INSERT INTO chat_shares (share_id, chat_pk, message_uuid, created_by, created_at)
    SELECT chat_id, id, NULL, user_id, 5 FROM chats WHERE chat_id = 'q4-numbers'`);
  await x.run(sql`INSERT INTO chat_shares (share_id, chat_pk, message_uuid, created_by, created_at)
    SELECT 'Rnd0mMessageShareId_22c', chat_pk, message_uuid, 'u1', 6 FROM chat_messages WHERE message_uuid = ${msg.message_uuid}`);
  return deps;
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`${dialect}: existing chat shares get a new random id, the chat id stops working, and a message share keeps its id`, async (t) => {
    const c = await openCase(t, dialect);
    if (!c) return t.log(SKIP_PG_STORE), t.pass();
    const deps = await legacyShares(c.x);
    t.is((await loadSharedChat(deps, 'q4-numbers', {})).messages.length, 1, 'the guessable link worked before');
    await c.finish();
    await t.throwsAsync(loadSharedChat(deps, 'q4-numbers', {}), { code: 'SHARE_NOT_FOUND' });
    const [share] = await listShares(deps, OWNER, { chatId: 'q4-numbers' });
    t.regex(share!.chat_id, /^[0-9a-f]{64}$/, 'at least 128 random bits');
    t.is(share!.shared_at, 5);
    t.deepEqual((await loadSharedChat(deps, share!.chat_id, {})).messages.map((m) => m.content), ['revenue in q4']);
    t.deepEqual((await listShares(deps, OWNER, { chatId: 'other' })).map((s) => s.chat_id), ['Rnd0mMessageShareId_22c']);
    // Sharing again after the migration replaces the migrated link (one whole-chat share per chat).
    const again = await shareChat(deps, OWNER, { chatId: 'q4-numbers' });
    t.deepEqual((await listShares(deps, OWNER, { chatId: 'q4-numbers' })).map((s) => s.chat_id), [again.chat_id]);
    await t.throwsAsync(loadSharedChat(deps, share!.chat_id, {}), { code: 'SHARE_NOT_FOUND' });
  });
}
