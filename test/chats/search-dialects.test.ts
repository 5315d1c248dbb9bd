// Chat search gives the same answers on SQLite (FTS5) and PostgreSQL (tsvector, GIN): the same
// fixture chats on both, then a table of queries (words, prefixes, phrases, accents and case, hostile
// input) whose results, ids, order, scores and snippets included, must be equal; another user's,
// another organization's, hidden and undisplayed messages never match.
import test from 'ava';
import { sql } from 'kysely';
import { appendMessage, createSearchIndexer, indexPendingMessages, recordAnswer, searchChats, type ChatSearchResponse } from '../../src/chats/index.ts';
import { systemClock } from '../../src/clock.ts';
import type { Executor } from '../../src/store/executor.ts';
import { dialectTest } from '../helpers/executors.ts';
import { SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { insertChat, openBoth, seedAccounts, who } from './dialects.ts';
const OWNER = who('acme', 'u1');

/** Chats of the owner (acme/u1), oldest first: [chat id, messages]. */
const OWN_CHATS: [string, string[]][] = [
  ['rev-country', ['What was revenue by country last year?', 'Revenue by country: United States leads, then Germany and Japan.']],
  ['churn', ['How many customers churned?', 'About 4% of customers churned; revenue impact was small.']],
  ['long', ['Summarize the quarter', `${'Filler words about the business and its many numbers. '.repeat(12)}Revenue grew.`]],
  ['rev-rev', ['revenue revenue revenue', 'Revenue, again: revenue growth by month.']],
  ['accents', ['Umsätze nach Région, naïve café', 'ÉCOLE İstanbul Crème brûlée']],
  ['code', ["SELECT SUM(total_amount) FROM orders WHERE status = 'completed'", 'orders.total_amount is in cents; see a@b.com or https://x.io/p?q=1']],
  ['punct', ["don't it's O'Brien foo-bar x_y 3.14", '«quoted» “curly” 2025-01-01 🚀 launch']],
  ['scripts', ['日本語のテキスト 中文', 'Ünïcödé NEAR OR AND NOT body scope']],
  ['revision', ['Revisions of the revenue report', 'Reviewed: revenues restated, reverted later.']],
  ['growth', ['growth of revenue', 'growth growth growth']],
  ['mixed', ['Résumé2 and Señor7 drafts', 'plan B2']],
];

async function seed(x: Executor): Promise<void> {
  await seedAccounts(x);
  const chat = (orgId: string, userId: string, chatId: string, messages: string[], more: { hidden?: number; displayed?: number } = {}) =>
    insertChat(x, { orgId, userId, chatId, messages, ...more });
  // Others' messages hold the owner's words too, interleaved with the owner's.
  await chat('acme', 'u2', 'colleague', ['revenue secret of a colleague', 'revenue café O\'Brien']);
  for (const [i, [chatId, messages]] of OWN_CHATS.entries()) {
    await chat('acme', 'u1', chatId, messages);
    if (i === 4) await chat('other', 'u1', 'elsewhere', ['revenue secret of another organization', 'growth revenue']);
  }
  await chat('acme', 'u1', 'evaluation', ['revenue secret of a hidden chat'], { hidden: 1 });
  await chat('acme', 'u1', 'context', ['revenue secret kept for the agent only'], { displayed: 0 });
  await indexPendingMessages(x);
}

/** Queries and, where it matters, the chats they must find (in order) on both dialects. */
const QUERIES: [string, string[]?][] = [
  ['revenue', ['rev-rev', 'growth', 'revision', 'rev-country', 'churn', 'long']],
  ['REVENUE'],
  ['Revenue growth', ['growth', 'rev-rev']],
  ['rev'],
  ['revenue rev'],
  ['reven'],
  ['growth rev'],
  ['country revenue', ['rev-country']],
  ['cafe', ['accents']],
  ['café'],
  ['resume2', ['mixed']],
  ['RÉSUMÉ2', ['mixed']],
  ['senor7', ['mixed']],
  ['CAFÉ'],
  ['naive'],
  ['umsatze', ['accents']],
  ['région'],
  ['ecole'],
  ['istanbul'],
  ['creme brulee'],
  ['foo-bar', ['punct']],
  ['foo bar'],
  ['bar-foo', []],
  ['"foo bar"'],
  ['orders.total_amount', ['code']],
  ['total_amount'],
  ['total'],
  ['a@b.com', ['code']],
  ['https://x.io/p?q=1'],
  ['3.14', ['punct']],
  ['3'],
  ["O'Brien", ['punct']],
  ['brien'],
  ['obrien', []],
  ["don't"],
  ['2025-01-01'],
  ['«quoted»'],
  ['curly'],
  ['日本語のテキスト', ['scripts']],
  ['中文'],
  ['unicode'],
  ['SUM(total_amount)', ['code']],
  ['NEAR OR AND NOT', ['scripts']],
  ['revenue OR churn', []],
  ['revenue AND churn', []],
  ['NOT revenue', []],
  ['NEAR(revenue churn)', []],
  ['body:revenue'],
  ['scope:revenue'],
  ['-revenue'],
  ['+revenue'],
  ['^revenue'],
  ['revenue*'],
  ['*', []],
  ['"', []],
  ["'", []],
  ['( ) : * ^ " - + { }', []],
  ["'; DROP TABLE chats; --"],
  ['%', []],
  ['_revenue_'],
  ['\\revenue\\'],
  ['\u0000revenue\u0007'],
  ['reve\u0000nue'],
  ['secret', []],
  ['colleague', []],
  ['a'.repeat(1000), []],
  ['é'.repeat(1000), []],
  ['語'.repeat(1000), []],
  ['revenue '.repeat(125)],
  [Array.from({ length: 200 }, (_, i) => `w${i}`).join(' '), []],
  ['zzz nothing', []],
];

const OWN = new Set(OWN_CHATS.map(([id]) => id));

test('every query of the table finds the same chats and messages, in the same order, with the same scores and snippets, on SQLite and PostgreSQL', async (t) => {
  const both = await openBoth(t);
  if (!both) return t.log(SKIP_PG_STORE), t.pass();
  for (const x of both) await seed(x);
  const [lite, pg] = both;
  for (const [q, expected] of QUERIES) {
    for (const limit of [30, 2]) {
      const onLite = await searchChats({ store: lite }, OWNER, { q, limit });
      const onPg = await searchChats({ store: pg }, OWNER, { q, limit });
      const label = `${JSON.stringify(q.slice(0, 40))} limit ${limit}`;
      t.deepEqual(onPg, onLite, label);
      t.deepEqual(onLite.results.filter((r) => !OWN.has(r.chat_id)), [], `${label}: only the owner's shown chats`);
      if (expected) t.deepEqual(onLite.results.map((r) => r.chat_id), expected.slice(0, limit), label);
    }
  }
});

const ids = (r: ChatSearchResponse) => r.results.map((h) => `${h.chat_id}/${h.message_uuid}`);

dialectTest('a search finds only the caller\'s own shown messages in the current organization', async (t, { x }) => {
  await seed(x);
  t.deepEqual(ids(await searchChats({ store: x }, OWNER, { q: 'secret' })), []);
  t.deepEqual(ids(await searchChats({ store: x }, who('acme', 'u2'), { q: 'secret' })), ['colleague/colleague-0']);
  t.deepEqual(ids(await searchChats({ store: x }, who('other', 'u1'), { q: 'revenue' })), ['elsewhere/elsewhere-1'], 'one hit per chat: its best message');
  t.deepEqual(ids(await searchChats({ store: x }, who('other', 'u2'), { q: 'revenue' })), [], 'a user of no chat in that organization');
});

dialectTest('a search highlights the matched words, accents and case folded, in an HTML-safe snippet', async (t, { x }) => {
  await seed(x);
  const [hit] = (await searchChats({ store: x }, OWNER, { q: 'cafe REGION' })).results;
  t.is(hit?.snippet, 'Umsätze nach <mark>Région</mark>, naïve <mark>café</mark>');
  const [code] = (await searchChats({ store: x }, OWNER, { q: 'status completed' })).results;
  t.is(code?.snippet, 'SELECT SUM(total_amount) FROM orders WHERE <mark>status</mark> = &#39;<mark>completed</mark>');
});

dialectTest('a message written after the last indexing is found by the next search, and only once', async (t, { x }) => {
  await seed(x);
  await x.run(sql`INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, created_at)
    VALUES ((SELECT id FROM chats WHERE org_id = 'acme' AND chat_id = 'churn'), 'late', 'user', 'platypus sightings', 9, 99)`);
  t.deepEqual(ids(await searchChats({ store: x }, OWNER, { q: 'platypus' })), ['churn/late']);
  t.is(await indexPendingMessages(x), 0, 'nothing is indexed twice');
  await x.run(sql`UPDATE chat_messages SET content = 'echidna sightings' WHERE message_uuid = 'late'`);
  t.deepEqual(ids(await searchChats({ store: x }, OWNER, { q: 'platypus' })), []);
  t.deepEqual(ids(await searchChats({ store: x }, OWNER, { q: 'echidna' })), ['churn/late']);
});

// 3,000 messages of the owner, the newest last: `common` in each, `fifth` in every fifth (600, of which
// 400 among the newest 2,000), `tenth` in every tenth; bodies of varied length, so ranks differ.
async function seedMany(x: Executor): Promise<void> {
  await seedAccounts(x);
  const chats = Array.from({ length: 300 }, (_, i) => sql`('acme', ${`many-${i}`}, 'u1', ${`Many ${i}`}, 1, 2)`);
  await x.run(sql`INSERT INTO chats (org_id, chat_id, user_id, title, created_at, updated_at) VALUES ${sql.join(chats)}`);
  const pks = new Map((await x.all<{ id: number; chat_id: string }>(sql`SELECT id, chat_id FROM chats`)).map((c) => [c.chat_id, c.id]));
  const body = (i: number) => ['common', 'pad '.repeat(i % 7), i % 5 === 0 ? 'fifth' : '', i % 10 === 0 ? 'tenth' : '', i % 3 === 0 ? 'common' : ''].join(' ');
  for (let from = 0; from < 3000; from += 500) {
    const rows = Array.from({ length: 500 }, (_, k) => from + k).map((i) => sql`(${pks.get(`many-${Math.floor(i / 10)}`)!}, ${`m${i}`}, 'user', ${body(i)}, ${i % 10}, 1)`);
    await x.run(sql`INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, created_at) VALUES ${sql.join(rows)}`);
  }
  await indexPendingMessages(x);
}

test('words common or rare among thousands of messages find the same newest window, ranked alike, on SQLite and PostgreSQL', async (t) => {
  const both = await openBoth(t);
  if (!both) return t.log(SKIP_PG_STORE), t.pass();
  for (const x of both) await seedMany(x);
  const [lite, pg] = both;
  for (const q of ['common', 'fifth', 'tenth', 'common fifth', 'comm', 'fif', 'pad tenth']) {
    const onLite = await searchChats({ store: lite }, OWNER, { q, limit: 100 });
    t.deepEqual(await searchChats({ store: pg }, OWNER, { q, limit: 100 }), onLite, q);
    // The newest 500 matches of `common` lie in 50 chats; the others fill the limit.
    t.is(onLite.results.length, q.startsWith('comm') && !q.includes('fifth') ? 50 : 100, q);
  }
});

dialectTest('two replicas indexing the same queue at once index every message once', async (t, { x, other }) => {
  await seedAccounts(x);
  for (let i = 0; i < 20; i++) await insertChat(x, { orgId: 'acme', userId: 'u1', chatId: `q${i}`, messages: [`wallaby ${i}`, `answer ${i}`] });
  const slices = await Promise.all([indexPendingMessages(x, 7), indexPendingMessages(other, 7), indexPendingMessages(other), indexPendingMessages(x)]);
  t.is(slices.reduce((a, b) => a + b, 0), 40);
  const count = async (table: string) => (await x.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ${sql.table(table)}`))!.n;
  t.is(await count('chat_messages_fts'), 40);
  t.is(await count('chat_messages_fts_pending'), 0);
  t.is((await searchChats({ store: other }, OWNER, { q: 'wallaby', limit: 100 })).results.length, 20);
});

dialectTest('the search indexer drains the queue as messages are written, so a search finds it empty', async (t, { x }) => {
  await seedAccounts(x);
  const errors: unknown[] = [];
  const searchIndex = createSearchIndexer(x, { onError: (err) => errors.push(err), slice: 3 });
  const deps = { store: x, clock: systemClock, searchIndex };
  const pending = async () => (await x.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM chat_messages_fts_pending`))!.n;
  for (let i = 0; i < 10; i++) {
    await appendMessage(deps, OWNER, { chatId: `arrive-${i}`, role: 'user', content: `quokka ${i}` });
    await recordAnswer(deps, OWNER, { chatId: `arrive-${i}`, content: `answer ${i}` });
  }
  await searchIndex.idle();
  t.is(await pending(), 0, 'nothing is left for a search to index');
  t.is((await x.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM chat_messages_fts`))!.n, 20);
  t.is(await indexPendingMessages(x), 0, 'nothing is indexed twice');
  t.is((await searchChats({ store: x }, OWNER, { q: 'quokka', limit: 100 })).results.length, 10);
  t.deepEqual(errors, []);
});

dialectTest("with a settling wait the indexer leaves a burst's messages queued until then, and idle() drains them at once", async (t, { x }) => {
  await seedAccounts(x);
  // Long enough that the test ends before it would: only idle() can start the drain.
  const searchIndex = createSearchIndexer(x, { onError: (err) => t.fail(String(err)), settleMs: 600_000 });
  const deps = { store: x, clock: systemClock, searchIndex };
  const pending = async () => (await x.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM chat_messages_fts_pending`))!.n;
  for (let i = 0; i < 6; i++) await appendMessage(deps, OWNER, { chatId: `settle-${i}`, role: 'user', content: `numbat ${i}` });
  await new Promise((resolve) => setImmediate(resolve));
  t.is(await pending(), 6, 'nothing is indexed while the burst settles');
  await searchIndex.idle();
  t.is(await pending(), 0);
  t.is((await searchChats({ store: x }, OWNER, { q: 'numbat', limit: 100 })).results.length, 6);
  await appendMessage(deps, OWNER, { chatId: 'settle-late', role: 'user', content: 'numbat late' });
  await searchIndex.idle();
  t.is(await pending(), 0, 'a later nudge settles again, and idle() cuts it short again');
});
