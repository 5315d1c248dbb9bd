import test from 'ava';
import { appendMessage, deleteMessage, recordAnswer, type ChatPage } from '../../src/chats/index.ts';
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
  t.not(share.chat_id, 'chat0');
  t.is(share.url, `${t0.url}/api/share/${share.chat_id}`);
  const res = await anon().get(`/api/share/${share.chat_id}?pairs=50`);
  t.is(res.status, 200);
  const text = await res.text();
  t.false(text.includes('secret plan'));
  t.false(text.includes('hidden system prompt'));
  const page = JSON.parse(text) as ChatPage;
  t.deepEqual(page.messages.map((m) => m.content), ['q0', 'a0', 'q1', 'q2', 'a2']);
  t.true(page.messages.every((m) => m.displayed));
  t.deepEqual(page.chat?.labels, []);
  // include_all is not a parameter of the public view.
  const tricked = await anon().json<ChatPage>(anon().get(`/api/share/${share.chat_id}?pairs=50&include_all=true`));
  t.false(tricked.messages.some((m) => m.content === 'secret plan'));
});

test('the shared view pages by pairs', async (t) => {
  const { api } = await owner('chat1');
  const { chat_id: id } = await api.json<{ chat_id: string }>(api.post('/api/share_chat', { chat_id: 'chat1' }));
  const first = await anon().json<ChatPage>(anon().get(`/api/share/${id}?pairs=1`));
  t.deepEqual(first.messages.map((m) => m.content), ['q2', 'a2']);
  t.true(first.has_more);
  const older = await anon().json<ChatPage>(anon().get(`/api/share/${id}?pairs=1&offset=2`));
  t.deepEqual(older.messages.map((m) => m.content), ['q0', 'a0']);
  t.deepEqual(await locs(await anon().get(`/api/share/${id}?pairs=51`)), [['query', 'pairs']]);
  t.deepEqual(await locs(await anon().get(`/api/share/${id}?offset=-1`)), [['query', 'offset']]);
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
  const { chat_id: id } = await api.json<{ chat_id: string }>(api.post('/api/share_chat', { chat_id: 'chat3' }));
  t.is((await anon().get(`/api/share/${id}`)).status, 200);
  t.is((await anon().get('/api/share/chat3')).status, 404, 'the chat id is no share link');
  t.is((await api.post('/api/delete_shared_chat', { chat_id: 'chat3' })).status, 404, 'a share is stopped by its own id');
  t.is((await api.post('/api/delete_shared_chat', { chat_id: id })).status, 200);
  const gone = await anon().get(`/api/share/${id}`);
  t.is(gone.status, 404);
  t.deepEqual(await gone.json(), unknownBody);
  t.is((await api.post('/api/delete_shared_chat', { chat_id: id })).status, 404);
});

test('only the owner shares or unshares a chat', async (t) => {
  const { org, ids, api } = await owner('chat4');
  const { chat_id: id } = await api.json<{ chat_id: string }>(api.post('/api/share_chat', { chat_id: 'chat4' }));
  const { chat_id: one } = await api.json<{ chat_id: string }>(api.post('/api/share_message', { chat_id: 'chat4', message_uuid: ids[0] }));
  const admin = client(t0, t0.session(t0.user({ orgId: org, role: 'admin' })));
  const colleague = client(t0, t0.session(t0.user({ orgId: org })));
  const outsider = await owner('chat4');
  for (const other of [admin, colleague, outsider.api]) {
    t.is((await other.post('/api/share_message', { chat_id: 'chat4', message_uuid: ids[0] })).status, 404);
    for (const share of [id, one]) t.is((await other.post('/api/delete_shared_chat', { chat_id: share })).status, 404);
  }
  t.is((await admin.post('/api/share_chat', { chat_id: 'chat4' })).status, 404);
  t.is((await colleague.post('/api/share_chat', { chat_id: 'chat4' })).status, 404);
  // Nobody else's share or stop touched the owner's links.
  for (const share of [id, one]) t.is((await anon().get(`/api/share/${share}`)).status, 200);
  for (const [path, body] of [['/api/share_chat', { chat_id: 'chat4' }], ['/api/share_message', { chat_id: 'chat4', message_uuid: ids[0] }], ['/api/delete_shared_chat', { chat_id: id }]] as const) {
    t.is((await anon().post(path, body)).status, 401, path);
  }
  t.is((await anon().get(`/api/share/${id}`)).status, 200);
});

