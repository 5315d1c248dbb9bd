import test from 'ava';
import { EventJournal } from '../../src/agent/runs/event-journal.ts';
import { insertRun } from '../../src/agent/runs/event-log.ts';
import { createLogger } from '../../src/log.ts';
import { openStore, type Db } from '../../src/store/index.ts';

const run = (id: string) => ({ id, org_id: 'o1', user_id: 'u1', chat_id: `chat-${id}`, message_uuid: 'm', answer_uuid: 'a', environment_id: null, provider: 'p', model: 'm', question: 'q', created_at: 1 });
const committed = (db: Db) => db.prepare('SELECT id, run_id, type FROM agent_events ORDER BY id').all() as { id: number; run_id: string; type: string }[];

function setup() {
  const store = openStore({ file: ':memory:' });
  insertRun(store.db, run('r1'));
  insertRun(store.db, run('r2'));
  return store;
}

test('an event is readable at once and reaches SQLite with the others pending in one scheduled flush', (t) => {
  const store = setup();
  t.teardown(() => store.close());
  const flushes: (() => void)[] = [];
  const journal = new EventJournal(store.db, createLogger('silent'), (flush) => flushes.push(flush));
  const a = journal.append(run('r1'), { type: 'text_delta', text: 'a' }, 10);
  const b = journal.append(run('r2'), { type: 'text_delta', text: 'b' }, 11);
  const c = journal.append(run('r1'), { type: 'text_delta', text: 'c' }, 12);
  t.deepEqual([a.id, b.id, c.id], [1, 2, 3]);
  t.deepEqual(committed(store.db), []);
  t.deepEqual(journal.after(run('r1'), 0).map((e) => e.id), [1, 3]);
  t.is(flushes.length, 1);
  flushes[0]!();
  t.deepEqual(committed(store.db).map((e) => e.id), [1, 2, 3]);
  t.deepEqual(journal.after(run('r1'), 1).map((e) => [e.id, e.event]), [[3, { type: 'text_delta', text: 'c' }]]);
});

test('event ids continue after the highest one ever used when the service starts again', async (t) => {
  const store = setup();
  t.teardown(() => store.close());
  const first = new EventJournal(store.db, createLogger('silent'));
  for (let i = 0; i < 3; i++) first.append(run('r1'), { type: 'text_delta', text: String(i) }, i);
  first.flush();
  // Deleted events (a chat removed with its runs) leave their ids used.
  store.db.prepare('DELETE FROM agent_events WHERE id = 3').run();
  const second = new EventJournal(store.db, createLogger('silent'));
  t.is(second.append(run('r1'), { type: 'stop_requested' }, 9).id, 4);
});

test('an event whose run is gone is dropped alone and the rest of the turn is committed', (t) => {
  const store = setup();
  t.teardown(() => store.close());
  const journal = new EventJournal(store.db, createLogger('silent'));
  journal.append(run('r1'), { type: 'text_delta', text: 'kept' }, 1);
  journal.append(run('gone'), { type: 'text_delta', text: 'lost' }, 2);
  journal.append(run('r2'), { type: 'text_delta', text: 'kept too' }, 3);
  journal.flush();
  t.deepEqual(committed(store.db).map((e) => e.run_id), ['r1', 'r2']);
});

test('a closed store loses the pending events without throwing', (t) => {
  const store = setup();
  const journal = new EventJournal(store.db, createLogger('silent'));
  journal.append(run('r1'), { type: 'text_delta', text: 'late' }, 1);
  store.close();
  t.notThrows(() => journal.flush());
});

test('a read after the last committed id is served from memory, and a read across the commit joins both halves in order', (t) => {
  const store = setup();
  t.teardown(() => store.close());
  const flushes: (() => void)[] = [];
  const journal = new EventJournal(store.db, createLogger('silent'), (flush) => flushes.push(flush));
  journal.append(run('r1'), { type: 'text_delta', text: 'a' }, 1);
  flushes.shift()!();
  journal.append(run('r1'), { type: 'text_delta', text: 'b' }, 2);
  t.deepEqual(journal.after(run('r1'), 0).map((e) => e.id), [1, 2]);
  // A row written behind the journal's back shows that the read past the committed id 1 skips SQLite.
  store.db.prepare("INSERT INTO agent_events (id, run_id, type, data, created_at) VALUES (100, 'r1', 'text_delta', '{}', 3)").run();
  t.deepEqual(journal.after(run('r1'), 1).map((e) => e.id), [2]);
});
