import test from 'ava';
import type { AgentEvent } from '../../src/agent/events.ts';
import { runAgentLoop } from '../../src/agent/loop/run-agent.ts';
import { LlmError } from '../../src/agent/providers/errors.ts';
import type { LlmProvider, LlmStreamEvent } from '../../src/agent/providers/types.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Runs the loop on a provider whose stream is `script`, and returns the events it emitted. */
async function eventsOf(script: () => AsyncGenerator<LlmStreamEvent>) {
  const events: AgentEvent[] = [];
  const provider: LlmProvider = { name: 'scripted', model: 'm', stream: script };
  const result = await runAgentLoop({
    provider,
    tools: [],
    system: 'test',
    messages: [{ role: 'user', content: 'q' }],
    toolContext: { principal: { userId: 'u', email: 'u@example.com', orgId: 'o', baseOrgId: 'o', role: 'user', permissions: [], credential: 'session', scopes: [] }, environmentId: undefined, chatId: 'c', ports: {} as never, rowLimit: 10, state: {} as never, emit: (e) => events.push(e) },
    maxSteps: 2,
    toolTimeoutMs: 1000,
    signal: new AbortController().signal,
    control: { takeFeedback: () => [], stopRequested: () => false, stopSignal: new AbortController().signal },
    emit: (e) => events.push(e),
  });
  return { result, events };
}

test('pieces of text that arrive together leave as one text_delta; pieces apart in time leave one each', async (t) => {
  const { result, events } = await eventsOf(async function* () {
    // One read from the model's connection: its pieces are decoded without waiting for I/O.
    yield { type: 'text_delta', text: 'Hel' };
    yield { type: 'text_delta', text: 'lo' };
    await nextTurn();
    yield { type: 'text_delta', text: ', world' };
    yield { type: 'finish', reason: 'stop' };
  });
  t.deepEqual(events, [
    { type: 'text_delta', text: 'Hello' },
    { type: 'text_delta', text: ', world' },
  ]);
  t.is(result.text, 'Hello, world');
});

test('text received before a provider failure is delivered before the error event', async (t) => {
  const { result, events } = await eventsOf(async function* () {
    yield { type: 'text_delta', text: 'partial' };
    throw new LlmError('LLM_UNAVAILABLE', 'the model went away', 503);
  });
  t.deepEqual(events.map((e) => e.type), ['text_delta', 'error']);
  t.is(result.status, 'failed');
});