test('two organizations share chats of the same chat_id under different ids, each showing its own', async (t) => {
  const a = await owner('chat5');
  const b = await owner('chat5');
  const shareA = await a.api.json<{ chat_id: string }>(a.api.post('/api/share_chat', { chat_id: 'chat5' }));
  await appendMessage(deps(t0), b.p, { chatId: 'chat5', role: 'user', content: 'the second organization' });
  const shareB = await b.api.json<{ chat_id: string }>(b.api.post('/api/share_chat', { chat_id: 'chat5' }));
  t.not(shareA.chat_id, shareB.chat_id);
  const pageA = await anon().json<ChatPage>(anon().get(`/api/share/${shareA.chat_id}?pairs=50`));
  t.is(pageA.messages.length, 5);
  const pageB = await anon().json<ChatPage>(anon().get(`/api/share/${shareB.chat_id}?pairs=50`));
  t.is(pageB.messages.at(-1)?.content, 'the second organization');
  t.is((await b.api.post('/api/delete_shared_chat', { chat_id: shareA.chat_id })).status, 404);
  t.is((await anon().get(`/api/share/${shareA.chat_id}`)).status, 200);
});

test('the owner lists the shares of a chat with their page addresses; others get 404', async (t) => {
  const { org, p, ids, api } = await owner('chat6');
  t.deepEqual((await api.json<{ shares: unknown[] }>(api.get('/api/shared_chats?chat_id=chat6'))).shares, []);
  const whole = await api.json<{ chat_id: string; page_url: string }>(api.post('/api/share_chat', { chat_id: 'chat6' }));
  t.is(whole.page_url, `${t0.url}/share/${whole.chat_id}`);
  t0.clock.advance(1000);
  const one = await api.json<{ chat_id: string; page_url: string }>(api.post('/api/share_message', { chat_id: 'chat6', message_uuid: ids[5] }));
  t.is(one.page_url, `${t0.url}/share/${one.chat_id}`);
  const listed = await api.json<{ shares: { chat_id: string; message_uuid: string | null; url: string; page_url: string }[] }>(api.get('/api/shared_chats?chat_id=chat6'));
  t.deepEqual(
    listed.shares.map((x) => [x.chat_id, x.message_uuid, x.page_url]),
    [
      [one.chat_id, ids[5], one.page_url],
      [whole.chat_id, null, whole.page_url],
    ],
  );
  t.true(listed.shares.every((x) => x.url === `${t0.url}/api/share/${x.chat_id}`));
  // A share whose message is deleted shows nothing, so it is not listed.
  await deleteMessage(deps(t0), p, { chatId: 'chat6', messageUuid: ids[5]! });
  t.deepEqual((await api.json<{ shares: { chat_id: string }[] }>(api.get('/api/shared_chats?chat_id=chat6'))).shares.map((x) => x.chat_id), [whole.chat_id]);

  const admin = client(t0, t0.session(t0.user({ orgId: org, role: 'admin' })));
  t.is((await admin.get('/api/shared_chats?chat_id=chat6')).status, 404);
  const stranger = await owner('chat6');
  t.deepEqual((await stranger.api.json<{ shares: unknown[] }>(stranger.api.get('/api/shared_chats?chat_id=chat6'))).shares, []);
  t.is((await anon().get('/api/shared_chats?chat_id=chat6')).status, 401);
  t.deepEqual(await locs(await api.get('/api/shared_chats')), [['query', 'chat_id']]);
  t.deepEqual(await locs(await api.get(`/api/shared_chats?chat_id=${'x'.repeat(201)}`)), [['query', 'chat_id']]);
});

type Ref = { chat_id: string; url: string; page_url: string };

