import test from 'ava';
import type { ChatPage } from '../../src/chats/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { client, locs, principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const answer = { sql: 'SELECT country, SUM(total) FROM orders GROUP BY 1', connection_id: 'wh', dialect: 'duckdb', tables: [{ df_key: 'df_rev', sql: 'SELECT country FROM orders', connection_id: 'wh', dialect: 'duckdb' }] };

/** A member of a new organization (or of `orgId`) with a chat holding two answered questions. */
async function member(chatId: string, orgId = t0.org()) {
  const user = t0.user({ orgId });
  const ids = await seedChat(t0, principalOf(t0, user, orgId), chatId, [
    { question: 'Revenue by country?', answer: 'France leads.', answerData: answer },
    { question: 'And in 2023?', answer: 'Germany led.' },
  ]);
  return { orgId, user, ids, api: client(t0, t0.session(user, orgId)) };
}

const page = async (api: ReturnType<typeof client>, chatId: string) => api.json<ChatPage>(api.get(`/api/c2/${chatId}?pairs=50`));

test('an answer is copied with its question into another own chat, which names the source instead of credits', async (t) => {
  const { api, ids } = await member('source-1');
  const res = await api.post('/api/copy_message_to_chat', { chat_id: 'source-1', message_uuid: ids[1], target_chat_id: 'collected' });
  t.is(res.status, 200);
  const copied = (await res.json()) as { chat_id: string; message_uuid: string; copied_from_chat_id: string };
  t.like(copied, { chat_id: 'collected', copied_from_chat_id: 'source-1' });
  const target = await page(api, 'collected');
  t.deepEqual(target.messages.map((m) => m.content), ['Revenue by country?', 'France leads.']);
  const copy = target.messages[1]!;
  t.is(copy.message_uuid, copied.message_uuid);
  t.is(copy.copied_from_chat_id, 'source-1');
  t.is(copy.credits, null);
  t.like(copy.answer, { sql: answer.sql, tables: [{ df_key: 'df_rev' }] });
  // The source is untouched, and its answers still carry their credits.
  const source = await page(api, 'source-1');
  t.is(source.messages.length, 4);
  t.true(source.messages.every((m) => m.copied_from_chat_id === null));
  // A second copy, into the same existing chat, appends after the first.
  await api.post('/api/copy_message_to_chat', { chat_id: 'source-1', message_uuid: ids[3], target_chat_id: 'collected' });
  t.deepEqual((await page(api, 'collected')).messages.map((m) => m.content), ['Revenue by country?', 'France leads.', 'And in 2023?', 'Germany led.']);
});

test('copying needs credentials of a kind that may use the REST API', async (t) => {
  const res = await client(t0, undefined).post('/api/copy_message_to_chat', { chat_id: 'a', message_uuid: 'b', target_chat_id: 'c' });
  t.is(res.status, 401);
  const { user, ids } = await member('mcp-source');
  const mcp = await client(t0, t0.token(user, 'mcp')).post('/api/copy_message_to_chat', { chat_id: 'mcp-source', message_uuid: ids[1], target_chat_id: 'mcp-target' });
  t.is(mcp.status, 403);
  t.is(((await mcp.json()) as { code: string }).code, 'TOKEN_KIND_REFUSED');
});

test('missing fields, a question instead of an answer and the same chat as target answer 422 or 404', async (t) => {
  const { api, ids } = await member('source-2');
  const missing = await api.post('/api/copy_message_to_chat', { chat_id: 'source-2' });
  t.is(missing.status, 422);
  t.deepEqual(await locs(missing), [['body', 'message_uuid'], ['body', 'target_chat_id']]);
  const same = await api.post('/api/copy_message_to_chat', { chat_id: 'source-2', message_uuid: ids[1], target_chat_id: 'source-2' });
  t.is(same.status, 422);
  t.deepEqual(await locs(same), [['body', 'target_chat_id']]);
  const question = await api.post('/api/copy_message_to_chat', { chat_id: 'source-2', message_uuid: ids[0], target_chat_id: 'elsewhere' });
  t.is(question.status, 404);
  t.is(((await question.json()) as { code: string }).code, 'MESSAGE_NOT_FOUND');
  const unknown = await api.post('/api/copy_message_to_chat', { chat_id: 'no-such-chat', message_uuid: ids[1], target_chat_id: 'elsewhere' });
  t.is(unknown.status, 404);
  t.is((await api.get('/api/c2/elsewhere')).status, 404, 'nothing was created');
});

test("another user's chat is neither a source nor a target, in the same organization or another", async (t) => {
  const alice = await member('alice-chat');
  const colleague = await member('colleague-chat', alice.orgId);
  const stranger = await member('stranger-chat');
  for (const other of [colleague, stranger]) {
    const steal = await other.api.post('/api/copy_message_to_chat', { chat_id: 'alice-chat', message_uuid: alice.ids[1], target_chat_id: 'mine' });
    t.is(steal.status, 404);
    t.is(((await steal.json()) as { code: string }).code, 'CHAT_NOT_FOUND');
  }
  // Alice may not write into her colleague's chat by naming it as the target.
  const push = await alice.api.post('/api/copy_message_to_chat', { chat_id: 'alice-chat', message_uuid: alice.ids[1], target_chat_id: 'colleague-chat' });
  t.is(push.status, 404);
  t.is((await page(colleague.api, 'colleague-chat')).messages.length, 4, "the colleague's chat is unchanged");
  // Another organization's chat id is simply a new chat of hers: chat ids are per organization.
  const own = await alice.api.post('/api/copy_message_to_chat', { chat_id: 'alice-chat', message_uuid: alice.ids[1], target_chat_id: 'stranger-chat' });
  t.is(own.status, 200);
  t.is((await page(stranger.api, 'stranger-chat')).messages.length, 4, "the other organization's chat is unchanged");
});
