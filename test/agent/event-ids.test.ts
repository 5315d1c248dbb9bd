// Event ids on a store shared by several processes: each journal takes blocks of ids reserved in the
// store, so two journals (two pools on one PostgreSQL database, or two journals on one SQLite store)
// never give the same id, and a run's ids increase, which is all SSE `Last-Event-ID` resume needs.
import test from 'ava';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { EventJournal } from '../../src/agent/runs/event-journal.ts';
import { reserveEventIds } from '../../src/agent/runs/event-ids.ts';
import { insertRun } from '../../src/agent/runs/event-log.ts';
import { createLogger } from '../../src/log.ts';
import { listMigrations, migrate, sqliteExecutor } from '../../src/store/index.ts';
import { dialectTest } from '../helpers/executors.ts';

const run = (id: string) => ({ id, org_id: 'o1', user_id: 'u1', chat_id: `chat-${id}`, message_uuid: 'm', answer_uuid: 'a', environment_id: null, provider: 'p', model: 'm', question: 'q', created_at: 1 });

dialectTest('event ids from two journals on one store never collide, and a resume after any id of a run returns every later event', async (t, { x, other }) => {
  for (const id of ['a1', 'a2', 'b1', 'b2']) await insertRun(x, run(id));
  const silent = createLogger('silent');
  const replicas = [
    { journal: new EventJournal(x, silent, () => {}), runs: ['a1', 'a2'] },
    { journal: new EventJournal(other, silent, () => {}), runs: ['b1', 'b2'] },
  ];
  const appended = new Map<string, Promise<number>[]>();
  // A fixed pseudo-random interleaving of appends and group commits on both replicas.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const flushes: Promise<void>[] = [];
  for (let i = 0; i < 4000; i++) {
    const r = replicas[next() % 2]!;
    const runId = r.runs[next() % 2]!;
    const e = r.journal.append(run(runId), { type: 'text_delta', text: String(i) }, i);
    appended.set(runId, [...(appended.get(runId) ?? []), e.then((s) => s.id)]);
    if (next() % 50 === 0) flushes.push(r.journal.flush());
    // Now and then the appends wait for the store, as a run's do between model pieces.
    if (next() % 100 === 0) await e;
  }
  for (const r of replicas) flushes.push(r.journal.flush());
  await Promise.all(flushes);
  t.deepEqual(await x.one(sql`SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids FROM agent_events`), { n: 4000, ids: 4000 });
  for (const [runId, pending] of appended) {
    const ids = await Promise.all(pending);
    t.deepEqual(ids, [...ids].sort((a, b) => a - b), `${runId}: ids increase`);
    // Resumed through the other replica (which reads it from the store).
    const reader = replicas.find((r) => !r.runs.includes(runId))!.journal;
    for (let k = 0; k < ids.length; k += 97) t.deepEqual((await reader.committedAfter(run(runId), ids[k]!)).map((e) => e.id), ids.slice(k + 1), `${runId} after ${ids[k]}`);
    t.deepEqual((await reader.committedAfter(run(runId), 0)).map((e) => e.id), ids);
  }
});

dialectTest('ids reserved later by any process are higher than every id reserved before', async (t, { x, other }) => {
  const first = await reserveEventIds(x, 1024);
  const second = await reserveEventIds(other, 2);
  t.is(second, first + 2);
});

dialectTest('two processes reserving at once get disjoint blocks', async (t, { x, other }) => {
  const blocks = await Promise.all(Array.from({ length: 20 }, (_, i) => reserveEventIds(i % 2 ? x : other, 5)));
  t.is(new Set(blocks).size, 20);
  t.deepEqual([...blocks].sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => 5 * (i + 1)));
});

test('the id counter continues after every id used before it existed, deleted events included', async (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  migrate(db, listMigrations().filter((m) => m.id < 96));
  // A run as the older schema stores it.
  db.prepare("INSERT INTO agent_runs (id, org_id, user_id, chat_id, message_uuid, answer_uuid, provider, model, question, status, created_at) VALUES ('r1', 'o1', 'u1', 'c1', 'm', 'a', 'p', 'm', 'q', 'running', 5)").run();
  for (let i = 0; i < 7; i++) db.prepare("INSERT INTO agent_events (run_id, type, data, created_at) VALUES ('r1', 'stop_requested', '{}', 0)").run();
  db.prepare('DELETE FROM agent_events WHERE id = 7').run();
  migrate(db);
  t.is(await reserveEventIds(sqliteExecutor(db), 1), 8);
  // A run left running by the older version is stamped with its start: stale, failed at the next sweep.
  t.like(db.prepare('SELECT replica_id, heartbeat_at FROM agent_runs').get(), { replica_id: null, heartbeat_at: 5 });
});

dialectTest('a store without the counter row (a new PostgreSQL schema, say) starts it after its highest event id', async (t, { x }) => {
  await insertRun(x, run('r1'));
  await x.run(sql`INSERT INTO agent_events (id, run_id, type, data, created_at) VALUES (41, 'r1', 'stop_requested', '{}', 0)`);
  await x.run(sql`DELETE FROM agent_event_ids`);
  t.is(await reserveEventIds(x, 3), 44);
  t.is(await reserveEventIds(x, 1), 45);
});
