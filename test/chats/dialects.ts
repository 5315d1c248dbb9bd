// For the chats' dialect tests: both dialects side by side in one test (so their answers can be
// compared), and fixture chats written the same way on each.
import type { ExecutionContext } from 'ava';
import { sql } from 'kysely';
import type { Principal } from '../../src/auth/index.ts';
import type { Executor } from '../../src/store/executor.ts';
import { openStore } from '../../src/store/index.ts';
import { pgExecutor } from '../../src/store/pg-executor.ts';
import { sqliteExecutor } from '../../src/store/sqlite-executor.ts';
import { freshPgDatabase, openTestPostgres } from '../helpers/pg-database.ts';

/** A principal as the chats read it: organization and user. */
export const who = (orgId: string, userId: string) => ({ orgId, userId }) as Principal;

/** A migrated SQLite and PostgreSQL database, or undefined when PostgreSQL is absent (not under CI=true). */
export async function openBoth(t: ExecutionContext): Promise<[Executor, Executor] | undefined> {
  const url = await freshPgDatabase(t, { migrated: true });
  if (!url) return undefined;
  const store = openStore({ file: ':memory:' });
  const pg = openTestPostgres(url);
  t.teardown(async () => {
    store.close();
    await pg.close();
  });
  return [sqliteExecutor(store.db), pgExecutor(pg.db)];
}

/** Organizations acme and other, users u1 and u2. */
export async function seedAccounts(x: Executor): Promise<void> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0), ('other', 'Other', 0)`);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('u1', 'u1@example.com', 0), ('u2', 'u2@example.com', 0)`);
}

export interface FixtureChat {
  orgId: string;
  userId: string;
  chatId: string;
  messages?: string[];
  hidden?: number;
  displayed?: number;
  pinnedAt?: number | null;
  archivedAt?: number | null;
  labels?: string[];
}

/** Writes a chat, its messages (user and assistant in turn) and its labels. */
export async function insertChat(x: Executor, c: FixtureChat): Promise<void> {
  const { orgId, chatId } = c;
  await x.run(sql`INSERT INTO chats (org_id, chat_id, user_id, title, hidden, pinned_at, archived_at, created_at, updated_at)
    VALUES (${orgId}, ${chatId}, ${c.userId}, ${`Title ${chatId}`}, ${c.hidden ?? 0}, ${c.pinnedAt ?? null}, ${c.archivedAt ?? null}, 1, 2)`);
  const pk = sql`(SELECT id FROM chats WHERE org_id = ${orgId} AND chat_id = ${chatId})`;
  for (const [i, content] of (c.messages ?? []).entries()) {
    await x.run(sql`INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, displayed, created_at)
      VALUES (${pk}, ${`${chatId}-${i}`}, ${i % 2 ? 'assistant' : 'user'}, ${content}, ${i}, ${c.displayed ?? 1}, ${10 + i})`);
  }
  for (const label of c.labels ?? []) await x.run(sql`INSERT INTO chat_labels (chat_pk, label, created_at) VALUES (${pk}, ${label}, 3)`);
}
