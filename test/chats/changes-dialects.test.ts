// The owner's changes on SQLite and PostgreSQL: pins, archive, the completion flag, labels (at most
// MAX_LABELS, even when added concurrently), feedback, deleting and moving messages; none of them
// reaches another user's chat or another organization's.
import { sql } from 'kysely';
import type { Principal } from '../../src/auth/index.ts';
import {
  addLabelToChat,
  appendMessage,
  archiveChat,
  deleteMessage,
  dismissChatCompletion,
  loadChat,
  MAX_LABELS,
  pinChat,
  recordAnswer,
  recordFeedback,
  saveMessageOrder,
} from '../../src/chats/index.ts';
import { FakeClock } from '../../src/clock.ts';
import type { Executor } from '../../src/store/executor.ts';
import { dialectTest } from '../helpers/executors.ts';
import { seedAccounts, who } from './dialects.ts';

const as = (orgId: string, userId: string, role: Principal['role'] = 'user') => ({ ...who(orgId, userId), role }) as Principal;
const OWNER = as('acme', 'u1');
const COLLEAGUE = as('acme', 'u2', 'admin');
const ELSEWHERE = as('other', 'u1');

/** The owner's chat 'c' with three question/answer pairs (q1 a1 q2 a2 q3 a3). */
async function setup(x: Executor) {
  await seedAccounts(x);
  const deps = { store: x, clock: new FakeClock(1_000) };
  const ids: string[] = [];
  for (const n of [1, 2, 3]) {
    ids.push((await appendMessage(deps, OWNER, { chatId: 'c', role: 'user', content: `q${n}` })).message_uuid);
    ids.push((await recordAnswer(deps, OWNER, { chatId: 'c', content: `a${n}`, credits: 1 })).message_uuid);
  }
  return { deps, ids };
}

const order = async (deps: { store: Executor }) => (await loadChat(deps, OWNER, 'c', { pairs: 50, includeAll: true })).messages.map((m) => m.content);
const chatState = (x: Executor) => x.one(sql`SELECT * FROM chats WHERE org_id = 'acme' AND chat_id = 'c'`);

dialectTest('pins and archive keep their first time, unpin and unarchive clear them, dismissing clears the completion flag', async (t, { x }) => {
  const { deps } = await setup(x);
  t.like(await pinChat(deps, OWNER, { chatId: 'c' }), { pinned: true, recently_completed: true });
  deps.clock.advance(10);
  await pinChat(deps, OWNER, { chatId: 'c' });
  t.like(await chatState(x), { pinned_at: 1_000 });
  t.like(await archiveChat(deps, OWNER, { chatId: 'c' }), { archived: true });
  t.like(await pinChat(deps, OWNER, { chatId: 'c', pinned: false }), { pinned: false, archived: true });
  t.like(await archiveChat(deps, OWNER, { chatId: 'c', archived: false }), { archived: false });
  t.like(await dismissChatCompletion(deps, OWNER, { chatId: 'c' }), { recently_completed: false });
});

dialectTest('labels are added once, sorted, removed, and refused past the limit', async (t, { x }) => {
  const { deps } = await setup(x);
  await addLabelToChat(deps, OWNER, { chatId: 'c', label: ' zeta ' });
  t.deepEqual((await addLabelToChat(deps, OWNER, { chatId: 'c', label: 'alpha' })).labels, ['alpha', 'zeta']);
  t.deepEqual((await addLabelToChat(deps, OWNER, { chatId: 'c', label: 'alpha' })).labels, ['alpha', 'zeta'], 'idempotent');
  t.deepEqual((await addLabelToChat(deps, OWNER, { chatId: 'c', label: 'zeta', remove: true })).labels, ['alpha']);
  for (let i = 1; i < MAX_LABELS; i++) await addLabelToChat(deps, OWNER, { chatId: 'c', label: `l${String(i).padStart(2, '0')}` });
  await t.throwsAsync(addLabelToChat(deps, OWNER, { chatId: 'c', label: 'one-too-many' }), { code: 'TOO_MANY_LABELS' });
  t.is((await addLabelToChat(deps, OWNER, { chatId: 'c', label: 'alpha' })).labels.length, MAX_LABELS, 'a label already there is still fine at the limit');
});

