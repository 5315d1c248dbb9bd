import test from 'ava';
import { sqliteExecutor } from '../../src/store/index.ts';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { createOrganization, createUser, principalFor, setMembership } from '../../src/auth/index.ts';
import {
  appendMessage,
  blocksOf,
  chatTranscript,
  deleteMessage,
  exportHistory,
  findAnswerSource,
  ftsTerms,
  indexPendingMessages,
  indexQueueInSlices,
  loadChat,
  recordAnswer,
  searchChats,
  type ChatPage,
} from '../../src/chats/index.ts';
import { decodeCursor, encodeCursor } from '../../src/chats/cursor.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { deps, principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

function member(role: 'user' | 'admin' = 'user', org = t0.org()) {
  const user = t0.user({ orgId: org, role });
  return principalOf(t0, user, org);
}

test('free text becomes quoted FTS terms, the last one a prefix on request', (t) => {
  t.is(ftsTerms('revenue by country'), '"revenue" "by" "country"');
  t.is(ftsTerms('revenue by country', { prefix: true }), '"revenue" "by" "country"*');
  t.is(ftsTerms('a"b OR NEAR(', { prefix: true }), '"ab" "OR" "NEAR("*');
  t.is(ftsTerms('" * ( ) :'), undefined);
  t.is(ftsTerms(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))?.split(' ').length, 16);
});

test('a cursor decodes only with the same key, user and organization', (t) => {
  const scope = { key: 'k', userId: 'u', orgId: 'o' };
  const c = encodeCursor(scope, 42);
  t.is(decodeCursor(scope, c), 42);
  t.throws(() => decodeCursor({ ...scope, key: 'other' }, c), { code: 'VALIDATION_FAILED' });
  t.throws(() => decodeCursor({ ...scope, orgId: 'p' }, c), { code: 'VALIDATION_FAILED' });
});

test('appendMessage creates the chat, titles it from the first question and keeps order', async (t) => {
  const p = member();
  const m1 = await appendMessage(deps(t0), p, { chatId: 'd1', role: 'user', content: '  How   many orders\nper day? ' });
  const m2 = await recordAnswer(deps(t0), p, { chatId: 'd1', content: 'About 65.', credits: 2.5, knowledgeCommit: 'abc123', knowledgeItems: [{ kind: 'table', path: 'tables/demo_warehouse/main.orders.yaml' }] });
  const page: ChatPage = await loadChat(deps(t0), p, 'd1', { pairs: 5 });
  t.is(page.chat?.title, 'How many orders per day?');
  t.true(page.chat?.recently_completed);
  t.deepEqual(page.messages.map((m) => m.message_uuid), [m1.message_uuid, m2.message_uuid]);
  t.is(m2.credits, 2.5);
  t.is(m2.copied_from_chat_id, null);
  t.is(m2.knowledge_commit, 'abc123');
  t.deepEqual(m2.answer, null);
});

test('a chat_id owned by another user of the organization is never written to', async (t) => {
  const org = t0.org();
  const a = member('user', org);
  const b = member('admin', org);
  await appendMessage(deps(t0), a, { chatId: 'mine', role: 'user', content: 'x' });
  await t.throwsAsync(appendMessage(deps(t0), b, { chatId: 'mine', role: 'user', content: 'y' }), { code: 'CHAT_NOT_FOUND' });
});

test('recordAnswer takes credits or copied_from_chat_id, not both, and refuses duplicate uuids', async (t) => {
  const p = member();
  await t.throwsAsync(recordAnswer(deps(t0), p, { chatId: 'd2', content: 'x', credits: 1, copiedFromChatId: 'other' }), { code: 'VALIDATION_FAILED' });
  const copied = await recordAnswer(deps(t0), p, { chatId: 'd2', content: 'x', copiedFromChatId: 'other', messageUuid: 'm-1' });
  t.is(copied.credits, null);
  t.is(copied.copied_from_chat_id, 'other');
  await t.throwsAsync(appendMessage(deps(t0), p, { chatId: 'd2', role: 'user', content: 'again', messageUuid: 'm-1' }), { code: 'VALIDATION_FAILED' });
});

test('blocks start at each user message', (t) => {
  const roles = ['assistant', 'user', 'assistant', 'tool', 'user', 'user', 'assistant'] as const;
  const blocks = blocksOf(roles.map((role, i) => ({ role, i })));
  t.deepEqual(blocks.map((b) => b.map((m) => m.i)), [[0], [1, 2, 3], [4], [5, 6]]);
});

