// The chat list gives the same pages on SQLite and PostgreSQL: keyset pages newest first, pinned and
// recently archived chats on the first page only, labels sorted, hidden chats and others' chats never
// listed, cursors bound to their user and organization.
import test from 'ava';
import { chatHistory, RECENT_ARCHIVED, type ChatHistoryResponse } from '../../src/chats/index.ts';
import type { Executor } from '../../src/store/executor.ts';
import { dialectTest } from '../helpers/executors.ts';
import { SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { insertChat, openBoth, seedAccounts, who } from './dialects.ts';

const OWNER = who('acme', 'u1');
const cursorKey = 'history-dialects-key';

/** The owner's chats, oldest first, with others' and hidden chats interleaved. */
async function seed(x: Executor): Promise<void> {
  await seedAccounts(x);
  const own = (chatId: string, more: { pinnedAt?: number; archivedAt?: number; hidden?: number; labels?: string[] } = {}) =>
    insertChat(x, { orgId: 'acme', userId: 'u1', chatId, messages: ['question', 'answer'], ...more });
  await own('c1', { labels: ['zeta', 'alpha'] });
  await insertChat(x, { orgId: 'acme', userId: 'u2', chatId: 'colleague' });
  await own('c2');
  await own('p1', { pinnedAt: 500, labels: ['pinned'] });
  await insertChat(x, { orgId: 'other', userId: 'u1', chatId: 'elsewhere' });
  await own('c3');
  await own('hidden', { hidden: 1 });
  await own('hidden-pinned', { hidden: 1, pinnedAt: 900 });
  await own('p2', { pinnedAt: 400, archivedAt: 600 });
  for (let i = 0; i < RECENT_ARCHIVED + 2; i++) await own(`a${i}`, { archivedAt: 1000 + (i % 5) });
  await own('c4', { labels: ['b', 'a', 'c'] });
  await own('c5');
}

async function allPages(x: Executor, limit: number): Promise<ChatHistoryResponse[]> {
  const pages = [await chatHistory({ store: x }, OWNER, { cursorKey, limit })];
  while (pages.at(-1)!.next_cursor) pages.push(await chatHistory({ store: x }, OWNER, { cursorKey, limit, cursor: pages.at(-1)!.next_cursor! }));
  return pages;
}

test('every history page, its chats, pinned and archived lists and cursors, is the same on SQLite and PostgreSQL', async (t) => {
  const both = await openBoth(t);
  if (!both) return t.log(SKIP_PG_STORE), t.pass();
  for (const x of both) await seed(x);
  for (const limit of [1, 2, 40, 500]) t.deepEqual(await allPages(both[1], limit), await allPages(both[0], limit), `limit ${limit}`);
});

dialectTest('history pages list the owner\'s plain chats newest first, each once, pinned and recent archived apart on the first page', async (t, { x }) => {
  await seed(x);
  const pages = await allPages(x, 2);
  t.deepEqual(pages.map((p) => p.chats.map((c) => c.chat_id)), [['c5', 'c4'], ['c3', 'c2'], ['c1']]);
  t.deepEqual(pages[0]!.pinned.map((c) => c.chat_id), ['p1', 'p2'], 'by pin time, hidden left out, pinned before archived');
  const archived = pages[0]!.archived.map((c) => c.chat_id);
  t.is(archived.length, RECENT_ARCHIVED);
  t.deepEqual(archived.slice(0, 5), ['a19', 'a14', 'a9', 'a4', 'a18'], 'by archive time, then newest');
  t.deepEqual(pages.slice(1).flatMap((p) => [...p.pinned, ...p.archived]), [], 'later pages carry no pinned or archived chats');
  const c4 = pages[0]!.chats[1]!;
  t.like(c4, { labels: ['a', 'b', 'c'], pinned: false, archived: false, agentic: true, title: 'Title c4', created_at: 1, updated_at: 2 });
  t.deepEqual(pages[0]!.pinned[0]!.labels, ['pinned']);
  t.deepEqual(pages[2]!.chats[0]!.labels, ['alpha', 'zeta']);
  t.is(pages[2]!.next_cursor, null);
});

dialectTest('a history cursor works only for the user and organization it was issued to', async (t, { x }) => {
  await seed(x);
  const { next_cursor: cursor } = await chatHistory({ store: x }, OWNER, { cursorKey, limit: 1 });
  t.truthy(cursor);
  await t.throwsAsync(chatHistory({ store: x }, who('acme', 'u2'), { cursorKey, cursor: cursor! }), { code: 'VALIDATION_FAILED' });
  await t.throwsAsync(chatHistory({ store: x }, who('other', 'u1'), { cursorKey, cursor: cursor! }), { code: 'VALIDATION_FAILED' });
  await t.throwsAsync(chatHistory({ store: x }, OWNER, { cursorKey, cursor: `${cursor!}x` }), { code: 'VALIDATION_FAILED' });
  t.deepEqual((await chatHistory({ store: x }, who('acme', 'u2'), { cursorKey })).chats.map((c) => c.chat_id), ['colleague']);
  t.deepEqual((await chatHistory({ store: x }, who('other', 'u1'), { cursorKey })).chats.map((c) => c.chat_id), ['elsewhere']);
  t.deepEqual(await chatHistory({ store: x }, who('other', 'u2'), { cursorKey }), { chats: [], pinned: [], archived: [], next_cursor: null });
});
