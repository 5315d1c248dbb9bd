import test from 'ava';
import { appendMessage, archiveChat, pinChat } from '../../src/chats/index.ts';
import type { ChatHistoryResponse } from '../../src/chats/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { client, deps, locs, principalOf } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

// Each call gets its own organization by default, so short chat ids never collide between tests.
async function userWithChats(n: number, org = t0.org()) {
  const user = t0.user({ orgId: t0.org(org) });
  const p = principalOf(t0, user, org);
  for (let i = 0; i < n; i++) await appendMessage(deps(t0), p, { chatId: `c${i}`, role: 'user', content: `question ${i}` });
  return { user, p, api: client(t0, t0.session(user, org)) };
}

test('chat_history lists the caller\'s chats newest first with titles from the first question', async (t) => {
  const { api } = await userWithChats(3);
  const res = await api.get('/api/chat_history');
  t.is(res.status, 200);
  const body = (await res.json()) as ChatHistoryResponse;
  t.deepEqual(body.chats.map((c) => c.chat_id), ['c2', 'c1', 'c0']);
  t.is(body.chats[0]?.title, 'question 2');
  t.is(body.next_cursor, null);
});

test('the first page carries pinned and archived chats apart; later pages do not', async (t) => {
  const { p, api } = await userWithChats(6);
  await pinChat(deps(t0), p, { chatId: 'c1' });
  await archiveChat(deps(t0), p, { chatId: 'c2' });
  const first = await api.json<ChatHistoryResponse>(api.get('/api/chat_history?limit=2'));
  t.deepEqual(first.pinned.map((c) => c.chat_id), ['c1']);
  t.deepEqual(first.archived.map((c) => c.chat_id), ['c2']);
  t.true(first.pinned[0]!.pinned);
  t.deepEqual(first.chats.map((c) => c.chat_id), ['c5', 'c4']);
  const second = await api.json<ChatHistoryResponse>(api.get(`/api/chat_history?limit=2&cursor=${first.next_cursor}`));
  t.deepEqual(second.chats.map((c) => c.chat_id), ['c3', 'c0']);
  t.deepEqual(second.pinned, []);
  t.deepEqual(second.archived, []);
  t.is(second.next_cursor, null);
});

test('hidden chats (evaluation answers) stay out of every list, pinned and archived ones included, and still open by id', async (t) => {
  const { p, api } = await userWithChats(1);
  for (const chatId of ['h-pinned', 'h-archived', 'h-plain']) await appendMessage(deps(t0), p, { chatId, role: 'user', content: 'evaluation question', hidden: true });
  await pinChat(deps(t0), p, { chatId: 'h-pinned' });
  await archiveChat(deps(t0), p, { chatId: 'h-archived' });
  const page = await api.json<ChatHistoryResponse>(api.get('/api/chat_history'));
  t.deepEqual(page.chats.map((c) => c.chat_id), ['c0']);
  t.deepEqual(page.pinned, []);
  t.deepEqual(page.archived, []);
  t.is((await api.get('/api/c2/h-pinned')).status, 200);
});

test('pages stay stable while chats are inserted between and during page reads', async (t) => {
  const { p, api } = await userWithChats(40);
  const seen: string[] = [];
  let cursor: string | null = '';
  let extra = 0;
  while (cursor !== null) {
    const url: string = `/api/chat_history?limit=7${cursor ? `&cursor=${cursor}` : ''}`;
    // A request in flight while new chats arrive, as the agent writes in parallel.
    const pending = api.json<ChatHistoryResponse>(api.get(url));
    for (let i = 0; i < 3; i++) await appendMessage(deps(t0), p, { chatId: `new${extra++}`, role: 'user', content: 'late' });
    const page: ChatHistoryResponse = await pending;
    seen.push(...page.chats.map((c) => c.chat_id));
    cursor = page.next_cursor;
  }
  const original = seen.filter((id) => id.startsWith('c'));
  t.deepEqual(original, Array.from({ length: 40 }, (_, i) => `c${39 - i}`));
  t.is(new Set(seen).size, seen.length);
});

test('limits are enforced at their edges', async (t) => {
  const { api } = await userWithChats(2);
  t.is((await api.get('/api/chat_history?limit=1')).status, 200);
  t.is((await api.get('/api/chat_history?limit=500')).status, 200);
  for (const bad of ['0', '501', 'x']) {
    const res = await api.get(`/api/chat_history?limit=${bad}`);
    t.is(res.status, 422);
    t.deepEqual(await locs(res), [['query', 'limit']]);
  }
  const long = await api.get(`/api/chat_history?cursor=${'a'.repeat(201)}`);
  t.is(long.status, 422);
  t.deepEqual(await locs(long), [['query', 'cursor']]);
});

test('cursors are short, opaque and tamper-evident', async (t) => {
  const { api } = await userWithChats(5);
  const { next_cursor } = await api.json<ChatHistoryResponse>(api.get('/api/chat_history?limit=1'));
  t.truthy(next_cursor);
  t.true(next_cursor!.length <= 200);
  const [payload, sig] = next_cursor!.split('.');
  const forged = Buffer.from(JSON.stringify({ v: 1, k: 999999 })).toString('base64url');
  for (const bad of [`${forged}.${sig}`, `${payload}.${sig}x`, 'garbage', `${payload}`]) {
    const res = await api.get(`/api/chat_history?cursor=${encodeURIComponent(bad)}`);
    t.is(res.status, 422, bad);
    t.deepEqual(await locs(res), [['query', 'cursor']]);
  }
});

test('a cursor issued to another user is refused', async (t) => {
  const a = await userWithChats(3);
  const b = await userWithChats(3);
  const { next_cursor } = await a.api.json<ChatHistoryResponse>(a.api.get('/api/chat_history?limit=1'));
  t.is((await b.api.get(`/api/chat_history?cursor=${next_cursor}`)).status, 422);
});

test('history is scoped to the user and the organization', async (t) => {
  const a = await userWithChats(2, t0.org('scoped'));
  const other = t0.user({ orgId: 'scoped' });
  const mine = await a.api.json<ChatHistoryResponse>(a.api.get('/api/chat_history'));
  t.is(mine.chats.length, 2);
  const theirs = await client(t0, t0.session(other)).json<ChatHistoryResponse>(client(t0, t0.session(other)).get('/api/chat_history'));
  t.deepEqual(theirs.chats, []);
  // The same person acting in another organization sees that organization's chats only.
  t0.org('globex');
  const db = t0.app.services.store.sqlite!;
  db.prepare("INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (?, 'globex', 'user', 0)").run(a.user.id);
  const elsewhere = client(t0, t0.session(a.user, 'globex'));
  t.deepEqual((await elsewhere.json<ChatHistoryResponse>(elsewhere.get('/api/chat_history'))).chats, []);
});

test('chat_history needs a credential', async (t) => {
  t.is((await t0.fetch('/api/chat_history')).status, 401);
});
