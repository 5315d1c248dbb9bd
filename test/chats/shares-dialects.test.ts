// Shares, downloads' sources, exports and suggestions on SQLite and PostgreSQL: the public view shows
// displayed messages only and no credits, a share's id is random and new on every share (never the
// chat's id), downloads reach a shared chat by its share id only inside its organization, and exports
// list only what the caller may see.
import { sql } from 'kysely';
import type { Principal } from '../../src/auth/index.ts';
import {
  appendMessage,
  deleteMessage,
  deleteSharedChat,
  exportHistory,
  findDownloadSource,
  initialSuggestions,
  listShares,
  loadSharedChat,
  recordAnswer,
  shareChat,
  shareMessage,
  type ExportRow,
} from '../../src/chats/index.ts';
import { FakeClock } from '../../src/clock.ts';
import type { Executor } from '../../src/store/executor.ts';
import { dialectTest } from '../helpers/executors.ts';
import { seedAccounts, who } from './dialects.ts';

const as = (orgId: string, userId: string, role: Principal['role'] = 'user') => ({ ...who(orgId, userId), role }) as Principal;
const OWNER = as('acme', 'u1');
const COLLEAGUE = as('acme', 'u2');
const ELSEWHERE = as('other', 'u2');
const answer = (n: number) => ({ tables: [{ df_key: `df_${n}`, sql: `SELECT ${n}`, connection_id: 'wh', dialect: 'duckdb', columns: ['x'] }] });

/** The owner's chat 'c': q1 a1, a hidden note, q2 a2. */
async function setup(x: Executor) {
  await seedAccounts(x);
  const deps = { store: x, clock: new FakeClock(1_000) };
  const ids: string[] = [];
  for (const n of [1, 2]) {
    ids.push((await appendMessage(deps, OWNER, { chatId: 'c', role: 'user', content: `q${n}` })).message_uuid);
    if (n === 1) await appendMessage(deps, OWNER, { chatId: 'c', role: 'system', content: 'hidden note', displayed: false });
    ids.push((await recordAnswer(deps, OWNER, { chatId: 'c', content: `a${n}`, answer: answer(n), credits: 1 })).message_uuid);
    deps.clock.advance(10);
  }
  return { deps, ids };
}

dialectTest('a shared chat shows its displayed messages to anyone; a shared message only its pair; both list and delete', async (t, { x }) => {
  const { deps, ids } = await setup(x);
  const whole = await shareChat(deps, OWNER, { chatId: 'c' });
  t.not(whole.chat_id, 'c', 'the share has its own id, not the chat\'s');
  await t.throwsAsync(loadSharedChat(deps, 'c', {}), { code: 'SHARE_NOT_FOUND' }, 'the chat id is no share link');
  const page = await loadSharedChat(deps, whole.chat_id, { pairs: 10 });
  t.deepEqual(page.messages.map((m) => m.content), ['q1', 'a1', 'q2', 'a2']);
  t.like(page.chat, { chat_id: whole.chat_id, labels: [], pinned: false, recently_completed: false });
  deps.clock.advance(10);
  const one = await shareMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[1]! });
  t.deepEqual((await loadSharedChat(deps, one.chat_id, {})).messages.map((m) => m.content), ['q1', 'a1']);
  t.deepEqual(await listShares(deps, OWNER, { chatId: 'c' }), [
    { chat_id: one.chat_id, message_uuid: ids[1], shared_at: one.shared_at },
    { chat_id: whole.chat_id, message_uuid: null, shared_at: whole.shared_at },
  ]);
  await t.throwsAsync(shareMessage(deps, OWNER, { chatId: 'c', messageUuid: 'nope' }), { code: 'MESSAGE_NOT_FOUND' });
  await deleteMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[1]! });
  await deleteMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[0]! });
  await t.throwsAsync(loadSharedChat(deps, one.chat_id, {}), { code: 'SHARE_NOT_FOUND' });
  t.deepEqual((await listShares(deps, OWNER, { chatId: 'c' })).map((s) => s.chat_id), [whole.chat_id], 'a share of a deleted message is left out');
  await t.throwsAsync(deleteSharedChat(deps, COLLEAGUE, { chatId: whole.chat_id }), { code: 'SHARE_NOT_FOUND' });
  await deleteSharedChat(deps, OWNER, { chatId: whole.chat_id });
  await t.throwsAsync(loadSharedChat(deps, whole.chat_id, {}), { code: 'SHARE_NOT_FOUND' });
});

