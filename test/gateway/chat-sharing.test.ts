import test from 'ava';
import { appendMessage, deleteMessage, type ChatPage } from '../../src/chats/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { client, deps, locs, principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const anon = () => client(t0, undefined);

async function owner(chatId: string) {
  const org = t0.org();
  const user = t0.user({ orgId: org });
  const p = principalOf(t0, user, org);
  const ids = await seedChat(t0, p, chatId, [
    { question: 'q0', answer: 'a0' },
    { question: 'q1', answer: 'secret plan', hiddenAnswer: true },
    { question: 'q2', answer: 'a2' },
  ]);
  await appendMessage(deps(t0), p, { chatId, role: 'system', content: 'hidden system prompt', displayed: false });
  return { org, p, ids, api: client(t0, t0.session(user)) };
}

test('a shared chat is readable without credentials and never shows hidden messages', async (t) => {
  const { api } = await owner('chat0');
  const share = await api.json<{ chat_id: string; url: string }>(api.post('/api/share_chat', { chat_id: 'chat0' }));
  t.is(share.chat_id, 'chat0');
  t.true(share.url.endsWith('/api/share/chat0'));
  const res = await anon().get('/api/share/chat0?pairs=50');
  t.is(res.status, 200);
  const text = await res.text();
  t.false(text.includes('secret plan'));
  t.false(text.includes('hidden system prompt'));
  const page = JSON.parse(text) as ChatPage;
  t.deepEqual(page.messages.map((m) => m.content), ['q0', 'a0', 'q1', 'q2', 'a2']);
  t.true(page.messages.every((m) => m.displayed));
  t.deepEqual(page.chat?.labels, []);
  // include_all is not a parameter of the public view.
  const tricked = await anon().json<ChatPage>(anon().get('/api/share/chat0?pairs=50&include_all=true'));
  t.false(tricked.messages.some((m) => m.content === 'secret plan'));
});

test('the shared view pages by pairs', async (t) => {
  const { api } = await owner('chat1');
  await api.post('/api/share_chat', { chat_id: 'chat1' });
  const first = await anon().json<ChatPage>(anon().get('/api/share/chat1?pairs=1'));
  t.deepEqual(first.messages.map((m) => m.content), ['q2', 'a2']);
  t.true(first.has_more);
  const older = await anon().json<ChatPage>(anon().get('/api/share/chat1?pairs=1&offset=2'));
  t.deepEqual(older.messages.map((m) => m.content), ['q0', 'a0']);
  t.deepEqual(await locs(await anon().get('/api/share/chat1?pairs=51')), [['query', 'pairs']]);
  t.deepEqual(await locs(await anon().get('/api/share/chat1?offset=-1')), [['query', 'offset']]);
});

test('share_message shares one answer with its question only', async (t) => {
  const { p, ids, api } = await owner('chat2');
  const share = await api.json<{ chat_id: string }>(api.post('/api/share_message', { chat_id: 'chat2', message_uuid: ids[1] }));
  t.not(share.chat_id, 'chat2');
  const page = await anon().json<ChatPage>(anon().get(`/api/share/${share.chat_id}`));
  t.deepEqual(page.messages.map((m) => m.content), ['q0', 'a0']);
  t.is(page.chat?.chat_id, share.chat_id);
  // Sharing a hidden answer reveals nothing.
  const hidden = await api.json<{ chat_id: string }>(api.post('/api/share_message', { chat_id: 'chat2', message_uuid: ids[3] }));
  t.is((await anon().get(`/api/share/${hidden.chat_id}`)).status, 404);
  // Deleting the shared message ends the share.
  await deleteMessage(deps(t0), p, { chatId: 'chat2', messageUuid: ids[1]! });
  await deleteMessage(deps(t0), p, { chatId: 'chat2', messageUuid: ids[0]! });
  t.is((await anon().get(`/api/share/${share.chat_id}`)).status, 404);
});

