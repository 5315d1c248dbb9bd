// Runs belong to the replica that started them. Two replicas here are two run managers in one test
// process on one store (on PostgreSQL a pool each, taken in turn) and one shared bus; a replica "dies" by no longer
// heartbeating (its ticker never ticks) while its run hangs in the model. Time is a fake clock.
import test from 'ava';
import Database from 'better-sqlite3';
import { AgentRuns, memoryChats, memoryKnowledge, noUploads, type AgentPorts, type LlmProvider, type StoredEvent } from '../../src/agent/index.ts';
import { getRun, insertRun } from '../../src/agent/runs/event-log.ts';
import { RunInProgress } from '../../src/agent/runs/run-errors.ts';
import { endsLostRun, failLostRun, LOST_ANSWER, REPLICA_LOST } from '../../src/agent/runs/lost-runs.ts';
import type { Principal } from '../../src/auth/index.ts';
import { FakeClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createLogger } from '../../src/log.ts';
import { listMigrations, migrate } from '../../src/store/index.ts';
import { dialectTest, type DialectCase } from '../helpers/executors.ts';
import { sharedBuses } from './shared-buses.ts';

const principal: Principal = { userId: 'u1', email: 'u1@example.com', orgId: 'o1', baseOrgId: 'o1', role: 'user', permissions: [], credential: 'session', scopes: [] };
const agentConfig = loadConfig({ SEXTANT_DATA_DIR: '/tmp/sextant-run-owners-test', SEXTANT_JWT_SECRET: 'x'.repeat(40), SEXTANT_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'), SEXTANT_COOKIE_KEYS: 'k' }).agent;

/** A model that says a little, then thinks until the run is cut (or its replica dies). */
const hangingModel: LlmProvider = {
  name: 'hanging',
  model: 'hanging',
  async *stream(req) {
    yield { type: 'text_delta', text: 'partial' };
    await new Promise<void>((resolve) => req.signal?.addEventListener('abort', () => resolve()));
  },
};

/** A model that answers at once. */
const quickModel: LlmProvider = {
  name: 'quick',
  model: 'quick',
  async *stream() {
    yield { type: 'text_delta', text: 'ok' };
    yield { type: 'finish', reason: 'stop' };
  },
};

function setup(t: { teardown(fn: () => unknown): void }, c: DialectCase) {
  const clock = new FakeClock();
  const chats = memoryChats();
  const ports: AgentPorts = { knowledge: memoryKnowledge({ tables: [] }), queries: { run: () => Promise.reject(new Error('no warehouse')) }, uploads: noUploads, chats, profiles: { profile: async () => ({ name: '', background: '', memories: [] }) } };
  const buses = sharedBuses();
  const cleanups: (() => unknown)[] = [];
  let replicas = 0;
  /** A replica: a connection to the store (the two pools in turn), the shared bus; it heartbeats only when the test says. */
  const replica = async (provider: LlmProvider, { exclusiveStore = false } = {}) => {
    const store = replicas++ % 2 === 0 ? c.x : c.other;
    const shutdown = new AbortController();
    const runs = new AgentRuns({ store, clock, log: createLogger('silent'), config: agentConfig, provider, ports, shutdown: shutdown.signal, bus: buses.next(), ticker: () => () => {}, exclusiveStore });
    cleanups.push(() => shutdown.abort(), () => runs.finishRuns(0));
    await runs.ready();
    return { runs, store, shutdown };
  };
  t.teardown(async () => {
    for (const fn of cleanups) await fn();
  });
  return { clock, chats, replica };
}

/** Lets the bus subscriptions and the started runs' first steps happen. */
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

async function follow(runs: AgentRuns, runId: string, chatId: string, afterId = 0) {
  const seen: StoredEvent[] = [];
  let ended = false;
  const row = await runs.ownRun(principal, chatId);
  if (row.id !== runId) throw new Error('not the run');
  runs.follow(row, afterId, (e) => seen.push(e), () => (ended = true));
  return { seen, ended: () => ended };
}

dialectTest('a run whose replica stops heartbeating is failed with REPLICA_LOST by another replica within the keep-alive interval', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const b = await s.replica(quickModel);
  const started = await a.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  await turns();
  await a.runs.flush();
  const follower = await follow(b.runs, started.row.id, 'c1');
  await turns();
  const { lostAfterMs, intervalMs } = b.runs.liveness;
  // Lost at the latest one sweep interval after the threshold: within one keep-alive interval.
  t.true(lostAfterMs + intervalMs <= agentConfig.keepAliveMs);
  s.clock.advance(lostAfterMs);
  t.is(await b.runs.liveness.sweep(), 0, 'not lost before the threshold');
  s.clock.advance(1);
  t.is(await b.runs.liveness.sweep(), 1);
  const row = (await getRun(b.store, started.row.id))!;
  t.is(row.status, 'failed');
  t.regex(row.answer ?? '', /interrupted/);
  const types = follower.seen.map((e) => e.event);
  t.like(types.at(-2), { type: 'error', code: REPLICA_LOST });
  t.like(types.at(-1), { type: 'completed', status: 'failed' });
  t.true(follower.ended(), 'the follower on the other replica ends its stream');
  // The answer is stored as interrupted, never as the partial text.
  const answer = s.chats.chats.get('o1/c1')!.messages.at(-1)!;
  t.is(answer.role, 'assistant');
  t.not(answer.content, 'partial');
  t.regex(answer.content, /interrupted/);
});

dialectTest('after a lost run the chat stays usable: a new question in it is answered on another replica', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const b = await s.replica(quickModel);
  await a.runs.start(principal, { chatId: 'c1', message: 'first', environmentId: undefined });
  await turns();
  s.clock.advance(b.runs.liveness.lostAfterMs + 1);
  await b.runs.liveness.sweep();
  const again = await b.runs.start(principal, { chatId: 'c1', message: 'second', environmentId: undefined });
  const row = await again.done;
  t.is(row.status, 'completed');
  t.deepEqual(s.chats.chats.get('o1/c1')!.messages.map((m) => m.role), ['user', 'assistant', 'user', 'assistant']);
  t.is((await b.runs.ownRun(principal, 'c1')).id, again.row.id);
});

