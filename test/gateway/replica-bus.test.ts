// Two replicas of the gateway in one test process, on one store (one data folder, a connection each)
// and one Redis, each with its own Redis connections: a run started through A is followed through B
// with Last-Event-ID, stopped and steered through B, and a token_version bump through A is seen by
// B's next request. A Redis connection cut in the middle of a stream loses no event.
import { randomUUID } from 'node:crypto';
import { invalidateSessions } from '../../src/auth/credentials/invalidate-sessions.ts';
import type { UserRow } from '../../src/auth/index.ts';
import { startAgentApp, type AgentTestApp } from '../helpers/agent-app.ts';
import { REDIS_URL, redisTest } from '../helpers/redis.ts';
import { collectEvents, type SseFrame } from '../helpers/sse.ts';
import { startTcpProxy } from '../helpers/tcp-proxy.ts';

const redis = await redisTest();

/** Replica A, then replica B on A's data folder (B starts before any run, though it would fail only runs whose heartbeat is stale). */
async function replicas(t: { teardown(f: () => Promise<unknown>): void }, redisUrl = REDIS_URL): Promise<[AgentTestApp, AgentTestApp]> {
  const env = { SEXTANT_REDIS_URL: redisUrl, SEXTANT_REDIS_PREFIX: `test-${randomUUID()}` };
  const a = await startAgentApp(env);
  const b = await startAgentApp({ ...env, SEXTANT_DATA_DIR: a.config.dataDir });
  // B first: A's stop removes the shared folder.
  t.teardown(async () => {
    await b.stop();
    await a.stop();
  });
  return [a, b];
}

// Sessions are started through A (the store is shared; B's helpers know nothing of A's users).
const sessionOf = (a: AgentTestApp, user: UserRow) => a.session(user);
const subscribe = (app: AgentTestApp, session: string, chatId: string, lastId?: number) =>
  app.fetch(`/api/agentic/subscribe/${chatId}`, { headers: { authorization: `Bearer ${session}`, ...(lastId ? { 'Last-Event-ID': String(lastId) } : {}) } });