dialectTest('every share gets a new random id of 128 bits or more; sharing again retires the earlier link and stopping never revives it', async (t, { x }) => {
  const { deps, ids } = await setup(x);
  const made = [await shareChat(deps, OWNER, { chatId: 'c' }), await shareChat(deps, OWNER, { chatId: 'c' }), await shareMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[1]! })];
  for (const m of made) t.regex(m.chat_id, /^[A-Za-z0-9_-]{22,}$/, '22 base64url characters carry 128 bits');
  t.is(new Set(made.map((m) => m.chat_id)).size, 3);
  await t.throwsAsync(loadSharedChat(deps, made[0]!.chat_id, {}), { code: 'SHARE_NOT_FOUND' }, 'one whole-chat link per chat: the later share replaced it');
  t.deepEqual((await listShares(deps, OWNER, { chatId: 'c' })).filter((s) => s.message_uuid === null).map((s) => s.chat_id), [made[1]!.chat_id]);
  await deleteSharedChat(deps, OWNER, { chatId: made[1]!.chat_id });
  const again = await shareChat(deps, OWNER, { chatId: 'c' });
  t.false(made.some((m) => m.chat_id === again.chat_id));
  for (const gone of [made[0]!, made[1]!]) await t.throwsAsync(loadSharedChat(deps, gone.chat_id, {}), { code: 'SHARE_NOT_FOUND' });
  await t.throwsAsync(deleteSharedChat(deps, OWNER, { chatId: made[1]!.chat_id }), { code: 'SHARE_NOT_FOUND' });
  t.is((await loadSharedChat(deps, again.chat_id, { pairs: 10 })).messages.length, 4);
});

dialectTest('two shares of one chat at once leave exactly one whole-chat link, the one a caller was given', async (t, { x, other }) => {
  const { deps } = await setup(x);
  const both = await Promise.all([shareChat(deps, OWNER, { chatId: 'c' }), shareChat({ ...deps, store: other }, OWNER, { chatId: 'c' })]);
  const listed = await listShares(deps, OWNER, { chatId: 'c' });
  t.is(listed.length, 1);
  t.true(both.some((b) => b.chat_id === listed[0]!.chat_id));
});

dialectTest('the public view shows no credits and no id of the chat an answer was copied from', async (t, { x }) => {
  const { deps } = await setup(x);
  await appendMessage(deps, OWNER, { chatId: 'c', role: 'user', content: 'q3' });
  await recordAnswer(deps, OWNER, { chatId: 'c', content: 'a3', answer: answer(3), copiedFromChatId: 'private-chat' });
  const share = await shareChat(deps, OWNER, { chatId: 'c' });
  const page = await loadSharedChat(deps, share.chat_id, { pairs: 10 });
  t.deepEqual(page.messages.map((m) => m.content), ['q1', 'a1', 'q2', 'a2', 'q3', 'a3']);
  t.true(page.messages.every((m) => m.credits === null && m.copied_from_chat_id === null));
  t.false(JSON.stringify(page).includes('private-chat'));
});