test('findAnswerSource gives the SQL and connection behind downloads', async (t) => {
  const org = t0.org();
  const p = member('user', org);
  const ids = await seedChat(t0, p, 'dl', [
    {
      question: 'q',
      answer: 'a',
      answerData: { tables: [{ df_key: 'df_a', sql: 'SELECT 2', connection_id: 'demo_warehouse', dialect: 'duckdb', columns: ['x'] }] },
    },
  ]);
  const byUuid = await findAnswerSource(deps(t0), p, 'dl', { messageUuid: ids[1]! });
  t.like(byUuid, { sql: 'SELECT 2', connection_id: 'demo_warehouse', df_key: 'df_a' });
  t.like(await findAnswerSource(deps(t0), p, 'dl', { messagePosition: 1 }), { sql: 'SELECT 2' });
  t.like(await findAnswerSource(deps(t0), p, 'dl', { dfKey: 'df_a' }), { connection_id: 'demo_warehouse' });
  await t.throwsAsync(findAnswerSource(deps(t0), p, 'dl', { dfKey: 'nope' }), { code: 'DF_KEY_NOT_FOUND' });
  await t.throwsAsync(findAnswerSource(deps(t0), member('user', org), 'dl', { dfKey: 'df_a' }), { code: 'CHAT_NOT_FOUND' });
  t.like(await findAnswerSource(deps(t0), member('admin', org), 'dl', { dfKey: 'df_a' }), { sql: 'SELECT 2' });
});

test('export reads in batches and yields every row once', async (t) => {
  const p = member();
  for (let i = 0; i < 1_203; i++) await appendMessage(deps(t0), p, { chatId: `b${i % 7}`, role: 'user', content: `m${i}` });
  const seen: string[] = [];
  for await (const row of exportHistory({ ...deps(t0), users: t0.app.services.chatSources.users }, p)) seen.push(row.content);
  t.is(seen.length, 1_203);
  t.is(new Set(seen).size, 1_203);
});

test('the transcript holds every message of the owner\'s chat, hidden ones included', async (t) => {
  const org = t0.org();
  const p = member('user', org);
  await seedChat(t0, p, 'tr', [{ question: 'q', answer: 'a', hiddenAnswer: true }]);
  t.deepEqual((await chatTranscript(deps(t0), p, 'tr')).map((m) => m.content), ['q', 'a']);
  t.deepEqual(await chatTranscript(deps(t0), member('admin', org), 'tr'), []);
  t.deepEqual(await chatTranscript(deps(t0), p, 'unknown'), []);
});

// Serial: it counts the shared service's whole queue, which concurrent tests would fill meanwhile.
test.serial('a written message waits for the index off the write path, and the next search finds it', async (t) => {
  const p = member();
  const db = t0.app.services.store.sqlite!;
  const x = t0.app.services.chats.store;
  const ftsRow = (uuid: string) => db.prepare('SELECT f.rowid FROM chat_messages_fts f JOIN chat_messages m ON -f.rowid = m.id WHERE m.message_uuid = ?').get(uuid);
  const queued = (uuid: string) => db.prepare('SELECT 1 FROM chat_messages_fts_pending p JOIN chat_messages m ON m.id = p.message_id WHERE m.message_uuid = ?').get(uuid);
  const [q] = await seedChat(t0, p, 'queue', [{ question: 'platypus sightings', answer: 'a' }]);
  t.truthy(queued(q!));
  t.falsy(ftsRow(q!));
  t.is((await searchChats(deps(t0), p, { q: 'platypus' })).results[0]?.message_uuid, q);
  t.falsy(queued(q!));
  t.truthy(ftsRow(q!));
  t.is(await indexPendingMessages(x), 0, 'nothing is indexed twice');
});

// Serial: it counts the shared service's whole queue, which concurrent tests would fill meanwhile.
test.serial('the background indexer takes the queue oldest first, a bounded slice per turn of the event loop', async (t) => {
  const p = member();
  const db = t0.app.services.store.sqlite!;
  const x = t0.app.services.chats.store;
  await indexPendingMessages(x);
  const queuedCount = () => (db.prepare('SELECT COUNT(*) AS n FROM chat_messages_fts_pending').get() as { n: number }).n;
  const indexed = (uuid: string) => !!db.prepare('SELECT 1 FROM chat_messages_fts f JOIN chat_messages m ON -f.rowid = m.id WHERE m.message_uuid = ?').get(uuid);
  const [first, second, third, fourth] = await seedChat(t0, p, 'slices', [{ question: 'q1', answer: 'a1' }, { question: 'q2', answer: 'a2' }]);
  t.is(queuedCount(), 4);
  t.is(await indexPendingMessages(x, 1), 1);
  t.true(indexed(first!));
  t.false(indexed(second!));
  const done = indexQueueInSlices(x, 2);
  // The first slice runs at once, the next after the I/O of this turn.
  t.is(queuedCount(), 1);
  t.true(indexed(second!) && indexed(third!));
  t.false(indexed(fourth!));
  await done;
  t.true(indexed(fourth!));
});