const post = (app: AgentTestApp, session: string, path: string, body: unknown) =>
  app.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` }, body: JSON.stringify(body) });
const untilQuery = (f: SseFrame) => f.event === 'tool_call' && f.data!['name'] === 'run_sql';

/** Settles once B's subscription to the run's channel is live (a second subscriber shares it). */
async function followedThroughRedis(b: AgentTestApp, first: SseFrame[]): Promise<void> {
  const subscription = b.app.services.ops.bus.subscribe(`run:${first[0]!.data!['run_id'] as string}`, () => {});
  await subscription.ready;
  subscription.close();
}

/** Checks that `first` then `rest` are the whole run as A's journal has it: every event once, in order. */
async function assertWholeRun(t: { deepEqual(a: unknown, b: unknown, m?: string): void; is(a: unknown, b: unknown): void }, a: AgentTestApp, user: string, chatId: string, first: SseFrame[], rest: SseFrame[]) {
  const all = [...first, ...rest];
  t.is(all.at(-1)!.event, 'completed');
  const replay = await collectEvents(await subscribe(a, user, chatId));
  t.deepEqual(all.map((e) => e.id), replay.map((e) => e.id), 'every event once, in order');
}

redis.serial('a stream started through A is resumed through B with Last-Event-ID: every event exactly once', async (t) => {
  const [a, b] = await replicas(t);
  const user = sessionOf(a, a.user());
  a.hold();
  const first = await collectEvents(await post(a, user, '/api/agentic/stream', { chat_id: 'r-1', message: 'How many orders by status?' }), untilQuery);
  await a.queryWaiting();
  const resumed = collectEvents(await subscribe(b, user, 'r-1', first.at(-1)!.id));
  await followedThroughRedis(b, first);
  // B follows: A's run now produces the rest of its events.
  a.release();
  const rest = await resumed;
  t.true(rest[0]!.id! > first.at(-1)!.id!);
  await assertWholeRun(t, a, user, 'r-1', first, rest);
  // And from the start, through B, once the run is over.
  t.deepEqual((await collectEvents(await subscribe(b, user, 'r-1'))).map((e) => e.id), [...first, ...rest].map((e) => e.id));
});

redis.serial('a follower attaching through B while A\'s run produces its events gets each of them once', async (t) => {
  const [a, b] = await replicas(t);
  const user = sessionOf(a, a.user());
  a.hold();
  const first = await collectEvents(await post(a, user, '/api/agentic/stream', { chat_id: 'race-1', message: 'Number of customers per country' }), untilQuery);
  await a.queryWaiting();
  // No waiting for B: the rest of the run is committed and published while B subscribes and reads.
  const resumed = subscribe(b, user, 'race-1', first.at(-1)!.id);
  a.release();
  const rest = await collectEvents(await resumed);
  await assertWholeRun(t, a, user, 'race-1', first, rest);
});

redis.serial('stop and feedback sent through B reach the run A executes', async (t) => {
  const [a, b] = await replicas(t);
  const user = sessionOf(a, a.user());
  a.hold();
  const events = collectEvents(await post(a, user, '/api/agentic/stream', { chat_id: 'fb-1', message: 'How many orders are there?' }));
  await a.queryWaiting();
  const fb = await post(b, user, '/api/agentic/feedback', { chat_id: 'fb-1', feedback: 'only the completed ones' });
  t.is(fb.status, 200);
  const queued = (await fb.json()) as { status: string; feedback_id: string };
  t.is(queued.status, 'queued');
  const stop = await post(b, user, '/api/agentic/stop', { chat_id: 'fb-1' });
  t.like(await stop.json(), { status: 'stopping' });
  a.release();
  const all = await events;
  t.true(all.some((e) => e.event === 'stop_requested'));
  t.like(all.at(-1), { event: 'completed', data: { status: 'stopped' } });
  // Once the run is over no replica runs it: both say so at once.
  t.like(await (await post(b, user, '/api/agentic/stop', { chat_id: 'fb-1' })).json(), { status: 'not_running' });
  t.like(await (await post(b, user, '/api/agentic/feedback', { chat_id: 'fb-1', feedback: 'x' })).json(), { status: 'not_running', feedback_id: null });
});

redis.serial('feedback sent through B is given to the model of A\'s run after the current tool', async (t) => {
  const [a, b] = await replicas(t);
  const user = sessionOf(a, a.user());
  a.hold();
  const events = collectEvents(await post(a, user, '/api/agentic/stream', { chat_id: 'fb-2', message: 'How many orders are there?' }));
  await a.queryWaiting();
  const queued = (await (await post(b, user, '/api/agentic/feedback', { chat_id: 'fb-2', feedback: 'only the completed ones' })).json()) as { feedback_id: string };
  a.release();
  const all = await events;
  t.is(all.find((e) => e.event === 'feedback_applied')?.data!['feedback_id'], queued.feedback_id);
  t.true(all.filter((e) => e.event === 'sql').at(-1)!.data!['sql']!.toString().includes("status = 'completed'"));
});

redis.serial('a token_version bump through A is seen by B\'s next request, though B had the session cached', async (t) => {
  const [a, b] = await replicas(t);
  const user = a.user();
  const headers = { authorization: `Bearer ${sessionOf(a, user)}` };
  t.is((await b.fetch('/api/auth/me', { headers })).status, 200);
  t.is((await b.fetch('/api/auth/me', { headers })).status, 200, 'served from B\'s cache');
  // B's subscribers of the channel are told in order: once this one is, B's cache has been dropped.
  const told = new Promise<void>((resolve) => {
    const sub = b.app.services.ops.bus.subscribe('auth:credentials-changed', (_m, local) => {
      if (local) return;
      sub.close();
      resolve();
    });
  });
  invalidateSessions(a.app.services.store.sqlite!, a.clock, user.id);
  await told;
  t.is((await b.fetch('/api/auth/me', { headers })).status, 401);
});

redis.serial('a Redis connection cut in the middle of a stream followed through B loses no event', async (t) => {
  const proxy = await startTcpProxy(new URL('http://127.0.0.1:6379'));
  t.teardown(() => proxy.close());
  const [a, b] = await replicas(t, `redis://127.0.0.1:${new URL(proxy.url).port}/0`);
  const user = sessionOf(a, a.user());
  a.hold();
  const first = await collectEvents(await post(a, user, '/api/agentic/stream', { chat_id: 'cut-1', message: 'Total revenue by channel' }), untilQuery);
  await a.queryWaiting();
  const resumed = collectEvents(await subscribe(b, user, 'cut-1', first.at(-1)!.id));
  await followedThroughRedis(b, first);
  // Both replicas lose Redis while the run produces the rest of its events.
  proxy.cut();
  a.release();
  const rest = await resumed;
  await assertWholeRun(t, a, user, 'cut-1', first, rest);
});