test('an unshared, deleted or unknown share answers the same 404', async (t) => {
  const { api } = await owner('chat3');
  const unknown = await anon().get('/api/share/never-shared');
  t.is(unknown.status, 404);
  const unknownBody = await unknown.json();
  t.is((await anon().get('/api/share/chat3')).status, 404);
  await api.post('/api/share_chat', { chat_id: 'chat3' });
  t.is((await anon().get('/api/share/chat3')).status, 200);
  t.is((await api.post('/api/delete_shared_chat', { chat_id: 'chat3' })).status, 200);
  const gone = await anon().get('/api/share/chat3');
  t.is(gone.status, 404);
  t.deepEqual(await gone.json(), unknownBody);
  t.is((await api.post('/api/delete_shared_chat', { chat_id: 'chat3' })).status, 404);
});

test('only the owner shares or unshares a chat', async (t) => {
  const { org, ids, api } = await owner('chat4');
  await api.post('/api/share_chat', { chat_id: 'chat4' });
  const admin = client(t0, t0.session(t0.user({ orgId: org, role: 'admin' })));
  t.is((await admin.post('/api/share_chat', { chat_id: 'chat4' })).status, 404);
  t.is((await admin.post('/api/share_message', { chat_id: 'chat4', message_uuid: ids[0] })).status, 404);
  t.is((await admin.post('/api/delete_shared_chat', { chat_id: 'chat4' })).status, 404);
  t.is((await anon().get('/api/share/chat4')).status, 200);
  t.is((await anon().post('/api/share_chat', { chat_id: 'chat4' })).status, 401);
});

test('a chat_id already shared by another organization cannot be shared twice', async (t) => {
  const a = await owner('chat5');
  const b = await owner('chat5');
  await a.api.post('/api/share_chat', { chat_id: 'chat5' });
  const res = await b.api.post('/api/share_chat', { chat_id: 'chat5' });
  t.is(res.status, 409);
  t.is((await b.api.post('/api/share_chat', {})).status, 422);
  // The first share stays the first organization's.
  const page = await anon().json<ChatPage>(anon().get('/api/share/chat5?pairs=50'));
  t.is(page.messages.length, 5);
  t.is((await b.api.post('/api/delete_shared_chat', { chat_id: 'chat5' })).status, 404);
});

test('the owner lists the shares of a chat with their page addresses; others get 404', async (t) => {
  const { org, p, ids, api } = await owner('chat6');
  t.deepEqual((await api.json<{ shares: unknown[] }>(api.get('/api/shared_chats?chat_id=chat6'))).shares, []);
  const whole = await api.json<{ chat_id: string; page_url: string }>(api.post('/api/share_chat', { chat_id: 'chat6' }));
  t.is(whole.page_url, `${t0.url}/share/chat6`);
  t0.clock.advance(1000);
  const one = await api.json<{ chat_id: string; page_url: string }>(api.post('/api/share_message', { chat_id: 'chat6', message_uuid: ids[5] }));
  t.is(one.page_url, `${t0.url}/share/${one.chat_id}`);
  const listed = await api.json<{ shares: { chat_id: string; message_uuid: string | null; url: string; page_url: string }[] }>(api.get('/api/shared_chats?chat_id=chat6'));
  t.deepEqual(
    listed.shares.map((x) => [x.chat_id, x.message_uuid, x.page_url]),
    [
      [one.chat_id, ids[5], one.page_url],
      ['chat6', null, whole.page_url],
    ],
  );
  t.true(listed.shares.every((x) => x.url === `${t0.url}/api/share/${x.chat_id}`));
  // A share whose message is deleted shows nothing, so it is not listed.
  await deleteMessage(deps(t0), p, { chatId: 'chat6', messageUuid: ids[5]! });
  t.deepEqual((await api.json<{ shares: { chat_id: string }[] }>(api.get('/api/shared_chats?chat_id=chat6'))).shares.map((x) => x.chat_id), ['chat6']);

  const admin = client(t0, t0.session(t0.user({ orgId: org, role: 'admin' })));
  t.is((await admin.get('/api/shared_chats?chat_id=chat6')).status, 404);
  const stranger = await owner('chat6');
  t.deepEqual((await stranger.api.json<{ shares: unknown[] }>(stranger.api.get('/api/shared_chats?chat_id=chat6'))).shares, []);
  t.is((await anon().get('/api/shared_chats?chat_id=chat6')).status, 401);
  t.deepEqual(await locs(await api.get('/api/shared_chats')), [['query', 'chat_id']]);
  t.deepEqual(await locs(await api.get(`/api/shared_chats?chat_id=${'x'.repeat(201)}`)), [['query', 'chat_id']]);
});
