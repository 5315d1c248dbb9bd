import test from 'ava';
import type { ChatPage } from '../../src/chats/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { client, locs, principalOf, seedChat, type PairSpec } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const pairs = (n: number): PairSpec[] => Array.from({ length: n }, (_, i) => ({ question: `q${i}`, answer: `a${i}` }));

async function owner(opts: { agentic?: boolean; n?: number } = {}) {
  const org = t0.org();
  const user = t0.user({ orgId: org });
  const p = principalOf(t0, user, org);
  const spec = pairs(opts.n ?? 12);
  if (spec[3]) spec[3] = { ...spec[3], hiddenAnswer: true };
  const ids = await seedChat(t0, p, 'chat', spec, { agentic: opts.agentic ?? true });
  return { org, user, p, ids, api: client(t0, t0.session(user)) };
}

const contents = (page: ChatPage) => page.messages.map((m) => m.content);

test('an agentic chat opens with its latest pair, then pages by 5 pairs back in time', async (t) => {
  const { api } = await owner();
  const first = await api.json<ChatPage>(api.get('/api/c2/chat'));
  t.deepEqual(contents(first), ['q11', 'a11']);
  t.is(first.pairs, 1);
  t.is(first.total_pairs, 12);
  t.true(first.has_more);
  t.is(first.chat?.chat_id, 'chat');
  const next = await api.json<ChatPage>(api.get('/api/c2/chat?offset=1'));
  t.deepEqual(contents(next), ['q6', 'a6', 'q7', 'a7', 'q8', 'a8', 'q9', 'a9', 'q10', 'a10']);
  const last = await api.json<ChatPage>(api.get('/api/c2/chat?offset=6&pairs=50'));
  // The hidden answer a3 is left out unless include_all is set.
  t.deepEqual(contents(last), ['q0', 'a0', 'q1', 'a1', 'q2', 'a2', 'q3', 'q4', 'a4', 'q5', 'a5']);
  t.false(last.has_more);
  const all = await api.json<ChatPage>(api.get('/api/c2/chat?offset=8&pairs=1&include_all=true'));
  t.deepEqual(contents(all), ['q3', 'a3']);
  t.false(all.messages[1]!.displayed);
});

test('a non-agentic chat pages by 5 pairs from the start', async (t) => {
  const { api } = await owner({ agentic: false });
  const first = await api.json<ChatPage>(api.get('/api/c2/chat'));
  t.is(first.pairs, 5);
  t.deepEqual(contents(first).slice(0, 2), ['q7', 'a7']);
});

test('page_only leaves out the chat record; message_uuid returns only its pair', async (t) => {
  const { ids, api } = await owner();
  const page = await api.json<ChatPage>(api.get('/api/c2/chat?page_only=true&pairs=2'));
  t.is(page.chat, undefined);
  t.is(page.messages.length, 4);
  const one = await api.json<ChatPage>(api.get(`/api/c2/chat?message_uuid=${ids[9]}`));
  t.deepEqual(contents(one), ['q4', 'a4']);
  t.is(one.offset, 7);
  t.is((await api.get('/api/c2/chat?message_uuid=nope')).status, 404);
});

test('an offset past the end gives an empty page', async (t) => {
  const { api } = await owner({ n: 2 });
  const page = await api.json<ChatPage>(api.get('/api/c2/chat?offset=10'));
  t.deepEqual(page.messages, []);
  t.false(page.has_more);
});

test('pairs and offset are validated at their edges', async (t) => {
  const { api } = await owner({ n: 2 });
  for (const ok of ['pairs=1', 'pairs=50', 'offset=0']) t.is((await api.get(`/api/c2/chat?${ok}`)).status, 200, ok);
  for (const [bad, field] of [['pairs=0', 'pairs'], ['pairs=51', 'pairs'], ['offset=-1', 'offset'], ['offset=x', 'offset'], ['include_all=maybe', 'include_all']]) {
    const res = await api.get(`/api/c2/chat?${bad}`);
    t.is(res.status, 422, bad);
    t.deepEqual(await locs(res), [['query', field]]);
  }
});

test('admins and modelers of the organization read any chat; other users and other organizations get 404', async (t) => {
  const { org } = await owner({ n: 2 });
  for (const role of ['admin', 'modeler'] as const) {
    const api = client(t0, t0.session(t0.user({ orgId: org, role })));
    t.is((await api.get('/api/c2/chat')).status, 200, role);
  }
  const peer = client(t0, t0.session(t0.user({ orgId: org })));
  t.is((await peer.get('/api/c2/chat')).status, 404);
  const foreignAdmin = client(t0, t0.session(t0.user({ orgId: t0.org(), role: 'admin' })));
  t.is((await foreignAdmin.get('/api/c2/chat')).status, 404);
  t.is((await client(t0, undefined).get('/api/c2/chat')).status, 401);
});
