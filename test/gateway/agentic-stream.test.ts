import test from 'ava';
import { connect, Socket } from 'node:net';
import type { UserRow } from '../../src/auth/index.ts';
import { startAgentApp, type AgentTestApp } from '../helpers/agent-app.ts';
import { collectEvents, sseFrames, type SseFrame } from '../helpers/sse.ts';

let t0: AgentTestApp;
let alice: UserRow;
let bob: UserRow;
test.before(async () => {
  t0 = await startAgentApp();
  alice = t0.user();
  bob = t0.user();
});
test.after.always(() => t0.stop());

const subscribe = (user: UserRow, chatId: string, lastId?: number) =>
  t0.fetch(`/api/agentic/subscribe/${chatId}`, { headers: { authorization: `Bearer ${t0.session(user)}`, ...(lastId ? { 'Last-Event-ID': String(lastId) } : {}) } });
const types = (fs: SseFrame[]) => fs.map((f) => f.event);

test.serial('a streamed run sends numbered events from run_started to completed with credits', async (t) => {
  const res = await t0.post('/api/agentic/stream', alice, { chat_id: 'stream-1', message: 'Total revenue by channel' });
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const events = await collectEvents(res);
  t.is(events[0]!.event, 'run_started');
  t.is(events.at(-1)!.event, 'completed');
  const ids = events.map((e) => e.id!);
  t.deepEqual(ids, [...ids].sort((a, b) => a - b));
  t.is(new Set(ids).size, ids.length);
  for (const type of ['tool_call', 'tool_result', 'sql', 'table', 'chart', 'text_delta']) t.true(types(events).includes(type), type);
  const completed = events.at(-1)!.data!;
  t.is(completed['status'], 'completed');
  t.is(typeof completed['credits'], 'number');
  t.true((completed['credits'] as number) > 0, 'a query costs credits');
  // The chat holds the question and the answer with its tables and knowledge commit.
  const chat = t0.chats.chats.get(`acme/stream-1`)!;
  t.deepEqual(chat.messages.map((m) => m.role), ['user', 'assistant']);
  t.is(chat.messages[1]!.answer!.tables.length, 1);
  t.is(chat.messages[1]!.knowledgeCommit, 'memory');
  t.true(chat.messages[1]!.knowledgeItems!.some((i) => i.path === 'tables/demo_warehouse/main.orders.yaml'));
});

test.serial('a client that goes away stops being served at once while its run goes on', async (t) => {
  t0.hold();
  const res = await t0.post('/api/agentic/stream', alice, { chat_id: 'gone-1', message: 'How many orders by status?' });
  const first = await collectEvents(res, (f) => f.event === 'tool_call' && (f.data!['name'] as string) === 'run_sql');
  const runId = first[0]!.data!['run_id'] as string;
  await t0.queryWaiting();
  const agent = t0.app.services.agent;
  // The server learns of the closed connection through I/O: a few turns of the event loop.
  for (let turn = 0; turn < 10_000 && agent.bus.count(runId) > 0; turn++) await new Promise((resolve) => setImmediate(resolve));
  t.is(agent.bus.count(runId), 0, 'the stream of the client that left no longer follows the run');
  t.true(agent.isActive(runId));
  t0.release();
  const rest = await collectEvents(await subscribe(alice, 'gone-1', first.at(-1)!.id));
  t.is(rest.at(-1)!.event, 'completed');
});

test.serial('a dropped connection resumes with Last-Event-ID without gaps or repeats, and the run went on', async (t) => {
  t0.hold();
  const res = await t0.post('/api/agentic/stream', alice, { chat_id: 'resume-1', message: 'How many orders by status?' });
  const first = await collectEvents(res, (f) => f.event === 'tool_call' && (f.data!['name'] as string) === 'run_sql');
  // The client goes away while the query is held.
  await t0.queryWaiting();
  t0.release();
  const rest = await collectEvents(await subscribe(alice, 'resume-1', first.at(-1)!.id));
  const all = [...first, ...rest];
  t.is(all[0]!.event, 'run_started');
  t.is(all.at(-1)!.event, 'completed');
  t.is(new Set(all.map((e) => e.id)).size, all.length);
  t.true(rest[0]!.id! > first.at(-1)!.id!);
  // A subscriber without Last-Event-ID gets the whole run again.
  const replay = await collectEvents(await subscribe(alice, 'resume-1'));
  t.deepEqual(replay.map((e) => e.id), all.map((e) => e.id));
});