dialectTest('a replica that starts does not fail the runs another live replica keeps alive', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const started = await a.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  await turns();
  const { lostAfterMs, intervalMs } = a.runs.liveness;
  for (let i = 0; i < 10; i++) {
    s.clock.advance(intervalMs);
    await a.runs.liveness.heartbeat();
  }
  t.true(10 * intervalMs > lostAfterMs);
  const b = await s.replica(quickModel);
  t.is(await b.runs.liveness.sweep(), 0);
  t.is((await getRun(b.store, started.row.id))!.status, 'running');
  t.true(a.runs.isActive(started.row.id));
});

dialectTest('a process that holds the store alone fails at start every run left running, even one whose heartbeat is fresh', async (t, dc) => {
  const s = setup(t, dc);
  // The previous process (killed a moment ago: its heartbeat is fresh) left a run running.
  const before = await s.replica(hangingModel);
  const started = await before.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  await turns();
  await before.runs.liveness.heartbeat();
  const after = await s.replica(quickModel, { exclusiveStore: true });
  const row = (await getRun(after.store, started.row.id))!;
  t.is(row.status, 'failed');
  t.is(row.answer, LOST_ANSWER);
  // The chat takes a new question at once instead of answering RUN_IN_PROGRESS until the threshold.
  const next = await after.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  t.is(next.row.status, 'running');
});

dialectTest('a replica never fails its own runs, however late its heartbeat', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const started = await a.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  await turns();
  s.clock.advance(10 * a.runs.liveness.lostAfterMs);
  t.is(await a.runs.liveness.sweep(), 0);
  t.is((await getRun(a.store, started.row.id))!.status, 'running');
});

dialectTest('two replicas sweeping one lost run write its end once', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const b = await s.replica(quickModel);
  const c = await s.replica(quickModel);
  const started = await a.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  await turns();
  await a.runs.flush();
  s.clock.advance(b.runs.liveness.lostAfterMs + 1);
  t.is(await b.runs.liveness.sweep() + await c.runs.liveness.sweep(), 1);
  const ends = (await b.runs.events((await getRun(b.store, started.row.id))!)).filter((e) => e.event.type === 'completed' || e.event.type === 'error');
  t.deepEqual(ends.map((e) => e.event.type), ['error', 'completed']);
  t.is(s.chats.chats.get('o1/c1')!.messages.filter((m) => m.role === 'assistant').length, 1);
});

