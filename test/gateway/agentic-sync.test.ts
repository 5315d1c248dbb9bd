import test from 'ava';
import { openAiProvider } from '../../src/agent/providers/openai-provider.ts';
import { usageTotals } from '../../src/agent/index.ts';
import { startAgentApp, type AgentTestApp } from '../helpers/agent-app.ts';
import { startScriptedServer, type ScriptedServer, type ScriptedReply } from '../helpers/llm-servers.ts';
import { collectEvents } from '../helpers/sse.ts';

type Msg = { role: string; content?: string | null; tool_calls?: unknown[] };

// A scripted model that writes a wrong query first, reads the error, corrects it, then answers.
const selfCorrecting = (body: Record<string, unknown>): ScriptedReply => {
  const messages = body['messages'] as Msg[];
  const tools = messages.filter((m) => m.role === 'tool');
  if (!body['tools']) return { text: 'Summary: stopped.', usage: { input: 50, output: 5 } };
  if (tools.length === 0) return { toolCalls: [{ id: 'c1', name: 'run_sql', args: { connection_id: 'demo_warehouse', sql: 'SELECT COUNT(*) AS n FROM orderz' } }], usage: { input: 1000, output: 20 } };
  if (tools.length === 1) return { toolCalls: [{ id: 'c2', name: 'run_sql', args: { connection_id: 'demo_warehouse', sql: 'SELECT COUNT(*) AS n FROM orders' } }], usage: { input: 1000, output: 20 } };
  return { text: 'There are 40 orders.', usage: { input: 1000, output: 10 } };
};

let t0: AgentTestApp;
let llm: ScriptedServer;
test.before(async () => {
  llm = await startScriptedServer('openai', (body) => selfCorrecting(body));
  t0 = await startAgentApp(
    { SEXTANT_CREDITS_PER_1K_INPUT_TOKENS: '1', SEXTANT_CREDITS_PER_1K_OUTPUT_TOKENS: '2', SEXTANT_CREDITS_PER_QUERY: '0.5' },
    openAiProvider({ model: 'scripted', apiKey: 'k', baseUrl: llm.url, maxRetries: 0 }),
  );
});
test.after.always(async () => {
  await t0.stop();
  await llm.close();
});

test.serial('POST /api/agentic answers synchronously; a failed query goes back to the model, which corrects it', async (t) => {
  const u = t0.user();
  const res = await t0.post('/api/agentic', u, { chat_id: 'sync-1', messages: [{ role: 'user', content: 'How many orders?' }] });
  t.is(res.status, 200);
  const body = (await res.json()) as { status: string; content: string; credits: number; sql: { ok: boolean }[]; tables: { rows: unknown[][] }[] };
  t.is(body.status, 'completed');
  t.is(body.content, 'There are 40 orders.');
  t.deepEqual(body.sql.map((q) => q.ok), [false, true]);
  t.deepEqual(body.tables[0]!.rows, [['40']]);
  // 3000 input tokens, 50 output tokens, 2 queries: 3 + 0.1 + 1.
  t.is(body.credits, 4.1);
  const errorSeen = llm.requests.at(-2)!.body['messages'] as Msg[];
  t.regex(String(errorSeen.at(-1)!.content), /QUERY_FAILED/);
  const totals = await usageTotals(t0.app.services.executor, { orgId: 'acme', userId: u.id });
  t.like(totals, { runs: 1, input_tokens: 3000, output_tokens: 50, queries: 2, credits: 4.1 });
  t.true((await usageTotals(t0.app.services.executor, { orgId: 'acme' })).credits >= 4.1);
});

