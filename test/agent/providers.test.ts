import test from 'ava';
import { anthropicProvider } from '../../src/agent/providers/anthropic-provider.ts';
import { createProvider } from '../../src/agent/providers/create-provider.ts';
import { LlmError } from '../../src/agent/providers/errors.ts';
import { openAiProvider } from '../../src/agent/providers/openai-provider.ts';
import { collectTurn, type LlmProvider, type LlmRequest } from '../../src/agent/providers/types.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { startScriptedServer } from '../helpers/llm-servers.ts';

const tools = [{ name: 'run_sql', description: 'Runs SQL', parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] } }];
const request: LlmRequest = {
  system: 'You are a test.',
  messages: [
    { role: 'user', content: 'How many orders?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c0', name: 'run_sql', arguments: '{"sql":"SELECT 1"}' }] },
    { role: 'tool', toolCallId: 'c0', name: 'run_sql', content: '{"rows":[[1]]}' },
    { role: 'user', content: 'feedback: count only completed ones' },
  ],
  tools,
};
const toolReply = { text: 'Let me count.', toolCalls: [{ id: 'call_a', name: 'run_sql', args: { sql: 'SELECT count(*) FROM orders' } }], usage: { input: 120, output: 30 } };

const makers: Record<'openai' | 'anthropic', (url: string, key?: string) => LlmProvider> = {
  openai: (url, key = 'sk-test') => openAiProvider({ model: 'gpt-test', apiKey: key, baseUrl: url, maxRetries: 2, timeoutMs: 5000 }),
  anthropic: (url, key = 'sk-ant-test') => anthropicProvider({ model: 'claude-test', apiKey: key, baseUrl: url, maxRetries: 2, timeoutMs: 5000 }),
};

for (const protocol of ['openai', 'anthropic'] as const) {
  test(`${protocol}: streamed text and tool call fragments become one normalized turn`, async (t) => {
    const server = await startScriptedServer(protocol, [toolReply]);
    t.teardown(() => server.close());
    const events: string[] = [];
    const turn = await collectTurn(makers[protocol](server.url).stream(request), (e) => events.push(e.type));
    t.is(turn.text, 'Let me count.');
    t.deepEqual(turn.toolCalls, [{ id: 'call_a', name: 'run_sql', arguments: '{"sql":"SELECT count(*) FROM orders"}' }]);
    t.is(turn.finish, 'tool_calls');
    t.deepEqual(turn.usage, { inputTokens: 120, outputTokens: 30 });
    t.true(events.filter((e) => e === 'tool_call_delta').length > 1, 'arguments arrive in several deltas');
    t.deepEqual(events.slice(-2), ['usage', 'finish']);
    t.true(events.indexOf('tool_call_start') < events.indexOf('tool_call_end'));
  });

  test(`${protocol}: the request carries the system prompt, tools, tool results and feedback in wire form`, async (t) => {
    const server = await startScriptedServer(protocol, [{ text: 'ok' }]);
    t.teardown(() => server.close());
    await collectTurn(makers[protocol](server.url).stream(request));
    const body = server.requests[0]!.body;
    t.is(body['stream'], true);
    if (protocol === 'openai') {
      const msgs = body['messages'] as { role: string; tool_call_id?: string; tool_calls?: unknown[] }[];
      t.deepEqual(msgs.map((m) => m.role), ['system', 'user', 'assistant', 'tool', 'user']);
      t.is(msgs[3]!.tool_call_id, 'c0');
      t.is((body['tools'] as { function: { name: string } }[])[0]!.function.name, 'run_sql');
      t.is(server.requests[0]!.headers['authorization'], 'Bearer sk-test');
    } else {
      t.is(body['system'], 'You are a test.');
      const msgs = body['messages'] as { role: string; content: { type: string }[] | string }[];
      t.deepEqual(msgs.map((m) => m.role), ['user', 'assistant', 'user']);
      t.deepEqual((msgs[2]!.content as { type: string }[]).map((b) => b.type), ['tool_result', 'text']);
      t.is((body['tools'] as { name: string }[])[0]!.name, 'run_sql');
      const h = server.requests[0]!.headers;
      t.true(h['x-api-key'] === 'sk-ant-test' || h['authorization'] === 'Bearer sk-ant-test');
    }
  });

  test(`${protocol}: a 429 is retried with backoff and the next answer is used`, async (t) => {
    const server = await startScriptedServer(protocol, [{ status: 429 }, { status: 503 }, { text: 'after retries' }]);
    t.teardown(() => server.close());
    const turn = await collectTurn(makers[protocol](server.url).stream(request));
    t.is(turn.text, 'after retries');
    t.is(server.requests.length, 3);
  });

  test(`${protocol}: a wrong key is a typed LLM_AUTH_FAILED error without retries`, async (t) => {
    const server = await startScriptedServer(protocol, [{ status: 401 }]);
    t.teardown(() => server.close());
    const err = await t.throwsAsync(collectTurn(makers[protocol](server.url, 'bad').stream(request)), { instanceOf: LlmError });
    t.is(err?.code, 'LLM_AUTH_FAILED');
    t.is(server.requests.length, 1);
  });

  test(`${protocol}: retries give up after the configured count with LLM_RATE_LIMITED`, async (t) => {
    const server = await startScriptedServer(protocol, [{ status: 429 }]);
    t.teardown(() => server.close());
    const err = await t.throwsAsync(collectTurn(makers[protocol](server.url).stream(request)), { instanceOf: LlmError });
    t.is(err?.code, 'LLM_RATE_LIMITED');
    t.is(server.requests.length, 3);
  });
}

test('a missing key is a typed LLM_KEY_MISSING error', async (t) => {
  const p1 = openAiProvider({ model: 'm' });
  const p2 = anthropicProvider({ model: 'm' });
  for (const p of [p1, p2]) {
    const err = await t.throwsAsync(collectTurn(p.stream(request)), { instanceOf: LlmError });
    t.is(err?.code, 'LLM_KEY_MISSING');
  }
});

test('createProvider builds the configured provider, loading only its SDK', async (t) => {
  for (const provider of ['offline', 'openai', 'anthropic'] as const) {
    const config = loadConfig({ SEXTANT_DATA_DIR: '/tmp/sextant-provider-test', SEXTANT_LLM_PROVIDER: provider, SEXTANT_LLM_API_KEY: 'k', SEXTANT_LLM_MODEL: 'm' });
    const built = await createProvider(config.agent, systemClock);
    t.is(built.name, provider);
  }
});