dialectTest('the end of a lost run comes after every event of it, so a resume from its last event gets the end', async (t, dc) => {
  const s = setup(t, dc);
  const b = await s.replica(quickModel);
  // The sweeper took its block of ids first; the lost replica's are all higher.
  await (await b.runs.start(principal, { chatId: 'early', message: 'hi', environmentId: undefined })).done;
  const a = await s.replica(hangingModel);
  const started = await a.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  await turns();
  await a.runs.flush();
  const run = (await getRun(b.store, started.row.id))!;
  const before = await b.runs.events(run);
  const lastSeen = before.at(-1)!.id;
  s.clock.advance(b.runs.liveness.lostAfterMs + 1);
  await b.runs.liveness.sweep();
  const resumed = await b.runs.events((await getRun(b.store, started.row.id))!, lastSeen);
  t.deepEqual(resumed.map((e) => e.event.type), ['error', 'completed']);
  t.true(resumed.every((e) => e.id > lastSeen));
});

dialectTest('a replica whose run another failed as lost neither overwrites that end nor leaves its own followers hanging', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const b = await s.replica(quickModel);
  const started = await a.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  await turns();
  const local = await follow(a.runs, started.row.id, 'c1');
  s.clock.advance(b.runs.liveness.lostAfterMs + 1);
  await b.runs.liveness.sweep();
  // The cut-off replica comes back: its next heartbeat finds the run lost and stops its wasted work.
  await a.runs.liveness.heartbeat();
  const row = await started.done;
  t.is(a.runs.activeCount(), 0);
  t.is(row.status, 'failed');
  t.is(row.answer, LOST_ANSWER);
  t.like(local.seen.at(-1)?.event, { type: 'completed', status: 'failed' });
  t.true(local.ended());
  // Once found lost, the replica adds nothing to the run's log: its end stays the last event.
  await a.runs.flush();
  t.like((await b.runs.events(row)).at(-1)?.event, { type: 'completed', content: LOST_ANSWER });
  t.is(s.chats.chats.get('o1/c1')!.messages.filter((m) => m.role === 'assistant').length, 1);
});

dialectTest('two replicas that both found a run stale and claim it at once: one writes its end, the other nothing', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const b = await s.replica(quickModel);
  const c = await s.replica(quickModel);
  const started = await a.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  await turns();
  await a.runs.flush();
  s.clock.advance(b.runs.liveness.lostAfterMs + 1);
  const before = s.clock.now() - b.runs.liveness.lostAfterMs;
  const stale = (await getRun(b.store, started.row.id))!;
  const sweeper = (r: typeof b) => ({ store: r.store, clock: s.clock, log: createLogger('silent'), chats: s.chats, replicaId: r.runs.replicaId, lostAfterMs: r.runs.liveness.lostAfterMs });
  const results = await Promise.all([failLostRun(sweeper(b), stale, before), failLostRun(sweeper(c), stale, before)]);
  t.is(results.filter((r) => r !== undefined).length, 1);
  const ends = (await b.runs.events((await getRun(b.store, started.row.id))!)).filter(endsLostRun);
  t.deepEqual(ends.map((e) => e.event.type), ['error', 'completed']);
});

dialectTest('a question in a chat another live replica is answering is refused with RUN_IN_PROGRESS, and answered at once when that replica is lost', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const b = await s.replica(quickModel);
  await a.runs.start(principal, { chatId: 'c1', message: 'first', environmentId: undefined });
  await turns();
  const refused = await t.throwsAsync(b.runs.start(principal, { chatId: 'c1', message: 'second', environmentId: undefined }));
  t.is((refused as { code?: string }).code, 'RUN_IN_PROGRESS');
  // No sweep has run yet: the start itself fails the lost replica's run first.
  s.clock.advance(b.runs.liveness.lostAfterMs + 1);
  const again = await b.runs.start(principal, { chatId: 'c1', message: 'second', environmentId: undefined });
  t.is((await again.done).status, 'completed');
  t.deepEqual(s.chats.chats.get('o1/c1')!.messages.map((m) => [m.role, m.content]), [['user', 'first'], ['assistant', LOST_ANSWER], ['user', 'second'], ['assistant', 'ok']]);
});

