import test from 'ava';
import { appendMessage, type ChatSearchResponse } from '../../src/chats/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { client, deps, locs, principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

function searcher(org = t0.org()) {
  const user = t0.user({ orgId: org });
  const p = principalOf(t0, user, org);
  return { user, p, org, api: client(t0, t0.session(user, org)) };
}

test('search_chats finds words anywhere in message bodies, ranked, with a highlighted snippet', async (t) => {
  const { p, api } = searcher();
  await seedChat(t0, p, 'revenue', [{ question: 'What was revenue by country last year?', answer: 'Revenue by country: United States leads, then Germany and Japan.' }]);
  await seedChat(t0, p, 'churn', [{ question: 'How many customers churned?', answer: 'About 4% of customers churned; revenue impact was small.' }]);
  await seedChat(t0, p, 'other', [{ question: 'List product categories', answer: 'Electronics, Home, Clothing.' }]);
  const res = await api.get('/api/search_chats?q=revenue%20country');
  t.is(res.status, 200);
  const body = (await res.json()) as ChatSearchResponse;
  t.deepEqual(body.results.map((r) => r.chat_id), ['revenue']);
  t.regex(body.results[0]!.snippet, /<mark>[Rr]evenue<\/mark>/);
  const broad = await api.json<ChatSearchResponse>(api.get('/api/search_chats?q=revenue'));
  t.deepEqual(new Set(broad.results.map((r) => r.chat_id)), new Set(['revenue', 'churn']));
  t.true(broad.results[0]!.score >= broad.results[1]!.score);
  // The last word matches as a prefix, for search-as-you-type.
  const prefix = await api.json<ChatSearchResponse>(api.get('/api/search_chats?q=categ'));
  t.deepEqual(prefix.results.map((r) => r.chat_id), ['other']);
});

test('search returns one hit per chat and respects the limit', async (t) => {
  const { p, api } = searcher();
  for (let i = 0; i < 5; i++) await seedChat(t0, p, `k${i}`, [{ question: 'kpi report', answer: 'kpi kpi kpi' }]);
  const body = await api.json<ChatSearchResponse>(api.get('/api/search_chats?q=kpi&limit=3'));
  t.is(body.results.length, 3);
  t.is(new Set(body.results.map((r) => r.chat_id)).size, 3);
});

test('search sees only the caller\'s own chats, in the current organization', async (t) => {
  const org = t0.org();
  const a = searcher(org);
  const b = searcher(org);
  const admin = t0.user({ orgId: org, role: 'admin' });
  await seedChat(t0, a.p, 'secret-a', [{ question: 'zebra margins', answer: 'zebra margins are 12%' }]);
  t.is((await b.api.json<ChatSearchResponse>(b.api.get('/api/search_chats?q=zebra'))).results.length, 0);
  const adminApi = client(t0, t0.session(admin));
  t.is((await adminApi.json<ChatSearchResponse>(adminApi.get('/api/search_chats?q=zebra'))).results.length, 0);
  t.is((await a.api.json<ChatSearchResponse>(a.api.get('/api/search_chats?q=zebra'))).results.length, 1);
  // The same person acting in another organization finds nothing there.
  const elsewhere = t0.org();
  t0.app.services.store.sqlite!.prepare("INSERT INTO memberships (user_id, org_id, role, created_at) VALUES (?, ?, 'user', 0)").run(a.user.id, elsewhere);
  const there = client(t0, t0.session(a.user, elsewhere));
  t.is((await there.json<ChatSearchResponse>(there.get('/api/search_chats?q=zebra'))).results.length, 0);
});

test('hidden messages are not searchable and snippets are HTML-escaped', async (t) => {
  const { p, api } = searcher();
  await appendMessage(deps(t0), p, { chatId: 'h', role: 'system', content: 'internal giraffe context', displayed: false });
  await appendMessage(deps(t0), p, { chatId: 'x', role: 'user', content: '<script>alert(1)</script> okapi' });
  t.is((await api.json<ChatSearchResponse>(api.get('/api/search_chats?q=giraffe'))).results.length, 0);
  const hit = await api.json<ChatSearchResponse>(api.get('/api/search_chats?q=okapi'));
  t.false(hit.results[0]!.snippet.includes('<script>'));
  t.true(hit.results[0]!.snippet.includes('&lt;/script&gt; <mark>okapi</mark>'));
});

test('hostile query syntax is searched as text and never fails', async (t) => {
  const { p, api } = searcher();
  await seedChat(t0, p, 'q', [{ question: 'NEAR and OR and NOT', answer: 'body: "quoted" (paren) * star' }]);
  const hostile = ['"', '""', '*', 'NEAR(', 'a OR', 'NOT', 'body:', 'scope:x', '(a', ')', '^x', 'a AND', '-x', "'; DROP TABLE chats; --", '\u0000', '{body scope}: x', 'x'.repeat(200), '"unterminated', 'a"b"c'];
  for (const q of hostile) {
    const res = await api.get(`/api/search_chats?q=${encodeURIComponent(q)}`);
    t.is(res.status, 200, q);
  }
  const near = await api.json<ChatSearchResponse>(api.get('/api/search_chats?q=NEAR%20NOT'));
  t.deepEqual(near.results.map((r) => r.chat_id), ['q']);
});

test('search limits are enforced at their edges', async (t) => {
  const { api } = searcher();
  t.is((await api.get(`/api/search_chats?q=${'a'.repeat(200)}`)).status, 200);
  t.is((await api.get('/api/search_chats?q=a&limit=1')).status, 200);
  t.is((await api.get('/api/search_chats?q=a&limit=100')).status, 200);
  const long = await api.get(`/api/search_chats?q=${'a'.repeat(201)}`);
  t.is(long.status, 422);
  t.deepEqual(await locs(long), [['query', 'q']]);
  for (const limit of ['0', '101']) t.deepEqual(await locs(await api.get(`/api/search_chats?q=a&limit=${limit}`)), [['query', 'limit']]);
  t.deepEqual(await locs(await api.get('/api/search_chats')), [['query', 'q']]);
  t.is((await t0.fetch('/api/search_chats?q=a')).status, 401);
});