test.serial('agentic_with_history sends earlier turns to the model and returns the chat history', async (t) => {
  const u = t0.user();
  await t0.post('/api/agentic_with_history', u, { chat_id: 'hist-1', message: 'How many orders?' });
  const res = await t0.post('/api/agentic_with_history', u, { chat_id: 'hist-1', message: 'And again?' });
  t.is(res.status, 200);
  const body = (await res.json()) as { history: { role: string; content: string }[] };
  t.deepEqual(body.history.map((h) => h.role), ['user', 'assistant', 'user', 'assistant']);
  const sent = llm.requests.at(-1)!.body['messages'] as Msg[];
  t.true(sent.some((m) => m.role === 'assistant' && m.content === 'There are 40 orders.'));
  // The run reads the chat after its question joined it: the question reaches the model once, after the earlier turns.
  const turns = sent.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => `${m.role}: ${String(m.content)}`);
  t.deepEqual(turns.filter((m) => m.startsWith('user: ')), ['user: How many orders?', 'user: And again?']);
  t.true(turns.indexOf('user: And again?') > turns.indexOf('assistant: There are 40 orders.'));
});

test.serial('the last message of /api/agentic must come from the user (422)', async (t) => {
  const u = t0.user();
  const res = await t0.post('/api/agentic', u, { chat_id: 'sync-2', messages: [{ role: 'assistant', content: 'hi' }] });
  t.is(res.status, 422);
});

test.serial('rerun_agentic_query runs the answer\'s queries again with the caller\'s permissions', async (t) => {
  const u = t0.user();
  const answer = (await (await t0.post('/api/agentic', u, { chat_id: 'rerun-1', messages: [{ role: 'user', content: 'How many orders?' }] })).json()) as { answer_uuid: string };
  const before = t0.wh.calls.length;
  const res = await t0.post('/api/rerun_agentic_query', u, { chat_id: 'rerun-1', message_uuid: answer.answer_uuid });
  t.is(res.status, 200);
  const body = (await res.json()) as { tables: { rows: unknown[][]; sql: string }[] };
  t.deepEqual(body.tables.map((x) => x.rows), [[['40']]]);
  t.is(t0.wh.calls.length, before + 1);
  t.is(t0.wh.calls.at(-1)!.principal.userId, u.id);
  t.is((await t0.post('/api/rerun_agentic_query', u, { chat_id: 'rerun-1', df_key: 'df_nope' })).status, 404);
});

test.serial('the app editor preview of the stream body reaches the model context', async (t) => {
  const u = t0.user();
  const res = await t0.post('/api/agentic/stream', u, { chat_id: 'preview-1', message: 'How many orders?', preview: { page: 'Sales dashboard', widgets: ['revenue-by-month'] } });
  await collectEvents(res);
  const withPreview = llm.requests.filter((r) => String((r.body['messages'] as Msg[])[0]!.content).includes('Sales dashboard'));
  t.true(withPreview.length > 0);
});

test.serial('a provider error surfaces as an error event and the chat still finishes', async (t) => {
  const bad = await startScriptedServer('openai', [{ status: 401 }]);
  const t1 = await startAgentApp({}, openAiProvider({ model: 'scripted', apiKey: 'wrong', baseUrl: bad.url, maxRetries: 0 }));
  t.teardown(async () => {
    await t1.stop();
    await bad.close();
  });
  const u = t1.user();
  const events = await collectEvents(await t1.post('/api/agentic/stream', u, { chat_id: 'err-1', message: 'How many orders?' }));
  const error = events.find((e) => e.event === 'error')!;
  t.is(error.data!['code'], 'LLM_AUTH_FAILED');
  const completed = events.at(-1)!;
  t.is(completed.event, 'completed');
  t.is(completed.data!['status'], 'failed');
  const chat = t1.chats.chats.get('acme/err-1')!;
  t.deepEqual(chat.messages.map((m) => m.role), ['user', 'assistant']);
  // A new question can be asked in the same chat afterwards.
  const again = await t1.post('/api/agentic/stream', u, { chat_id: 'err-1', message: 'How many orders?' });
  t.is(again.status, 200);
  await collectEvents(again);
});

test.serial('service shutdown ends open event streams cleanly', async (t) => {
  const t1 = await startAgentApp();
  const u = t1.user();
  t1.hold();
  const res = await t1.post('/api/agentic/stream', u, { chat_id: 'down-1', message: 'How many orders?' });
  const events = collectEvents(res);
  await t1.queryWaiting();
  t1.app.drain();
  const got = await events;
  t.is(got[0]!.event, 'run_started');
  t1.release();
  await t1.stop();
});
