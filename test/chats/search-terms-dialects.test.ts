// Search as you type through the indexed words (migration 0119, search-terms.ts) on SQLite and
// PostgreSQL: the last word's completions find exactly the messages its prefix query finds, for the
// caller only; words the index learns from new and edited messages, and from before the migration.
import test, { type ExecutionContext } from 'ava';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { indexPendingMessages, indexQueueInSlices, searchChats } from '../../src/chats/index.ts';
import { queryWords } from '../../src/chats/search-chats.ts';
import { findCandidates } from '../../src/chats/search-matches.ts';
import { completions } from '../../src/chats/search-terms.ts';
import type { Executor } from '../../src/store/executor.ts';
import { listMigrations, migrate, onPostgres } from '../../src/store/index.ts';
import { pgExecutor } from '../../src/store/pg-executor.ts';
import { migratePostgres } from '../../src/store/pg-migrate.ts';
import { sqliteExecutor } from '../../src/store/sqlite-executor.ts';
import { dialectTest } from '../helpers/executors.ts';
import { freshPgDatabase, openTestPostgres, SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { insertChat, seedAccounts, who } from './dialects.ts';

const OWNER = who('acme', 'u1');

async function seed(x: Executor): Promise<void> {
  await seedAccounts(x);
  await insertChat(x, { orgId: 'acme', userId: 'u1', chatId: 'rev', messages: ['Revenue by region', 'Revenues were revised; see the review.'] });
  await insertChat(x, { orgId: 'acme', userId: 'u1', chatId: 'words', messages: ['or and not near NEAR OR', 'orders ordered andante notable'] });
  await insertChat(x, { orgId: 'acme', userId: 'u1', chatId: 'mixed', messages: ['Résumé2 b2b 3.14 x_y', 'revenue42 REV'] });
  await insertChat(x, { orgId: 'acme', userId: 'u2', chatId: 'theirs', messages: ['secretive revelations of a colleague'] });
  await insertChat(x, { orgId: 'other', userId: 'u1', chatId: 'elsewhere', messages: ['secrets revealed in another organization'] });
  await indexPendingMessages(x);
}

const chats = async (x: Executor, q: string, principal = OWNER) => (await searchChats({ store: x }, principal, { q, limit: 30 })).results.map((r) => r.chat_id);

/** The candidates of the last word as a prefix: through its completions, and through the prefix query. */
async function bothWays(x: Executor, q: string) {
  const words = q.split(' ');
  const terms = await completions(x, words);
  return {
    terms,
    completed: terms && (await findCandidates(x, OWNER, words, true, terms)).map((c) => c.id),
    prefixed: (await findCandidates(x, OWNER, words, true)).map((c) => c.id),
  };
}

dialectTest('the completions of a prefix find the same messages as the prefix query', async (t, { x }) => {
  await seed(x);
  for (const q of ['r', 're', 'rev', 'REV', 'revi', 'revenue', 'revenues', 'revenue4', 'o', 'OR', 'an', 'NEA', 'not', 'b', 'b2', '3', 'x', 'resume', 'by re', 'region rev', 'zzz', 'secr']) {
    const { terms, completed, prefixed } = await bothWays(x, q);
    t.truthy(terms, `${q}: a plain word with few completions takes them`);
    t.deepEqual(completed, prefixed, q);
  }
  t.deepEqual(await completions(x, ['rev']), ['rev', 'revealed', 'revelations', 'revenue', 'revenue42', 'revenues', 'review', 'revised'], 'words as the tokenizer folds them, others\' too');
});

dialectTest('the search as you type finds the caller\'s chats only, whatever words others wrote', async (t, { x }) => {
  await seed(x);
  t.deepEqual(await chats(x, 'secr'), [], 'completions written by others match none of the caller\'s messages');
  t.deepEqual(await chats(x, 'secr', who('acme', 'u2')), ['theirs']);
  t.deepEqual(await chats(x, 'secr', who('other', 'u1')), ['elsewhere']);
  t.deepEqual((await chats(x, 'revi')).sort(), ['rev'], 'revised and review, not the colleague\'s revelations');
  t.deepEqual((await chats(x, 'rev')).sort(), ['mixed', 'rev']);
  t.deepEqual(await chats(x, 'by rev'), ['rev']);
});

dialectTest('search syntax and quotes in a typed prefix are searched as text', async (t, { x }) => {
  await seed(x);
  for (const q of ['"rev', 'rev"', 'rev*', 'NEAR(rev', 'near OR', 'body:rev', 'scope:rev', 'x_', '3.1', 'résu', "O'R", '-rev', '^rev', '"', '(']) {
    const words = queryWords(q);
    if (words.length === 0) continue;
    const terms = await completions(x, words);
    t.is(terms === undefined, !/^[A-Za-z0-9]+$/.test(words[words.length - 1]!), `${q}: completions for one plain word only`);
    if (terms) t.deepEqual((await findCandidates(x, OWNER, words, true, terms)).map((c) => c.id), (await findCandidates(x, OWNER, words, true)).map((c) => c.id), q);
    t.deepEqual((await chats(x, q)).filter((id) => !['rev', 'words', 'mixed'].includes(id)), [], `${q}: the caller's chats only`);
  }
  t.deepEqual(await chats(x, '"rev'), await chats(x, 'rev'), 'a quote is dropped');
  t.deepEqual(await chats(x, 'résu'), ['mixed']);
  t.deepEqual(await chats(x, 'near OR'), ['words'], 'OR and NEAR as words');
});

dialectTest('a prefix of more completions than are worth an OR runs as a prefix query, with the same results', async (t, { x }) => {
  await seedAccounts(x);
  const words = (animal: string, n: number) => Array.from({ length: n }, (_, i) => `${animal}${i}`).join(' ');
  await insertChat(x, { orgId: 'acme', userId: 'u1', chatId: 'many', messages: [words('wombat', 80), 'wombat growth', words('numbat', 30)] });
  await indexPendingMessages(x);
  t.is(await completions(x, ['wom']), undefined);
  t.deepEqual(await chats(x, 'wom'), ['many']);
  t.is((await completions(x, ['numb']))?.length, 30);
  t.is(await completions(x, ['growth', 'numb']), undefined, 'fewer completions are worth it beside other words');
  t.deepEqual(await chats(x, 'growth wom'), ['many']);
});

dialectTest('words of new and edited messages are learnt as they are indexed', async (t, { x }) => {
  await seed(x);
  await insertChat(x, { orgId: 'acme', userId: 'u1', chatId: 'late', messages: ['platypus sightings'] });
  t.deepEqual(await chats(x, 'platy'), ['late'], 'a search indexes the queue first');
  await indexQueueInSlices(x);
  await x.run(sql`UPDATE chat_messages SET content = 'echidna sightings' WHERE message_uuid = 'late-0'`);
  t.deepEqual(await chats(x, 'echid'), ['late']);
  t.deepEqual(await chats(x, 'platy'), [], 'a word no message holds any more completes to nothing found');
  await indexQueueInSlices(x);
  t.deepEqual(await completions(x, ['platy']), ['platypus']);
  t.is(await indexPendingMessages(x), 0, 'nothing is indexed twice');
  await x.run(sql`UPDATE chat_messages SET displayed = 0 WHERE message_uuid = 'late-0'`);
  t.deepEqual(await chats(x, 'echid'), [], 'a message no longer shown is not queued again');
});

dialectTest('a search indexes the messages still queued without their words, which the drain learns; typing finds them meanwhile', async (t, { x }) => {
  await seed(x);
  await insertChat(x, { orgId: 'acme', userId: 'u1', chatId: 'late', messages: ['platypus sightings', 'dropped words'] });
  t.deepEqual(await chats(x, 'sightings'), ['late'], 'a search indexes the queue first');
  const unlearnt = async () => (await x.all(sql`SELECT message_id FROM chat_messages_terms_pending`)).length;
  // SQLite leaves the words to the drain; PostgreSQL learns them as it indexes, and receives unlearnt
  // messages only in a copied SQLite database: as if so here.
  if (onPostgres(x)) {
    await x.run(sql`DELETE FROM chat_messages_terms WHERE term IN ('platypus', 'sight', 'drop', 'word')`);
    await x.run(sql`INSERT INTO chat_messages_terms_pending (message_id) SELECT m.id FROM chat_messages m JOIN chats c ON c.id = m.chat_pk WHERE c.chat_id = 'late'`);
  }
  t.is(await unlearnt(), 2);
  t.is(await completions(x, ['platy']), undefined, 'the words are not all known: the prefix query runs');
  t.deepEqual(await chats(x, 'platy'), ['late']);
  await x.run(sql`DELETE FROM chat_messages WHERE message_uuid = 'late-1'`);
  await indexQueueInSlices(x, 1);
  t.is(await unlearnt(), 0, 'the drain learns them, and drops a message deleted since');
  t.deepEqual(await completions(x, ['platy']), ['platypus']);
  t.deepEqual(await chats(x, 'platy'), ['late']);
});

/** A database at the migration before 0119, messages indexed as that code did; `finish` applies the rest. */
async function beforeTerms(t: ExecutionContext, dialect: 'sqlite' | 'postgres'): Promise<{ x: Executor; finish(): Promise<void> } | undefined> {
  const before = listMigrations(dialect).filter((m) => m.id < 119);
  if (dialect === 'sqlite') {
    const db = new Database(':memory:');
    t.teardown(() => db.close());
    db.pragma('foreign_keys = ON');
    migrate(db, before);
    return { x: sqliteExecutor(db), finish: async () => void migrate(db) };
  }
  const url = await freshPgDatabase(t);
  if (!url) return undefined;
  const pg = openTestPostgres(url);
  t.teardown(() => pg.close());
  await migratePostgres(pg.db, before);
  return { x: pgExecutor(pg.db), finish: async () => void (await migratePostgres(pg.db)) };
}

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`${dialect}: migration 0119 learns the words of messages indexed before it`, async (t) => {
    const c = await beforeTerms(t, dialect);
    if (!c) return t.log(SKIP_PG_STORE), t.pass();
    const { x } = c;
    await seedAccounts(x);
    await insertChat(x, { orgId: 'acme', userId: 'u1', chatId: 'old', messages: ['Quokka census', 'Numbat numbers'] });
    await insertChat(x, { orgId: 'acme', userId: 'u1', chatId: 'queued', messages: ['wallaby'] });
    const scope = onPostgres(x) ? sql`chat_messages_fts_scope(c.org_id, c.user_id)` : sql`'s' || hex(c.org_id || '/' || c.user_id)`;
    await x.run(sql`INSERT INTO chat_messages_fts (rowid, body, scope) SELECT -m.id, m.content, ${scope}
      FROM chat_messages m JOIN chats c ON c.id = m.chat_pk WHERE c.chat_id = 'old'`);
    await x.run(sql`DELETE FROM chat_messages_fts_pending WHERE message_id IN (SELECT m.id FROM chat_messages m JOIN chats c ON c.id = m.chat_pk WHERE c.chat_id = 'old')`);
    await c.finish();
    t.deepEqual(await completions(x, ['n']), ['numbat', 'numbers']);
    t.deepEqual(await chats(x, 'quo'), ['old']);
    t.deepEqual(await chats(x, 'walla'), ['queued'], 'what was still queued is learnt when indexed');
  });
}