test('a share link is random (128 bits or more), never the chat id, and new on every share; re-sharing never revives a stopped link', async (t) => {
  const { ids, api } = await owner('q4-numbers');
  const made: Ref[] = [];
  for (let i = 0; i < 10; i++) made.push(await api.json<Ref>(api.post('/api/share_chat', { chat_id: 'q4-numbers' })));
  for (let i = 0; i < 10; i++) made.push(await api.json<Ref>(api.post('/api/share_message', { chat_id: 'q4-numbers', message_uuid: ids[1] })));
  t.is(new Set(made.map((m) => m.chat_id)).size, made.length);
  for (const m of made) {
    t.regex(m.chat_id, /^[A-Za-z0-9_-]{22,}$/, '22 base64url characters carry 128 bits');
    t.false(m.chat_id.includes('q4-numbers'));
    t.is(m.page_url, `${t0.url}/share/${m.chat_id}`);
  }
  // The chat id, the address a guesser tries, shows nothing.
  t.is((await anon().get('/api/share/q4-numbers')).status, 404);
  // One link to the whole chat: each share replaced the one before.
  const wholes = made.slice(0, 10);
  for (const old of wholes.slice(0, -1)) t.is((await anon().get(`/api/share/${old.chat_id}`)).status, 404);
  const live = wholes.at(-1)!;
  t.is((await anon().get(`/api/share/${live.chat_id}`)).status, 200);
  t.is((await api.post('/api/delete_shared_chat', { chat_id: live.chat_id })).status, 200);
  const again = await api.json<Ref>(api.post('/api/share_chat', { chat_id: 'q4-numbers' }));
  t.false(made.some((m) => m.chat_id === again.chat_id));
  t.is((await anon().get(`/api/share/${live.chat_id}`)).status, 404, 'the stopped link stays dead');
  t.is((await anon().get(`/api/share/${again.chat_id}`)).status, 200);
  const listed = await api.json<{ shares: { chat_id: string; message_uuid: string | null }[] }>(api.get('/api/shared_chats?chat_id=q4-numbers'));
  t.deepEqual(listed.shares.filter((s) => s.message_uuid === null).map((s) => s.chat_id), [again.chat_id]);
});

test('the public view of a shared chat or answer shows no credits', async (t) => {
  const { p, ids, api } = await owner('chat7');
  await appendMessage(deps(t0), p, { chatId: 'chat7', role: 'user', content: 'q3' });
  await recordAnswer(deps(t0), p, { chatId: 'chat7', content: 'copied answer', copiedFromChatId: 'owners-private-chat' });
  const own = await api.json<ChatPage>(api.get('/api/c2/chat7?pairs=50'));
  t.true(own.messages.some((m) => m.credits === 1), 'the owner sees the credits');
  for (const share of [await api.json<Ref>(api.post('/api/share_chat', { chat_id: 'chat7' })), await api.json<Ref>(api.post('/api/share_message', { chat_id: 'chat7', message_uuid: ids[5] }))]) {
    const res = await anon().get(`/api/share/${share.chat_id}?pairs=50`);
    t.is(res.status, 200);
    const text = await res.text();
    const page = JSON.parse(text) as ChatPage;
    t.true(page.messages.length > 0);
    t.true(page.messages.every((m) => m.credits === null && m.copied_from_chat_id === null));
    t.false(text.includes('owners-private-chat'));
  }
});

test('bad input to the share routes is a 422 in the HTTPValidationError shape, never a 5xx', async (t) => {
  const { api } = await owner('chat8');
  const cases: [Promise<Response>, unknown[]][] = [
    [api.post('/api/share_chat', {}), ['body', 'chat_id']],
    [api.post('/api/share_chat', { chat_id: 42 }), ['body', 'chat_id']],
    [api.post('/api/share_message', { chat_id: 'chat8' }), ['body', 'message_uuid']],
    [api.post('/api/delete_shared_chat', {}), ['body', 'chat_id']],
    [api.post('/api/delete_shared_chat', { chat_id: 'x'.repeat(201) }), ['body', 'chat_id']],
    [anon().get(`/api/share/${'x'.repeat(201)}`), ['path', 'chat_id']],
    [anon().get('/api/share/abc?pairs=0'), ['query', 'pairs']],
  ];
  for (const [pending, loc] of cases) {
    const res = await pending;
    t.is(res.status, 422);
    const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
    t.deepEqual(body.detail.map((d) => d.loc), [loc]);
    t.true(body.detail.every((d) => typeof d.msg === 'string' && typeof d.type === 'string'));
  }
  for (const odd of ['%00', '..%2F..%2Fapi', '%F0%9F%98%80', "'%20OR%201=1--"]) t.is((await anon().get(`/api/share/${odd}`)).status, 404, odd);
  t.is((await api.post('/api/share_message', { chat_id: 'chat8', message_uuid: 'not-a-message' })).status, 404);
  t.is((await api.post('/api/share_chat', { chat_id: 'no-such-chat' })).status, 404);
});