test('an edit or a delete of a message still queued for the index leaves it right', async (t) => {
  const p = member();
  const db = t0.app.services.store.sqlite!;
  const [edited, , deleted] = await seedChat(t0, p, 'queued-edits', [
    { question: 'echidna census', answer: 'a' },
    { question: 'numbat census', answer: 'b' },
  ]);
  db.prepare("UPDATE chat_messages SET content = 'bilby census' WHERE message_uuid = ?").run(edited);
  await deleteMessage(deps(t0), p, { chatId: 'queued-edits', messageUuid: deleted! });
  t.deepEqual((await searchChats(deps(t0), p, { q: 'echidna' })).results, []);
  t.deepEqual((await searchChats(deps(t0), p, { q: 'numbat' })).results, []);
  t.deepEqual((await searchChats(deps(t0), p, { q: 'bilby' })).results.map((r) => r.message_uuid), [edited]);
  const rows = (uuid: string) => (db.prepare('SELECT COUNT(*) AS n FROM chat_messages_fts f JOIN chat_messages m ON -f.rowid = m.id WHERE m.message_uuid = ?').get(uuid) as { n: number }).n;
  t.is(rows(edited!), 1);
});

// Serial: it counts the shared service's whole index, which concurrent tests would fill meanwhile.
test.serial('the search index follows deletes and edits of messages', async (t) => {
  const p = member();
  const [q] = await seedChat(t0, p, 'fts', [{ question: 'quokka census', answer: 'a' }]);
  t.is((await searchChats(deps(t0), p, { q: 'quokka' })).results.length, 1);
  const db = t0.app.services.store.sqlite!;
  db.prepare("UPDATE chat_messages SET content = 'wombat census' WHERE message_uuid = ?").run(q);
  t.is((await searchChats(deps(t0), p, { q: 'quokka' })).results.length, 0);
  t.is((await searchChats(deps(t0), p, { q: 'wombat' })).results[0]?.message_uuid, q);
  await deleteMessage(deps(t0), p, { chatId: 'fts', messageUuid: q! });
  t.is((await searchChats(deps(t0), p, { q: 'wombat' })).results.length, 0);
  // One index row per displayed message, nothing left behind.
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  t.is(count('SELECT COUNT(*) AS n FROM chat_messages_fts'), count('SELECT COUNT(*) AS n FROM chat_messages WHERE displayed = 1'));
});

test('closing the service indexes the messages still queued for search', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-index-close-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_SEED_DEMO: 'false', SEXTANT_JWT_SECRET: 'x'.repeat(40), SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' });
  const app = await createApp(config, { log: createLogger('silent') });
  const db = app.services.store.sqlite!;
  const clock = app.services.clock;
  await createOrganization(sqliteExecutor(db), clock, { id: 'o', name: 'O' });
  const user = await createUser(sqliteExecutor(db), clock, { email: 'close@example.com', emailVerified: true });
  await setMembership(sqliteExecutor(db), clock, { userId: user.id, orgId: 'o', role: 'user' });
  await appendMessage(app.services.chats, (await principalFor(sqliteExecutor(db), user, 'o', 'session', []))!, { chatId: 'c', role: 'user', content: 'kookaburra calls' });
  await app.close();
  const file = new Database(join(dataDir, 'sextant.db'), { readonly: true });
  t.teardown(() => file.close());
  t.is((file.prepare('SELECT COUNT(*) AS n FROM chat_messages_fts_pending').get() as { n: number }).n, 0);
  t.is((file.prepare("SELECT COUNT(*) AS n FROM chat_messages_fts WHERE chat_messages_fts MATCH 'kookaburra'").get() as { n: number }).n, 1);
});