dialectTest('two replicas starting a question in one chat at once: one runs, the other is refused with RUN_IN_PROGRESS', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const b = await s.replica(hangingModel);
  const results = await Promise.allSettled([a.runs.start(principal, { chatId: 'c1', message: 'one', environmentId: undefined }), b.runs.start(principal, { chatId: 'c1', message: 'two', environmentId: undefined })]);
  t.is(results.filter((r) => r.status === 'fulfilled').length, 1);
  t.is(((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as { code?: string }).code, 'RUN_IN_PROGRESS');
});

dialectTest('the store holds one running run per chat: a second one is refused with RUN_IN_PROGRESS', async (t, dc) => {
  const s = setup(t, dc);
  const { store } = await s.replica(quickModel);
  const row = (id: string) => ({ id, org_id: 'o1', user_id: 'u1', chat_id: 'c1', message_uuid: 'm', answer_uuid: 'a', environment_id: null, provider: 'p', model: 'm', question: 'q', created_at: s.clock.now() });
  await insertRun(store, row('r1'), 'replica-a');
  t.is((await t.throwsAsync(insertRun(store, row('r2'), 'replica-b')))?.constructor, RunInProgress);
  await t.notThrowsAsync(insertRun(store, { ...row('r3'), chat_id: 'c2' }, 'replica-b'));
});

test('upgrading a store where a chat holds several running runs keeps only the latest of them running', (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  migrate(db, listMigrations().filter((m) => m.id < 96));
  const insert = db.prepare("INSERT INTO agent_runs (id, org_id, user_id, chat_id, message_uuid, answer_uuid, provider, model, question, status, created_at) VALUES (?, 'o1', 'u1', ?, 'm', 'a', 'p', 'm', 'q', 'running', ?)");
  insert.run('old', 'c1', 1);
  insert.run('new', 'c1', 2);
  insert.run('other', 'c2', 1);
  migrate(db);
  t.deepEqual(db.prepare("SELECT id FROM agent_runs WHERE status = 'running' ORDER BY id").pluck().all(), ['new', 'other']);
});

dialectTest('a heartbeat refreshes every running run of its replica, and only those', async (t, dc) => {
  const s = setup(t, dc);
  const a = await s.replica(hangingModel);
  const b = await s.replica(hangingModel);
  const mine = [await a.runs.start(principal, { chatId: 'c1', message: 'one', environmentId: undefined }), await a.runs.start(principal, { chatId: 'c2', message: 'two', environmentId: undefined })];
  const theirs = await b.runs.start(principal, { chatId: 'c3', message: 'three', environmentId: undefined });
  await turns();
  s.clock.advance(1234);
  await a.runs.liveness.heartbeat();
  for (const run of mine) t.is((await getRun(a.store, run.row.id))!.heartbeat_at, s.clock.now());
  t.is((await getRun(a.store, theirs.row.id))!.heartbeat_at, theirs.row.created_at);
});

dialectTest("a heartbeat while a run's end is being recorded leaves the run to finish: its follower gets completed", async (t, dc) => {
  const s = setup(t, dc);
  // The answer's write into the chat is held, as a group commit or a busy chats store holds it, after
  // the run's end is in agent_runs: the run is no longer running in the store but still at work here.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let recording!: () => void;
  const recordingStarted = new Promise<void>((resolve) => (recording = resolve));
  const recordAnswer = s.chats.recordAnswer.bind(s.chats);
  s.chats.recordAnswer = async (p, input) => {
    recording();
    await held;
    return recordAnswer(p, input);
  };
  const a = await s.replica(quickModel);
  const started = await a.runs.start(principal, { chatId: 'c1', message: 'How many orders?', environmentId: undefined });
  const follower = await follow(a.runs, started.row.id, 'c1');
  await recordingStarted;
  await a.runs.liveness.heartbeat();
  release();
  const row = await started.done;
  t.is(row.status, 'completed');
  await turns();
  t.like(follower.seen.at(-1)?.event, { type: 'completed', status: 'completed' });
  t.true(follower.ended());
});