dialectTest(
  'labels are sorted by their bytes whatever the collation of the database: capitals, then punctuation, then small letters',
  async (t, { x }) => {
    const { deps } = await setup(x);
    for (const label of ['beta', 'Alpha', 'alpha', '_draft', 'Zed']) await addLabelToChat(deps, OWNER, { chatId: 'c', label });
    t.deepEqual((await loadChat(deps, OWNER, 'c')).chat?.labels, ['Alpha', 'Zed', '_draft', 'alpha', 'beta']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest('labels added concurrently through two connections never pass the limit', async (t, { x, other }) => {
  const { deps } = await setup(x);
  const results = await Promise.allSettled(
    Array.from({ length: MAX_LABELS + 10 }, (_, i) => addLabelToChat({ ...deps, store: i % 2 ? other : x }, OWNER, { chatId: 'c', label: `l${i}` })),
  );
  const stored = await x.one(sql<{ n: number }>`SELECT COUNT(*) AS n FROM chat_labels`);
  t.is(Number(stored?.n), MAX_LABELS);
  t.is(results.filter((r) => r.status === 'fulfilled').length, MAX_LABELS);
  t.true(results.every((r) => r.status === 'fulfilled' || (r.reason as { code?: string }).code === 'TOO_MANY_LABELS'));
});

dialectTest('messages move one step, alone or with their answers, and stop at the edges; deleting one touches the chat', async (t, { x }) => {
  const { deps, ids } = await setup(x);
  t.deepEqual(await saveMessageOrder(deps, OWNER, { chatId: 'c', messageUuid: ids[0]!, direction: 'up' }), { moved: false });
  t.deepEqual(await saveMessageOrder(deps, OWNER, { chatId: 'c', messageUuid: ids[2]!, direction: 'up', blockMode: true }), { moved: true });
  t.deepEqual(await order(deps), ['q2', 'a2', 'q1', 'a1', 'q3', 'a3']);
  await saveMessageOrder(deps, OWNER, { chatId: 'c', messageUuid: ids[3]!, direction: 'down' });
  t.deepEqual(await order(deps), ['q2', 'q1', 'a2', 'a1', 'q3', 'a3']);
  await t.throwsAsync(saveMessageOrder(deps, OWNER, { chatId: 'c', messageUuid: 'nope', direction: 'up' }), { code: 'MESSAGE_NOT_FOUND' });
  deps.clock.advance(50);
  await deleteMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[1]! });
  t.deepEqual(await order(deps), ['q2', 'q1', 'a2', 'q3', 'a3']);
  t.like(await chatState(x), { updated_at: 1_050 });
  await t.throwsAsync(deleteMessage(deps, OWNER, { chatId: 'c', messageUuid: ids[1]! }), { code: 'MESSAGE_NOT_FOUND' });
});

dialectTest('feedback is recorded on the owner\'s message only', async (t, { x }) => {
  const { deps, ids } = await setup(x);
  const { feedback_id } = await recordFeedback(deps, OWNER, { chatId: 'c', messageUuid: ids[1]!, rating: 'positive', comment: 'spot on' });
  t.like(await x.one(sql`SELECT * FROM chat_feedback WHERE id = ${feedback_id}`), { user_id: 'u1', rating: 'positive', comment: 'spot on', message_uuid: ids[1] });
  await t.throwsAsync(recordFeedback(deps, OWNER, { chatId: 'c', messageUuid: 'nope', rating: 'negative' }), { code: 'MESSAGE_NOT_FOUND' });
  await t.throwsAsync(recordFeedback(deps, COLLEAGUE, { chatId: 'c', messageUuid: ids[1]!, rating: 'negative' }), { code: 'CHAT_NOT_FOUND' });
  await t.throwsAsync(recordFeedback(deps, ELSEWHERE, { chatId: 'c', messageUuid: ids[1]!, rating: 'negative' }), { code: 'CHAT_NOT_FOUND' });
  t.like(await x.one(sql<{ n: number }>`SELECT COUNT(*) AS n FROM chat_feedback`), { n: 1 });
});

dialectTest('no change reaches another user\'s chat or another organization\'s, an admin\'s included', async (t, { x }) => {
  const { deps, ids } = await setup(x);
  const before = { chat: await chatState(x), messages: await order(deps) };
  deps.clock.advance(1_000);
  for (const p of [COLLEAGUE, ELSEWHERE]) {
    const attempts = [
      pinChat(deps, p, { chatId: 'c' }),
      archiveChat(deps, p, { chatId: 'c' }),
      dismissChatCompletion(deps, p, { chatId: 'c' }),
      addLabelToChat(deps, p, { chatId: 'c', label: 'x' }),
      deleteMessage(deps, p, { chatId: 'c', messageUuid: ids[0]! }),
      saveMessageOrder(deps, p, { chatId: 'c', messageUuid: ids[2]!, direction: 'up' }),
    ];
    for (const attempt of attempts) await t.throwsAsync(attempt, { code: 'CHAT_NOT_FOUND' });
  }
  t.deepEqual({ chat: await chatState(x), messages: await order(deps) }, before);
  t.like(await x.one(sql<{ n: number }>`SELECT COUNT(*) AS n FROM chat_labels`), { n: 0 });
});
