import { sql } from 'kysely';
import { EventJournal, type FlushScheduler } from '../../src/agent/runs/event-journal.ts';
import { insertRun } from '../../src/agent/runs/event-log.ts';
import type { AgentStore } from '../../src/agent/runs/tables.ts';
import { createLogger } from '../../src/log.ts';
import { dialectTest } from '../helpers/executors.ts';

const run = (id: string) => ({ id, org_id: 'o1', user_id: 'u1', chat_id: `chat-${id}`, message_uuid: 'm', answer_uuid: 'a', environment_id: null, provider: 'p', model: 'm', question: 'q', created_at: 1 });
const committed = (x: AgentStore) => x.all<{ id: number; run_id: string; type: string }>(sql`SELECT id, run_id, type FROM agent_events ORDER BY id`);

async function setup(x: AgentStore, schedule?: FlushScheduler) {
  await insertRun(x, run('r1'));
  await insertRun(x, run('r2'));
  const journal = new EventJournal(x, createLogger('silent'), schedule);
  await journal.ready();
  return journal;
}

dialectTest('an event is readable at once and reaches the store with the others pending in one scheduled flush', async (t, { x }) => {
  const flushes: (() => void)[] = [];
  const journal = await setup(x, (flush) => flushes.push(flush));
  const delivered: number[] = [];
  journal.onAppend = (e) => delivered.push(e.id);
  const appended = [journal.append(run('r1'), { type: 'text_delta', text: 'a' }, 10), journal.append(run('r2'), { type: 'text_delta', text: 'b' }, 11), journal.append(run('r1'), { type: 'text_delta', text: 'c' }, 12)];
  t.deepEqual((await Promise.all(appended)).map((e) => e.id), [1, 2, 3]);
  t.deepEqual(delivered, [1, 2, 3]);
  t.deepEqual(await committed(x), []);
  t.deepEqual((await journal.after(run('r1'), 0)).map((e) => e.id), [1, 3]);
  t.is(flushes.length, 1);
  await journal.flush();
  t.deepEqual((await committed(x)).map((e) => e.id), [1, 2, 3]);
  t.deepEqual((await journal.after(run('r1'), 1)).map((e) => [e.id, e.event]), [[3, { type: 'text_delta', text: 'c' }]]);
});

dialectTest('event ids continue after the highest one ever used when the service starts again', async (t, { x }) => {
  const first = await setup(x);
  for (let i = 0; i < 3; i++) await first.append(run('r1'), { type: 'text_delta', text: String(i) }, i);
  await first.flush();
  // Deleted events (a chat removed with its runs) leave their ids used; so do the ids a process held in reserve.
  await x.run(sql`DELETE FROM agent_events WHERE id = 3`);
  const second = new EventJournal(x, createLogger('silent'));
  t.true((await second.append(run('r1'), { type: 'stop_requested' }, 9)).id > 3);
});

dialectTest('an event whose run is gone is dropped alone and the rest of the turn is committed', async (t, { x }) => {
  const journal = await setup(x);
  void journal.append(run('r1'), { type: 'text_delta', text: 'kept' }, 1);
  void journal.append(run('gone'), { type: 'text_delta', text: 'lost' }, 2);
  void journal.append(run('r2'), { type: 'text_delta', text: 'kept too' }, 3);
  await journal.flush();
  t.deepEqual((await committed(x)).map((e) => e.run_id), ['r1', 'r2']);
});

dialectTest('a read after the last committed id is served from memory, and a read across the commit joins both halves in order', async (t, { x }) => {
  const flushes: (() => void)[] = [];
  const journal = await setup(x, (flush) => flushes.push(flush));
  await journal.append(run('r1'), { type: 'text_delta', text: 'a' }, 1);
  await journal.flush();
  await journal.append(run('r1'), { type: 'text_delta', text: 'b' }, 2);
  t.deepEqual((await journal.after(run('r1'), 0)).map((e) => e.id), [1, 2]);
  // A row written behind the journal's back shows that the read past the committed id 1 skips the store.
  await x.run(sql`INSERT INTO agent_events (id, run_id, type, data, created_at) VALUES (100, 'r1', 'text_delta', '{}', 3)`);
  t.deepEqual((await journal.after(run('r1'), 1)).map((e) => e.id), [2]);
});

dialectTest('a batch of any size is stored whole, in order, and events wait in order for ids when a burst spends the block at hand', async (t, { x }) => {
  const journal = await setup(x, () => {});
  const delivered: number[] = [];
  journal.onAppend = (e) => delivered.push(e.id);
  const appended = await Promise.all(Array.from({ length: 777 }, (_, i) => journal.append(run(i % 2 ? 'r1' : 'r2'), { type: 'text_delta', text: String(i) }, i)));
  const ids = appended.map((e) => e.id);
  t.deepEqual(ids, [...ids].sort((a, b) => a - b));
  t.is(new Set(ids).size, 777);
  t.deepEqual(delivered, ids);
  await journal.flush();
  t.deepEqual((await committed(x)).map((e) => e.id), ids);
  t.deepEqual((await journal.after(run('r1'), 0)).map((e) => (e.event as { text: string }).text), appended.filter((e) => e.run_id === 'r1').map((e) => (e.event as { text: string }).text));
});

dialectTest('a read of the store that a commit overtakes still returns every event once', async (t, { x }) => {
  const journal = await setup(x, () => {});
  const append = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => journal.append(run('r1'), { type: 'text_delta', text: String(i) }, i)));
  await append(3);
  await journal.flush();
  await append(2);
  // The read of the committed half starts first; the flush of the rest lands around it.
  const [read] = await Promise.all([journal.after(run('r1'), 0), journal.flush()]);
  t.deepEqual(read.map((e) => e.id), [1, 2, 3, 4, 5]);
  await append(1);
  const [reread] = await Promise.all([journal.after(run('r1'), 2), journal.flush()]);
  t.deepEqual(reread.map((e) => e.id), [3, 4, 5, 6]);
});
