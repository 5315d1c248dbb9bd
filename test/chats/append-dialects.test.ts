// Writing and reading chats on SQLite and PostgreSQL: a question creates and titles the chat, an
// answer marks it completed, pages and transcripts read them back; another user's or organization's
// chat is never read or changed; concurrent appends to one chat keep every message, in order.
import { sql } from 'kysely';
import type { Principal } from '../../src/auth/index.ts';
import { appendMessage, chatTranscript, findAnswerSource, loadChat, messageWrites, recordAnswer } from '../../src/chats/index.ts';
import { FakeClock } from '../../src/clock.ts';
import type { Executor } from '../../src/store/executor.ts';
import { dialectTest } from '../helpers/executors.ts';
import { seedAccounts, who } from './dialects.ts';

const as = (orgId: string, userId: string, role: Principal['role'] = 'user') => ({ ...who(orgId, userId), role }) as Principal;
const OWNER = as('acme', 'u1');
const COLLEAGUE = as('acme', 'u2');
const ELSEWHERE = as('other', 'u1');

async function setup(x: Executor) {
  await seedAccounts(x);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('u3', 'u3@example.com', 0)`);
  return { store: x, clock: new FakeClock(1_000) };
}

const chatRow = (x: Executor, orgId: string, chatId: string) =>
  x.one(sql<{ user_id: string; title: string; updated_at: number; recently_completed: number; hidden: number }>`SELECT user_id, title, updated_at, recently_completed, hidden FROM chats WHERE org_id = ${orgId} AND chat_id = ${chatId}`);
const contents = async (x: Executor, orgId: string, chatId: string) =>
  (await x.all(sql<{ content: string }>`SELECT m.content FROM chat_messages m JOIN chats c ON c.id = m.chat_pk WHERE c.org_id = ${orgId} AND c.chat_id = ${chatId} ORDER BY m.position`)).map((r) => r.content);

dialectTest('a question creates and titles the chat, an answer is recorded after it with its data and marks the chat completed', async (t, { x }) => {
  const deps = await setup(x);
  const q = await appendMessage(deps, OWNER, { chatId: 'c1', role: 'user', content: '  How   many orders\nper day? ', environment: { id: 'env', name: 'Production' } });
  deps.clock.advance(5);
  const answer = { sql: 'SELECT 1', connection_id: 'wh', dialect: 'duckdb', tables: [{ df_key: 'df_a', sql: 'SELECT 2', connection_id: 'wh', dialect: 'duckdb', columns: ['x'] }] };
  const a = await recordAnswer(deps, OWNER, { chatId: 'c1', content: 'About 65.', credits: 2.5, answer, knowledgeCommit: 'abc', knowledgeItems: [{ kind: 'table', path: 't.yaml' }] });
  t.like(q, { role: 'user', position: 0, displayed: true, created_at: 1_000, answer: null, knowledge_items: [] });
  t.like(a, { role: 'assistant', position: 1, credits: 2.5, knowledge_commit: 'abc', copied_from_chat_id: null, created_at: 1_005 });
  t.deepEqual(a.knowledge_items, [{ kind: 'table', path: 't.yaml' }]);
  t.is(a.answer?.tables[0]?.df_key, 'df_a');
  const page = await loadChat(deps, OWNER, 'c1', { pairs: 5 });
  t.like(page.chat, { title: 'How many orders per day?', recently_completed: true, agentic: true, environment: 'Production', created_at: 1_000, updated_at: 1_005, labels: [] });
  t.deepEqual(page.messages, [q, a]);
  t.like(page, { total_pairs: 1, offset: 0, has_more: false });
  await appendMessage(deps, OWNER, { chatId: 'c1', role: 'user', content: 'And per week?' });
  t.is((await chatRow(x, 'acme', 'c1'))?.title, 'How many orders per day?', 'a later question keeps the title');
  t.deepEqual((await chatTranscript(deps, OWNER, 'c1')).map((m) => m.content), ['  How   many orders\nper day? ', 'About 65.', 'And per week?']);
  t.deepEqual((await chatTranscript(deps, OWNER, 'c1', { maxMessages: 2 })).map((m) => m.position), [1, 2], 'the newest, oldest first');
  t.like(await findAnswerSource(deps, OWNER, 'c1', { dfKey: 'df_a' }), { sql: 'SELECT 2', connection_id: 'wh', chat_id: 'c1' });
  t.like(await findAnswerSource(deps, OWNER, 'c1', { latest: true }), { sql: 'SELECT 1', df_key: undefined });
});

dialectTest('hidden messages and hidden chats: a page shows displayed messages unless asked, a hidden chat stays hidden', async (t, { x }) => {
  const deps = await setup(x);
  await appendMessage(deps, OWNER, { chatId: 'ev', role: 'user', content: 'q', hidden: true });
  await appendMessage(deps, OWNER, { chatId: 'ev', role: 'system', content: 'context', displayed: false });
  await recordAnswer(deps, OWNER, { chatId: 'ev', content: 'a', copiedFromChatId: 'src' });
  t.is((await chatRow(x, 'acme', 'ev'))?.hidden, 1);
  t.deepEqual((await loadChat(deps, OWNER, 'ev')).messages.map((m) => m.content), ['q', 'a']);
  t.deepEqual((await loadChat(deps, OWNER, 'ev', { includeAll: true })).messages.map((m) => m.content), ['q', 'context', 'a']);
  t.is((await chatTranscript(deps, OWNER, 'ev')).length, 3);
});

dialectTest('another user\'s chat is never written or read; the same chat_id in another organization is another chat', async (t, { x }) => {
  const deps = await setup(x);
  await appendMessage(deps, OWNER, { chatId: 'mine', role: 'user', content: 'private question' });
  const before = await chatRow(x, 'acme', 'mine');
  deps.clock.advance(60_000);
  await t.throwsAsync(appendMessage(deps, COLLEAGUE, { chatId: 'mine', role: 'user', content: 'intrusion' }), { code: 'CHAT_NOT_FOUND' });
  await t.throwsAsync(recordAnswer(deps, COLLEAGUE, { chatId: 'mine', content: 'intrusion', credits: 1 }), { code: 'CHAT_NOT_FOUND' });
  await t.throwsAsync(loadChat(deps, COLLEAGUE, 'mine'), { code: 'CHAT_NOT_FOUND' });
  await t.throwsAsync(findAnswerSource(deps, COLLEAGUE, 'mine', { latest: true }), { code: 'CHAT_NOT_FOUND' });
  t.deepEqual(await chatTranscript(deps, COLLEAGUE, 'mine'), []);
  t.deepEqual(await chatRow(x, 'acme', 'mine'), before, 'neither updated_at nor the completion flag moved');
  t.deepEqual(await contents(x, 'acme', 'mine'), ['private question']);
  // A modeler of the organization reads it; one of another organization does not.
  t.is((await loadChat(deps, as('acme', 'u3', 'modeler'), 'mine')).messages.length, 1);
  await t.throwsAsync(loadChat(deps, as('other', 'u3', 'admin'), 'mine'), { code: 'CHAT_NOT_FOUND' });
  await appendMessage(deps, ELSEWHERE, { chatId: 'mine', role: 'user', content: 'same id, other organization' });
  t.deepEqual(await contents(x, 'other', 'mine'), ['same id, other organization']);
  t.deepEqual(await contents(x, 'acme', 'mine'), ['private question']);
});

dialectTest('a message uuid used twice in a chat is refused and changes nothing, not even the title', async (t, { x }) => {
  const deps = await setup(x);
  await recordAnswer(deps, OWNER, { chatId: 'd', content: 'greeting', messageUuid: 'm-1', credits: 1 });
  await t.throwsAsync(recordAnswer(deps, OWNER, { chatId: 'd', content: 'x', credits: 1, copiedFromChatId: 'o' }), { code: 'VALIDATION_FAILED' });
  await t.throwsAsync(appendMessage(deps, OWNER, { chatId: 'd', role: 'user', content: 'would title', messageUuid: 'm-1' }), { code: 'VALIDATION_FAILED' });
  await t.throwsAsync(appendMessage(deps, OWNER, { chatId: '', role: 'user', content: 'q' }), { code: 'VALIDATION_FAILED' });
  t.like(await chatRow(x, 'acme', 'd'), { title: '' });
  t.deepEqual(await contents(x, 'acme', 'd'), ['greeting']);
  t.is(await x.one(sql`SELECT 1 FROM chats WHERE chat_id = ''`), undefined);
});

dialectTest('concurrent appends to one new chat, through two connections, keep every message once and each writer\'s in order', async (t, { x, other }) => {
  const writers = 4;
  const each = 12;
  await setup(x);
  const clock = new FakeClock(1_000);
  const write = async (w: number) => {
    const deps = { store: w % 2 ? other : x, clock };
    for (let i = 0; i < each; i++) await appendMessage(deps, OWNER, { chatId: 'busy', role: i % 2 ? 'assistant' : 'user', content: `w${w}-${i}` });
  };
  await Promise.all(Array.from({ length: writers }, (_, w) => write(w)));
  const rows = await x.all(sql<{ content: string; position: number }>`SELECT m.content, m.position FROM chat_messages m JOIN chats c ON c.id = m.chat_pk WHERE c.chat_id = 'busy' ORDER BY m.position, m.id`);
  t.deepEqual(rows.map((r) => r.position), Array.from({ length: writers * each }, (_, i) => i), 'one message per position, none skipped');
  for (let w = 0; w < writers; w++) {
    t.deepEqual(rows.map((r) => r.content).filter((c) => c.startsWith(`w${w}-`)), Array.from({ length: each }, (_, i) => `w${w}-${i}`));
  }
  t.is(await x.one(sql<{ n: number }>`SELECT COUNT(*) AS n FROM chats WHERE chat_id = 'busy'`).then((r) => Number(r?.n)), 1);
});

dialectTest('messages written in one turn through the group commit share commits; one refused fails alone and changes nothing', async (t, { x }) => {
  const deps = await setup(x);
  await appendMessage(deps, OWNER, { chatId: 'mine', role: 'user', content: 'private question', messageUuid: 'taken' });
  const batches: number[] = [];
  const grouped = { ...deps, appends: messageWrites({ ...x, batch: (qs, options) => (batches.push(qs.length), x.batch(qs, options)) }) };
  const questions = Array.from({ length: 5 }, (_, i) => appendMessage(grouped, OWNER, { chatId: `burst-${i}`, role: 'user', content: `question ${i}` }));
  const intrusion = appendMessage(grouped, COLLEAGUE, { chatId: 'mine', role: 'user', content: 'intrusion' });
  const again = appendMessage(grouped, OWNER, { chatId: 'mine', role: 'user', content: 'would repeat', messageUuid: 'taken' });
  const followUp = appendMessage(grouped, OWNER, { chatId: 'burst-0', role: 'assistant', content: 'answer 0' });
  await t.throwsAsync(intrusion, { code: 'CHAT_NOT_FOUND' });
  await t.throwsAsync(again, { code: 'VALIDATION_FAILED' });
  t.deepEqual((await Promise.all(questions)).map((m) => m.position), [0, 0, 0, 0, 0]);
  t.is((await followUp).position, 1, 'after the question written earlier in the same group');
  t.is(batches[0], 8 * 3, 'the first eight messages went in one batch');
  t.deepEqual(await contents(x, 'acme', 'mine'), ['private question']);
  t.is((await chatRow(x, 'acme', 'burst-3'))?.title, 'question 3');
  t.deepEqual(await contents(x, 'acme', 'burst-0'), ['question 0', 'answer 0']);
});
