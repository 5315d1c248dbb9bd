// The candidate read of chat search (search-matches.ts) gives the caller's newest RANK_WINDOW matches
// whoever wrote the index: on SQLite, where the caller wrote most of the newest messages, it reads
// the words' own matches and checks the owner on the rows, and falls back to the owner's scope token
// when those do not hold the answer; each case below is checked against the messages themselves.
import { sql } from 'kysely';
import { indexPendingMessages } from '../../src/chats/index.ts';
import { findCandidates, RANK_WINDOW } from '../../src/chats/search-matches.ts';
import type { Principal } from '../../src/auth/index.ts';
import type { Executor } from '../../src/store/executor.ts';
import { dialectTest } from '../helpers/executors.ts';
import { seedAccounts, who } from './dialects.ts';

const OWNER = who('acme', 'u1');
const COLLEAGUE = who('acme', 'u2');

/** Messages written in order, each [owner, body], one chat per owner and 100 messages. */
async function write(x: Executor, messages: [Principal, string][]): Promise<void> {
  const rows = [];
  for (const [i, [p, body]] of messages.entries()) {
    const chatId = `${p.userId}-${Math.floor(i / 100)}`;
    await x.run(sql`INSERT INTO chats (org_id, chat_id, user_id, title, created_at, updated_at) VALUES (${p.orgId}, ${chatId}, ${p.userId}, '', 1, 2) ON CONFLICT DO NOTHING`);
    rows.push(sql`((SELECT id FROM chats WHERE org_id = ${p.orgId} AND chat_id = ${chatId}), ${`m${i}`}, 'user', ${body}, ${i}, 1)`);
    if (rows.length === 500 || i === messages.length - 1) {
      await x.run(sql`INSERT INTO chat_messages (chat_pk, message_uuid, role, content, position, created_at) VALUES ${sql.join(rows.splice(0))}`);
    }
  }
  await indexPendingMessages(x);
}

/** The caller's newest RANK_WINDOW messages holding the word, read from the messages without the index. */
async function expected(x: Executor, p: Principal, word: string): Promise<number[]> {
  const rows = await x.all<{ id: number }>(sql`SELECT m.id FROM chat_messages m JOIN chats c ON c.id = m.chat_pk
    WHERE c.user_id = ${p.userId} AND c.org_id = ${p.orgId} AND ' ' || m.content || ' ' LIKE ${`% ${word} %`}
    ORDER BY m.id DESC LIMIT ${RANK_WINDOW}`);
  return rows.map((r) => r.id);
}

const found = async (x: Executor, p: Principal, word: string) => (await findCandidates(x, p, [word], false)).map((c) => c.id).sort((a, b) => b - a);

dialectTest('the newest matches of the caller are found whether the caller or others wrote most of the index', async (t, { x }) => {
  await seedAccounts(x);
  const messages: [Principal, string][] = [];
  // Long ago: the owner's `ancient` matches, then 1,200 newer ones mostly of a colleague (more than are
  // read before the scope token decides), then the owner writes most of what comes last.
  for (let i = 0; i < 50; i++) messages.push([OWNER, `ancient common ${i}`]);
  for (let i = 0; i < 1200; i++) messages.push(i % 200 === 199 ? [OWNER, `ancient common ${i}`] : [COLLEAGUE, `ancient common colleague ${i}`]);
  for (let i = 0; i < 1500; i++) messages.push([i % 8 === 0 ? COLLEAGUE : OWNER, `common ${i % 3 === 0 ? 'third' : ''} ${i % 97 === 0 ? 'scarce' : ''}`]);
  await write(x, messages);
  const cases: [Principal, string, number][] = [
    [OWNER, 'common', RANK_WINDOW], // the owner's newest matches fill the window among the first read
    [OWNER, 'third', 437], // every match is read: fewer than the window are the owner's
    [OWNER, 'scarce', 14], // every match is read: the owner's among them
    [OWNER, 'ancient', 56], // the colleague's newer matches hide most of the owner's from the first read
    [OWNER, 'colleague', 0],
    [OWNER, 'nowhere', 0],
    [COLLEAGUE, 'common', RANK_WINDOW], // the colleague wrote few of the newest messages: the scope token
    [COLLEAGUE, 'scarce', 2],
    [COLLEAGUE, 'ancient', RANK_WINDOW],
  ];
  for (const [p, word, n] of cases) {
    const want = await expected(x, p, word);
    t.is(want.length, n, `${p.userId} ${word}: the fixture`);
    t.deepEqual(await found(x, p, word), want, `${p.userId} ${word}`);
  }
});
