import test from 'ava';
import {
  appendMessage,
  blocksOf,
  chatTranscript,
  deleteMessage,
  ensureChat,
  exportHistory,
  findAnswerSource,
  ftsTerms,
  loadChat,
  recordAnswer,
  searchChats,
  type ChatPage,
} from '../../src/chats/index.ts';
import { decodeCursor, encodeCursor } from '../../src/chats/cursor.ts';
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

test('appendMessage creates the chat, titles it from the first question and keeps order', (t) => {
  const p = member();
  const m1 = appendMessage(deps(t0), p, { chatId: 'd1', role: 'user', content: '  How   many orders\nper day? ' });
  const m2 = recordAnswer(deps(t0), p, { chatId: 'd1', content: 'About 65.', credits: 2.5, knowledgeCommit: 'abc123', knowledgeItems: [{ kind: 'table', path: 'tables/demo_warehouse/main.orders.yaml' }] });
  const page = loadChat(deps(t0), p, 'd1', { pairs: 5 }) as ChatPage;
  t.is(page.chat?.title, 'How many orders per day?');
  t.true(page.chat?.recently_completed);
  t.deepEqual(page.messages.map((m) => m.message_uuid), [m1.message_uuid, m2.message_uuid]);
  t.is(m2.credits, 2.5);
  t.is(m2.copied_from_chat_id, null);
  t.is(m2.knowledge_commit, 'abc123');
  t.deepEqual(m2.answer, null);
});

test('a chat_id owned by another user of the organization is never written to', (t) => {
  const org = t0.org();
  const a = member('user', org);
  const b = member('admin', org);
  appendMessage(deps(t0), a, { chatId: 'mine', role: 'user', content: 'x' });
  t.throws(() => appendMessage(deps(t0), b, { chatId: 'mine', role: 'user', content: 'y' }), { code: 'CHAT_NOT_FOUND' });
  t.throws(() => ensureChat(deps(t0), b, { chatId: 'mine' }), { code: 'CHAT_NOT_FOUND' });
});

test('recordAnswer takes credits or copied_from_chat_id, not both, and refuses duplicate uuids', (t) => {
  const p = member();
  t.throws(() => recordAnswer(deps(t0), p, { chatId: 'd2', content: 'x', credits: 1, copiedFromChatId: 'other' }), { code: 'VALIDATION_FAILED' });
  const copied = recordAnswer(deps(t0), p, { chatId: 'd2', content: 'x', copiedFromChatId: 'other', messageUuid: 'm-1' });
  t.is(copied.credits, null);
  t.is(copied.copied_from_chat_id, 'other');
  t.throws(() => appendMessage(deps(t0), p, { chatId: 'd2', role: 'user', content: 'again', messageUuid: 'm-1' }), { code: 'VALIDATION_FAILED' });
});

test('blocks start at each user message', (t) => {
  const roles = ['assistant', 'user', 'assistant', 'tool', 'user', 'user', 'assistant'] as const;
  const blocks = blocksOf(roles.map((role, i) => ({ role, i })));
  t.deepEqual(blocks.map((b) => b.map((m) => m.i)), [[0], [1, 2, 3], [4], [5, 6]]);
});

test('findAnswerSource gives the SQL and connection behind downloads', (t) => {
  const org = t0.org();
  const p = member('user', org);
  const ids = seedChat(t0, p, 'dl', [
    {
      question: 'q',
      answer: 'a',
      answerData: { tables: [{ df_key: 'df_a', sql: 'SELECT 2', connection_id: 'demo_warehouse', dialect: 'duckdb', columns: ['x'] }] },
    },
  ]);
  const byUuid = findAnswerSource(deps(t0), p, 'dl', { messageUuid: ids[1]! });
  t.like(byUuid, { sql: 'SELECT 2', connection_id: 'demo_warehouse', df_key: 'df_a' });
  t.like(findAnswerSource(deps(t0), p, 'dl', { messagePosition: 1 }), { sql: 'SELECT 2' });
  t.like(findAnswerSource(deps(t0), p, 'dl', { dfKey: 'df_a' }), { connection_id: 'demo_warehouse' });
  t.throws(() => findAnswerSource(deps(t0), p, 'dl', { dfKey: 'nope' }), { code: 'DF_KEY_NOT_FOUND' });
  t.throws(() => findAnswerSource(deps(t0), member('user', org), 'dl', { dfKey: 'df_a' }), { code: 'CHAT_NOT_FOUND' });
  t.like(findAnswerSource(deps(t0), member('admin', org), 'dl', { dfKey: 'df_a' }), { sql: 'SELECT 2' });
});

test('export reads in batches and yields every row once', async (t) => {
  const p = member();
  t0.app.services.store.tx(() => {
    for (let i = 0; i < 1_203; i++) appendMessage(deps(t0), p, { chatId: `b${i % 7}`, role: 'user', content: `m${i}` });
  });
  const seen: string[] = [];
  for await (const row of exportHistory(deps(t0), p)) seen.push(row.content);
  t.is(seen.length, 1_203);
  t.is(new Set(seen).size, 1_203);
});

test('the transcript holds every message of the owner\'s chat, hidden ones included', (t) => {
  const org = t0.org();
  const p = member('user', org);
  seedChat(t0, p, 'tr', [{ question: 'q', answer: 'a', hiddenAnswer: true }]);
  t.deepEqual(chatTranscript(deps(t0), p, 'tr').map((m) => m.content), ['q', 'a']);
  t.deepEqual(chatTranscript(deps(t0), member('admin', org), 'tr'), []);
  t.deepEqual(chatTranscript(deps(t0), p, 'unknown'), []);
});

test('the search index follows deletes and edits of messages', (t) => {
  const p = member();
  const [q] = seedChat(t0, p, 'fts', [{ question: 'quokka census', answer: 'a' }]);
  t.is(searchChats(deps(t0), p, { q: 'quokka' }).results.length, 1);
  const db = t0.app.services.store.db;
  db.prepare("UPDATE chat_messages SET content = 'wombat census' WHERE message_uuid = ?").run(q);
  t.is(searchChats(deps(t0), p, { q: 'quokka' }).results.length, 0);
  t.is(searchChats(deps(t0), p, { q: 'wombat' }).results[0]?.message_uuid, q);
  deleteMessage(deps(t0), p, { chatId: 'fts', messageUuid: q! });
  t.is(searchChats(deps(t0), p, { q: 'wombat' }).results.length, 0);
  // One index row per displayed message, nothing left behind.
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  t.is(count('SELECT COUNT(*) AS n FROM chat_messages_fts'), count('SELECT COUNT(*) AS n FROM chat_messages WHERE displayed = 1'));
});