dialectTest(
  'shares of one millisecond are listed by the bytes of their ids, last first, whatever the collation of the database',
  async (t, { x }) => {
    const { deps, ids } = await setup(x);
    const made = [await shareMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[1]! }), await shareMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[3]! }), await shareMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[1]! })];
    // Ids chosen so that byte order (capitals first) and a linguistic order disagree.
    for (const [i, id] of ['b1', 'B2', 'a3'].entries()) await x.run(sql`UPDATE chat_shares SET share_id = ${id} WHERE share_id = ${made[i]!.chat_id}`);
    t.deepEqual((await listShares(deps, OWNER, { chatId: 'c' })).map((s) => s.chat_id), ['b1', 'a3', 'B2']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest('others cannot share or list a chat; another organization\'s chat of the same id is shared apart, under its own id', async (t, { x }) => {
  const { deps } = await setup(x);
  await t.throwsAsync(shareChat(deps, COLLEAGUE, { chatId: 'c' }), { code: 'CHAT_NOT_FOUND' });
  await t.throwsAsync(listShares(deps, COLLEAGUE, { chatId: 'c' }), { code: 'CHAT_NOT_FOUND' });
  const mine = await shareChat(deps, OWNER, { chatId: 'c' });
  await appendMessage(deps, ELSEWHERE, { chatId: 'c', role: 'user', content: 'same id elsewhere' });
  const theirs = await shareChat(deps, ELSEWHERE, { chatId: 'c' });
  t.not(theirs.chat_id, mine.chat_id);
  t.deepEqual((await loadSharedChat(deps, mine.chat_id, { pairs: 10 })).messages.map((m) => m.content), ['q1', 'a1', 'q2', 'a2']);
  t.deepEqual((await loadSharedChat(deps, theirs.chat_id, { pairs: 10 })).messages.map((m) => m.content), ['same id elsewhere']);
  await t.throwsAsync(deleteSharedChat(deps, ELSEWHERE, { chatId: mine.chat_id }), { code: 'SHARE_NOT_FOUND' });
  t.is((await loadSharedChat(deps, mine.chat_id, { pairs: 10 })).messages.length, 4);
});

dialectTest('downloads read the owner\'s answers, a shared chat\'s inside its organization, and nothing else', async (t, { x }) => {
  const { deps, ids } = await setup(x);
  t.like(await findDownloadSource(deps, OWNER, 'c', { dfKey: 'df_2' }), { access: 'owner', sql: 'SELECT 2' });
  await t.throwsAsync(findDownloadSource(deps, COLLEAGUE, 'c', { dfKey: 'df_1' }), { code: 'CHAT_NOT_FOUND' });
  const one = await shareMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[3]! });
  t.like(await findDownloadSource(deps, COLLEAGUE, one.chat_id, { dfKey: 'df_2' }), { access: 'shared', chat_id: one.chat_id });
  await t.throwsAsync(findDownloadSource(deps, COLLEAGUE, one.chat_id, { dfKey: 'df_1' }), { code: 'DF_KEY_NOT_FOUND' }, 'outside the shared pair');
  await t.throwsAsync(findDownloadSource(deps, ELSEWHERE, one.chat_id, { dfKey: 'df_2' }), { code: 'CHAT_NOT_FOUND' });
  const whole = await shareChat(deps, OWNER, { chatId: 'c' });
  t.like(await findDownloadSource(deps, COLLEAGUE, whole.chat_id, { dfKey: 'df_1' }), { access: 'shared', sql: 'SELECT 1' });
  await t.throwsAsync(findDownloadSource(deps, COLLEAGUE, 'c', { dfKey: 'df_1' }), { code: 'CHAT_NOT_FOUND' }, 'the chat\'s own id opens nothing');
  await t.throwsAsync(findDownloadSource(deps, ELSEWHERE, whole.chat_id, { dfKey: 'df_1' }), { code: 'CHAT_NOT_FOUND' });
  t.like(await findDownloadSource(deps, as('acme', 'u2', 'modeler'), 'c', { latest: true }), { access: 'role', sql: 'SELECT 2' });
});

dialectTest('an export lists displayed messages oldest first: the caller\'s own (another\'s refused), or an admin\'s pick, in the organization only', async (t, { x }) => {
  const { deps } = await setup(x);
  await appendMessage(deps, COLLEAGUE, { chatId: 'theirs', role: 'user', content: 'colleague question' });
  await appendMessage(deps, ELSEWHERE, { chatId: 'far', role: 'user', content: 'other organization' });
  const users = { emails: async (ids: readonly string[]) => new Map(ids.map((id) => [id, `${id}@example.com`])) };
  const rows = async (p: Principal, filter = {}) => {
    const out: ExportRow[] = [];
    for await (const r of exportHistory({ ...deps, users }, p, filter)) out.push(r);
    return out;
  };
  t.throws(() => exportHistory({ ...deps, users }, OWNER, { userId: 'u2' }), { code: 'EXPORT_OF_OTHERS_FORBIDDEN' }, 'a non-admin naming someone else is refused');
  const mine = await rows(OWNER, { userId: 'u1' });
  t.deepEqual(mine.map((r) => r.content), ['q1', 'a1', 'q2', 'a2'], 'a user naming themselves gets their own');
  t.like(mine[1], { chat_id: 'c', user_email: 'u1@example.com', role: 'assistant', sql: 'SELECT 1', connection_id: 'wh', credits: 1, created_at: new Date(1_000).toISOString() });
  t.deepEqual((await rows(as('acme', 'u1', 'admin'))).map((r) => r.content), ['q1', 'a1', 'q2', 'a2', 'colleague question']);
  t.deepEqual((await rows(as('acme', 'u1', 'admin'), { userId: 'u2' })).map((r) => r.content), ['colleague question']);
  t.deepEqual((await rows(OWNER, { from: 1_010, to: 1_011 })).map((r) => r.content), ['q2', 'a2']);
});

dialectTest('suggestions start with the caller\'s own recent questions', async (t, { x }) => {
  const { deps } = await setup(x);
  await appendMessage(deps, COLLEAGUE, { chatId: 'theirs', role: 'user', content: 'colleague question' });
  const none = { tables: async () => [], reports: async () => [] };
  t.deepEqual((await initialSuggestions(deps, none, OWNER)).map((s) => s.text), ['q2', 'q1']);
  t.like(await x.one(sql<{ n: number }>`SELECT COUNT(*) AS n FROM chats`), { n: 2 });
});
