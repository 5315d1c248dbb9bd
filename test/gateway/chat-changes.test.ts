import test from 'ava';
import { loadChat, type ChatPage, type ChatSummary } from '../../src/chats/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { client, deps, locs, principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

async function owner() {
  const org = t0.org();
  const user = t0.user({ orgId: org });
  const p = principalOf(t0, user, org);
  const ids = await seedChat(t0, p, 'chat', [
    { question: 'q1', answer: 'a1' },
    { question: 'q2', answer: 'a2' },
    { question: 'q3', answer: 'a3' },
  ]);
  const intruder = t0.user({ orgId: org, role: 'admin' });
  return { org, p, ids, api: client(t0, t0.session(user)), other: client(t0, t0.session(intruder)) };
}

const order = async (p: Awaited<ReturnType<typeof owner>>['p']) =>
  ((await loadChat(deps(t0), p, 'chat', { pairs: 50 })) as ChatPage).messages.map((m) => m.content);

test('pinChat, archive_chat and dismiss_chat_completion set and clear their flags', async (t) => {
  const { api } = await owner();
  let chat = await api.json<ChatSummary>(api.post('/api/pinChat', { chat_id: 'chat' }));
  t.true(chat.pinned);
  chat = await api.json<ChatSummary>(api.post('/api/pinChat', { chat_id: 'chat', pinned: false }));
  t.false(chat.pinned);
  chat = await api.json<ChatSummary>(api.post('/api/archive_chat', { chat_id: 'chat' }));
  t.true(chat.archived);
  chat = await api.json<ChatSummary>(api.post('/api/archive_chat', { chat_id: 'chat', archived: false }));
  t.false(chat.archived);
  t.true(chat.recently_completed);
  chat = await api.json<ChatSummary>(api.post('/api/dismiss_chat_completion', { chat_id: 'chat' }));
  t.false(chat.recently_completed);
});

test('add_label_to_chat adds labels once and removes them on request', async (t) => {
  const { api } = await owner();
  await api.post('/api/add_label_to_chat', { chat_id: 'chat', label: 'finance' });
  let chat = await api.json<ChatSummary>(api.post('/api/add_label_to_chat', { chat_id: 'chat', label: ' finance ' }));
  t.deepEqual(chat.labels, ['finance']);
  chat = await api.json<ChatSummary>(api.post('/api/add_label_to_chat', { chat_id: 'chat', label: 'finance', remove: true }));
  t.deepEqual(chat.labels, []);
  t.deepEqual(await locs(await api.post('/api/add_label_to_chat', { chat_id: 'chat', label: 'x'.repeat(51) })), [['body', 'label']]);
  t.deepEqual(await locs(await api.post('/api/add_label_to_chat', { chat_id: 'chat', label: '  ' })), [['body', 'label']]);
});

test('deleteMessage removes one message', async (t) => {
  const { p, ids, api } = await owner();
  const res = await api.post('/api/deleteMessage', { chat_id: 'chat', message_uuid: ids[1] });
  t.is(res.status, 200);
  t.deepEqual(await order(p), ['q1', 'q2', 'a2', 'q3', 'a3']);
  t.is((await api.post('/api/deleteMessage', { chat_id: 'chat', message_uuid: ids[1] })).status, 404);
});

test('save_message_order moves one message, or a question with its answer in block mode', async (t) => {
  const { p, ids, api } = await owner();
  let res = await api.json<{ moved: boolean }>(api.post('/api/save_message_order', { chat_id: 'chat', message_uuid: ids[2], direction: 'up' }));
  t.true(res.moved);
  t.deepEqual(await order(p), ['q1', 'q2', 'a1', 'a2', 'q3', 'a3']);
  res = await api.json(api.post('/api/save_message_order', { chat_id: 'chat', message_uuid: ids[2], direction: 'down' }));
  t.deepEqual(await order(p), ['q1', 'a1', 'q2', 'a2', 'q3', 'a3']);
  // Block mode: moving the answer a3 up moves the pair q3/a3 above q2/a2.
  res = await api.json(api.post('/api/save_message_order', { chat_id: 'chat', message_uuid: ids[5], direction: 'up', block_mode: true }));
  t.true(res.moved);
  t.deepEqual(await order(p), ['q1', 'a1', 'q3', 'a3', 'q2', 'a2']);
  res = await api.json(api.post('/api/save_message_order', { chat_id: 'chat', message_uuid: ids[0], direction: 'up', block_mode: true }));
  t.false(res.moved);
  t.deepEqual(await locs(await api.post('/api/save_message_order', { chat_id: 'chat', message_uuid: ids[0], direction: 'left' })), [['body', 'direction']]);
});

test('feedback is recorded on a message and needs a rating or a comment', async (t) => {
  const { ids, api } = await owner();
  const res = await api.post('/api/feedback', { chat_id: 'chat', message_uuid: ids[1], rating: 'positive', comment: 'great' });
  t.is(res.status, 200);
  t.truthy(((await res.json()) as { feedback_id: string }).feedback_id);
  t.is((await api.post('/api/feedback', { chat_id: 'chat', message_uuid: 'nope', rating: 'negative' })).status, 404);
  t.deepEqual(await locs(await api.post('/api/feedback', { chat_id: 'chat', message_uuid: ids[1] })), [['body', 'rating']]);
  t.deepEqual(await locs(await api.post('/api/feedback', { chat_id: 'chat', message_uuid: ids[1], rating: 'meh' })), [['body', 'rating']]);
});

test('only the owner changes a chat: everyone else, admins included, gets 404', async (t) => {
  const { p, ids, other } = await owner();
  const attempts: [string, Record<string, unknown>][] = [
    ['/api/pinChat', { chat_id: 'chat' }],
    ['/api/archive_chat', { chat_id: 'chat' }],
    ['/api/dismiss_chat_completion', { chat_id: 'chat' }],
    ['/api/add_label_to_chat', { chat_id: 'chat', label: 'x' }],
    ['/api/deleteMessage', { chat_id: 'chat', message_uuid: ids[0] }],
    ['/api/save_message_order', { chat_id: 'chat', message_uuid: ids[2], direction: 'up' }],
    ['/api/feedback', { chat_id: 'chat', message_uuid: ids[1], rating: 'negative' }],
  ];
  for (const [path, body] of attempts) {
    const res = await other.post(path, body);
    t.is(res.status, 404, path);
    t.is(((await res.json()) as { code: string }).code, 'CHAT_NOT_FOUND');
  }
  t.deepEqual(await order(p), ['q1', 'a1', 'q2', 'a2', 'q3', 'a3']);
});

test('a chat of another organization is not found even with the same chat_id', async (t) => {
  await owner();
  const stranger = t0.user({ orgId: t0.org() });
  const api = client(t0, t0.session(stranger));
  t.is((await api.post('/api/pinChat', { chat_id: 'chat' })).status, 404);
});

test('missing fields and credentials are refused', async (t) => {
  const { api } = await owner();
  for (const path of ['/api/pinChat', '/api/archive_chat', '/api/dismiss_chat_completion', '/api/deleteMessage', '/api/save_message_order', '/api/feedback', '/api/add_label_to_chat']) {
    const res = await api.post(path, {});
    t.is(res.status, 422, path);
    t.deepEqual((await locs(res))[0], ['body', 'chat_id']);
    t.is((await client(t0, undefined).post(path, { chat_id: 'chat' })).status, 401);
  }
  t.deepEqual(await locs(await api.post('/api/pinChat', { chat_id: 'x'.repeat(201) })), [['body', 'chat_id']]);
});