test.serial('two subscribers on one run receive the same events', async (t) => {
  t0.hold();
  const res = await t0.post('/api/agentic/stream', alice, { chat_id: 'two-1', message: 'Number of customers per country' });
  const a = collectEvents(await subscribe(alice, 'two-1'));
  const b = collectEvents(await subscribe(alice, 'two-1'));
  const own = collectEvents(res);
  await t0.queryWaiting();
  t0.release();
  const [ea, eb, eo] = await Promise.all([a, b, own]);
  t.is(ea.at(-1)!.event, 'completed');
  t.deepEqual(ea.map((e) => e.id), eb.map((e) => e.id));
  t.deepEqual(ea.map((e) => e.id), eo.map((e) => e.id));
});

test.serial('feedback lands after the current tool execution and steers the next query', async (t) => {
  t0.hold();
  const res = await t0.post('/api/agentic/stream', alice, { chat_id: 'fb-1', message: 'How many orders are there?' });
  const events = collectEvents(res);
  await t0.queryWaiting();
  const fb = await t0.post('/api/agentic/feedback', alice, { chat_id: 'fb-1', feedback: 'only the completed ones' });
  t.is(fb.status, 200);
  const body = (await fb.json()) as { status: string; feedback_id: string };
  t.is(body.status, 'queued');
  t.truthy(body.feedback_id);
  t0.release();
  const all = await events;
  const order = types(all);
  const applied = order.indexOf('feedback_applied');
  t.true(applied > order.indexOf('tool_result'), 'after the held tool finished');
  t.is(all[applied]!.data!['feedback_id'], body.feedback_id);
  const sqls = all.filter((e) => e.event === 'sql').map((e) => e.data!['sql'] as string);
  t.is(sqls.length, 2);
  t.false(sqls[0]!.includes('completed'));
  t.true(sqls[1]!.includes("status = 'completed'"));
  const lastTable = all.filter((e) => e.event === 'table').at(-1)!;
  t.deepEqual(lastTable.data!['rows'], await t0.wh.rows("SELECT COUNT(*) FROM orders WHERE status = 'completed'"));
  t.is(all.at(-1)!.event, 'completed');
});

test.serial('stop wraps up with a short summary and completed', async (t) => {
  t0.hold();
  const res = await t0.post('/api/agentic/stream', alice, { chat_id: 'stop-1', message: 'Total revenue by country' });
  const events = collectEvents(res);
  await t0.queryWaiting();
  const stop = await t0.post('/api/agentic/stop', alice, { chat_id: 'stop-1' });
  t.is(stop.status, 200);
  t.is(((await stop.json()) as { status: string }).status, 'stopping');
  t0.release();
  const all = await events;
  t.true(types(all).includes('stop_requested'));
  t.false(types(all).includes('chart'), 'no further tool ran');
  const completed = all.at(-1)!;
  t.is(completed.event, 'completed');
  t.is(completed.data!['status'], 'stopped');
  t.regex(completed.data!['content'] as string, /^Stopped as asked/);
  t.is(typeof completed.data!['credits'], 'number');
  const chat = t0.chats.chats.get('acme/stop-1')!;
  t.is(chat.messages.at(-1)!.role, 'assistant');
  // Stopping a finished run changes nothing.
  const again = await t0.post('/api/agentic/stop', alice, { chat_id: 'stop-1' });
  t.is(((await again.json()) as { status: string }).status, 'not_running');
});

test.serial('keep-alive comments flow while a tool is running', async (t) => {
  const t1 = await startAgentApp({ SEXTANT_SSE_KEEPALIVE_MS: '20' });
  t.teardown(() => t1.stop());
  const u = t1.user();
  t1.hold();
  const res = await t1.post('/api/agentic/stream', u, { chat_id: 'ka-1', message: 'How many orders are there?' });
  let comments = 0;
  await t1.queryWaiting();
  for await (const f of sseFrames(res)) {
    if (f.comment === 'keep-alive' && ++comments === 2) t1.release();
    if (f.event === 'completed') break;
  }
  t.true(comments >= 2);
});

test.serial('another user cannot subscribe to, steer or stop a chat, nor post into it (404)', async (t) => {
  const res = await t0.post('/api/agentic/stream', alice, { chat_id: 'private-1', message: 'How many products are there?' });
  await collectEvents(res);
  t.is((await subscribe(bob, 'private-1')).status, 404);
  t.is((await t0.post('/api/agentic/feedback', bob, { chat_id: 'private-1', feedback: 'x' })).status, 404);
  t.is((await t0.post('/api/agentic/stop', bob, { chat_id: 'private-1' })).status, 404);
  t.is((await t0.post('/api/agentic/stream', bob, { chat_id: 'private-1', message: 'How many orders?' })).status, 404);
  t.is((await t0.post('/api/rerun_agentic_query', bob, { chat_id: 'private-1' })).status, 404);
  t.is((await subscribe(alice, 'no-such-chat')).status, 404);
});

