// An in-process model for gateway tests: it answers each question in one text turn, from a function
// of the question and the system prompt (which carries the knowledge the agent retrieved, so answers
// follow the knowledge commit a run reads). A question can be held until the test releases it.
import type { LlmProvider, LlmRequest, LlmStreamEvent } from '../../src/agent/index.ts';

export interface ScriptedProvider extends LlmProvider {
  /** Every question asked, in order. */
  asked: string[];
  /** Holds the next question matching `pattern` until `release()`; `reached` settles when it waits. */
  hold(pattern: RegExp): { reached: Promise<void>; release(): void };
}

export function scriptedProvider(reply: (question: string, system: string) => string): ScriptedProvider {
  const holds: { pattern: RegExp; reached: () => void; released: Promise<void> }[] = [];
  const provider: ScriptedProvider = {
    name: 'scripted',
    model: 'scripted-1',
    asked: [],
    hold(pattern) {
      let reached!: () => void;
      let release!: () => void;
      const reachedP = new Promise<void>((resolve) => (reached = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ pattern, reached, released });
      return { reached: reachedP, release };
    },
    async *stream(req: LlmRequest): AsyncIterable<LlmStreamEvent> {
      const last = [...req.messages].reverse().find((m) => m.role === 'user');
      const question = last?.content ?? '';
      provider.asked.push(question);
      const at = holds.findIndex((h) => h.pattern.test(question));
      const held = at >= 0 ? holds.splice(at, 1)[0] : undefined;
      if (held) {
        held.reached();
        await Promise.race([held.released, new Promise((resolve) => req.signal?.addEventListener('abort', resolve, { once: true }))]);
      }
      yield { type: 'text_delta', text: reply(question, req.system) };
      yield { type: 'usage', usage: { inputTokens: 10, outputTokens: 5 } };
      yield { type: 'finish', reason: 'stop' };
    },
  };
  return provider;
}
