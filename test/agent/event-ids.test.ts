// Event ids on a store shared by several processes: each journal takes blocks of ids reserved in the
// store, so two journals (two connections to one SQLite file here) never give the same id, and a
// run's ids increase, which is all SSE `Last-Event-ID` resume needs.
import test from 'ava';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventJournal } from '../../src/agent/runs/event-journal.ts';
import { reserveEventIds } from '../../src/agent/runs/event-ids.ts';
import { insertRun } from '../../src/agent/runs/event-log.ts';
import { createLogger } from '../../src/log.ts';
import { listMigrations, migrate, openStore } from '../../src/store/index.ts';

const run = (id: string) => ({ id, org_id: 'o1', user_id: 'u1', chat_id: `chat-${id}`, message_uuid: 'm', answer_uuid: 'a', environment_id: null, provider: 'p', model: 'm', question: 'q', created_at: 1 });

function sharedFile(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-event-ids-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'sextant.db');
}

test('event ids from two journals on one store never collide, and a resume after any id of a run returns every later event', (t) => {
  const file = sharedFile(t);
  const one = openStore({ file });
  const two = openStore({ file });
  t.teardown(() => (one.close(), two.close()));
  for (const id of ['a1', 'a2', 'b1', 'b2']) insertRun(one.db, run(id));
  const silent = createLogger('silent');
  const replicas = [
    { journal: new EventJournal(one.db, silent, () => {}), runs: ['a1', 'a2'] },
    { journal: new EventJournal(two.db, silent, () => {}), runs: ['b1', 'b2'] },
  ];
  const appended = new Map<string, number[]>();
  // A fixed pseudo-random interleaving of appends and group commits on both replicas.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let i = 0; i < 4000; i++) {
    const r = replicas[next() % 2]!;
    const runId = r.runs[next() % 2]!;
    const e = r.journal.append(run(runId), { type: 'text_delta', text: String(i) }, i);
    appended.set(runId, [...(appended.get(runId) ?? []), e.id]);
    if (next() % 50 === 0) r.journal.flush();
  }
  for (const r of replicas) r.journal.flush();
  const stored = one.db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM agent_events').get() as { n: number; ids: number };
  t.deepEqual(stored, { n: 4000, ids: 4000 });
  for (const [runId, ids] of appended) {
    t.deepEqual(ids, [...ids].sort((x, y) => x - y), `${runId}: ids increase`);
    // Resumed through the other replica (which reads it from the store).
    const reader = replicas.find((r) => !r.runs.includes(runId))!.journal;
    for (let k = 0; k < ids.length; k += 97) t.deepEqual(reader.committedAfter(run(runId), ids[k]!).map((e) => e.id), ids.slice(k + 1), `${runId} after ${ids[k]}`);
    t.deepEqual(reader.committedAfter(run(runId), 0).map((e) => e.id), ids);
  }
});

test('ids reserved later by any process are higher than every id reserved before', (t) => {
  const file = sharedFile(t);
  const one = openStore({ file });
  const two = openStore({ file });
  t.teardown(() => (one.close(), two.close()));
  const first = reserveEventIds(one.db, 1024);
  const second = reserveEventIds(two.db, 2);
  t.is(second, first + 2);
});

test('the id counter continues after every id used before it existed, deleted events included', (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  migrate(db, listMigrations().filter((m) => m.id < 96));
  // A run as the older schema stores it.
  db.prepare("INSERT INTO agent_runs (id, org_id, user_id, chat_id, message_uuid, answer_uuid, provider, model, question, status, created_at) VALUES ('r1', 'o1', 'u1', 'c1', 'm', 'a', 'p', 'm', 'q', 'running', 5)").run();
  for (let i = 0; i < 7; i++) db.prepare("INSERT INTO agent_events (run_id, type, data, created_at) VALUES ('r1', 'stop_requested', '{}', 0)").run();
  db.prepare('DELETE FROM agent_events WHERE id = 7').run();
  migrate(db);
  t.is(reserveEventIds(db, 1), 8);
  // A run left running by the older version is stamped with its start: stale, failed at the next sweep.
  t.like(db.prepare('SELECT replica_id, heartbeat_at FROM agent_runs').get(), { replica_id: null, heartbeat_at: 5 });
});

test('a store without the counter row (a new PostgreSQL schema, say) starts it after its highest event id', (t) => {
  const store = openStore({ file: ':memory:' });
  t.teardown(() => store.close());
  insertRun(store.db, run('r1'));
  store.db.prepare("INSERT INTO agent_events (id, run_id, type, data, created_at) VALUES (41, 'r1', 'stop_requested', '{}', 0)").run();
  store.db.prepare('DELETE FROM agent_event_ids').run();
  t.is(reserveEventIds(store.db, 3), 44);
  t.is(reserveEventIds(store.db, 1), 45);
});