test.serial('every query of a run runs with its own user\'s principal', async (t) => {
  const before = t0.wh.calls.length;
  const [ra, rb] = await Promise.all([
    t0.post('/api/agentic/stream', alice, { chat_id: 'perm-a', message: 'Total revenue by channel' }),
    t0.post('/api/agentic/stream', bob, { chat_id: 'perm-b', message: 'How many orders by status?' }),
  ]);
  await Promise.all([collectEvents(ra), collectEvents(rb)]);
  const calls = t0.wh.calls.slice(before);
  t.true(calls.length >= 2);
  for (const c of calls) {
    const expected = c.sql.includes('channel') ? alice.id : bob.id;
    t.is(c.principal.userId, expected);
    t.is(c.principal.orgId, 'acme');
  }
});

test.serial('requests without credentials answer 401 and bad bodies 422', async (t) => {
  const res = await t0.fetch('/api/agentic/stream', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: 'x', message: 'hi' }) });
  t.is(res.status, 401);
  const bad = await t0.post('/api/agentic/stream', alice, { chat_id: '', message: 'hi' });
  t.is(bad.status, 422);
  t.deepEqual(((await bad.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc, ['body', 'chat_id']);
  t.is((await t0.post('/api/agentic/feedback', alice, { chat_id: 'x' })).status, 422);
  // A question past the limit: the message names the limit (the web client adds the length sent).
  const long = await t0.post('/api/agentic/stream', alice, { chat_id: 'x', message: 'x'.repeat(20_001) });
  t.is(long.status, 422);
  const issue = ((await long.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] }).detail[0]!;
  t.deepEqual([issue.loc, issue.type], [['body', 'message'], 'string_too_long']);
  t.regex(issue.msg, /at most 20,000 characters/);
  t.is((await t0.fetch('/api/agentic/subscribe/x')).status, 401);
});

test.serial('a run inside an environment tags the chat with its name; an unknown environment is 404', async (t) => {
  const res = await t0.post('/api/agentic/stream', alice, { chat_id: 'env-1', message: 'How many orders?' }, { 'X-Service-Environment': 'env-q4' });
  const events = await collectEvents(res);
  t.is(events[0]!.data!['environment'], 'Q4 metrics');
  t.is(t0.chats.chats.get('acme/env-1')!.environment, 'Q4 metrics');
  const unknown = await t0.post('/api/agentic/stream', alice, { chat_id: 'env-2', message: 'How many orders?' }, { 'X-Service-Environment': 'nope' });
  t.is(unknown.status, 404);
});

test.serial('a quick-fix session started from production runs in a new throwaway environment', async (t) => {
  const events = await collectEvents(await t0.post('/api/agentic/stream', alice, { chat_id: 'qf-1', message: 'How many orders?', quick_fix: true }));
  t.regex(String(events[0]!.data!['environment']), /^Quick fix/);
  t.regex(t0.chats.chats.get('acme/qf-1')!.environment ?? '', /^Quick fix/);
});

test.serial('a new stream sends its head, the retry hint and run_started in one write', async (t) => {
  const { hostname, port } = new URL(t0.url);
  const body = JSON.stringify({ chat_id: 'one-write-1', message: 'How many orders by status?' });
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  // What the server hands its end of this connection to the kernel, write by write (the server runs
  // in this process): the client's bytes alone could not tell, loopback joins writes that come close.
  const writes: string[] = [];
  const proto = Socket.prototype as unknown as { _writeGeneric(writev: boolean, data: unknown, encoding: string, cb: unknown): void };
  const original = proto._writeGeneric;
  proto._writeGeneric = function (this: Socket, writev, data, encoding, cb) {
    if (this.remotePort === socket.localPort) {
      const pieces = writev ? (data as { chunk: unknown }[]).map((d) => d.chunk) : [data];
      writes.push(pieces.map((c) => (Buffer.isBuffer(c) ? c.toString('utf8') : String(c))).join(''));
    }
    return original.call(this, writev, data, encoding, cb);
  };
  t.teardown(() => {
    proto._writeGeneric = original;
    socket.destroy();
  });
  const first = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(chunk.toString('utf8'))));
  socket.write(`POST /api/agentic/stream HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${t0.session(alice)}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  t.regex(await first, /^HTTP\/1\.1 200 /);
  const head = writes[0]!;
  t.regex(head, /^HTTP\/1\.1 200 /);
  t.regex(head, /text\/event-stream/);
  t.regex(head, /retry: 2000\n\n/);
  t.regex(head, /event: run_started\n/, 'run_started leaves with the head');
  t.true(head.indexOf('retry: 2000') < head.indexOf('event: run_started'));
  // The run goes on and is recorded: its events replay to the end as usual.
  const rest = await collectEvents(await subscribe(alice, 'one-write-1'));
  t.is(rest[0]!.event, 'run_started');
  t.is(rest.at(-1)!.event, 'completed');
});