// Serial: it counts the shared service's whole queue, which concurrent tests would fill meanwhile.
test.serial('the service indexes a written message after the write returns, before any search', async (t) => {
  const p = member();
  const db = t0.app.services.store.sqlite!;
  const { chats } = t0.app.services;
  const queued = (uuid: string) => !!db.prepare('SELECT 1 FROM chat_messages_fts_pending p JOIN chat_messages m ON m.id = p.message_id WHERE m.message_uuid = ?').get(uuid);
  const indexed = (uuid: string) => !!db.prepare('SELECT 1 FROM chat_messages_fts f JOIN chat_messages m ON -f.rowid = m.id WHERE m.message_uuid = ?').get(uuid);
  const { message_uuid: uuid } = await appendMessage({ ...chats, clock: t0.clock }, p, { chatId: 'drained', role: 'user', content: 'bilby tracks' });
  // The write's own turn did not index it: the drain runs after it.
  t.true(queued(uuid));
  await chats.searchIndex.idle();
  t.false(queued(uuid));
  t.true(indexed(uuid));
});

test('a restart indexes the messages a crash left queued, without waiting for a search', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-index-restart-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_SEED_DEMO: 'false', SEXTANT_JWT_SECRET: 'x'.repeat(40), SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' });
  const first = await createApp(config, { log: createLogger('silent') });
  await first.close();
  // What a crash leaves: messages written and queued, the process gone before its drain ran.
  const file = new Database(join(dataDir, 'sextant.db'));
  file.prepare("INSERT INTO organizations (id, name, created_at) VALUES ('o', 'O', 0)").run();
  file.prepare("INSERT INTO users (id, email, created_at) VALUES ('u', 'u@example.com', 0)").run();
  const pk = file.prepare("INSERT INTO chats (org_id, chat_id, user_id, title, created_at, updated_at) VALUES ('o', 'c', 'u', 'c', 1, 1)").run().lastInsertRowid;
  const msg = file.prepare("INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, created_at) VALUES (?, ?, 'user', 'cassowary crossing', ?, 1)");
  for (let i = 0; i < 120; i++) msg.run(pk, `m${i}`, i);
  file.close();
  const app = await createApp(config, { log: createLogger('silent') });
  t.teardown(() => app.close());
  await app.services.chats.searchIndex.idle();
  const db = app.services.store.sqlite!;
  t.is((db.prepare('SELECT COUNT(*) AS n FROM chat_messages_fts_pending').get() as { n: number }).n, 0);
  t.is((db.prepare("SELECT COUNT(*) AS n FROM chat_messages_fts WHERE chat_messages_fts MATCH 'cassowary'").get() as { n: number }).n, 120);
});

test('a search right after a bulk load finds the messages still queued, and a restart answers the same', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-index-bulk-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_SEED_DEMO: 'false', SEXTANT_JWT_SECRET: 'x'.repeat(40), SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' });
  let app = await createApp(config, { log: createLogger('silent') });
  t.teardown(() => app.close());
  const x = sqliteExecutor(app.services.store.sqlite!);
  await createOrganization(x, app.services.clock, { id: 'o', name: 'O' });
  const user = await createUser(x, app.services.clock, { email: 'bulk@example.com', emailVerified: true });
  await setMembership(x, app.services.clock, { userId: user.id, orgId: 'o', role: 'user' });
  const p = (await principalFor(x, user, 'o', 'session', []))!;
  // As the bench loads: transactions of 100 chats of 10 messages, the indexer draining between them,
  // the last transaction's messages still queued when the search comes.
  const load = (db: Database.Database, from: number) => {
    const chat = db.prepare("INSERT INTO chats (org_id, chat_id, user_id, title, created_at, updated_at) VALUES ('o', ?, ?, '', 1, 1)");
    const msg = db.prepare("INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, created_at) VALUES (?, ?, 'user', ?, ?, 1)");
    db.transaction(() => {
      for (let c = from; c < from + 100; c++) {
        const pk = chat.run(`bulk-${c}`, user.id).lastInsertRowid;
        for (let m = 0; m < 10; m++) msg.run(pk, `m-${c}-${m}`, `dingo ${c < 200 ? 'early' : 'late'} ${'padding '.repeat(c % 7)}`, m);
      }
    })();
  };
  for (const from of [0, 100, 200]) {
    load(app.services.store.sqlite!, from);
    app.services.chats.searchIndex.nudge();
    if (from < 200) await app.services.chats.searchIndex.idle();
  }
  const search = async (q: string) => (await searchChats(app.services.chats, p, { q, limit: 100 })).results;
  const late = await search('late');
  t.is(late.length, 50, 'the queued transaction is found: its newest 500 matches lie in 50 chats');
  t.true(late.every((r) => r.chat_id >= 'bulk-250'));
  const dingo = await search('dingo');
  t.deepEqual(dingo.map((r) => r.chat_id).sort(), late.map((r) => r.chat_id).sort());
  await app.close();
  app = await createApp(config, { log: createLogger('silent') });
  t.deepEqual(await search('late'), late);
  t.deepEqual(await search('dingo'), dingo);
});
