// Buses of several replicas in one test process, shared as Redis would share them: a message reaches
// every replica's subscribers at once, and a request is answered by every replica's handlers.
import type { BusHandler, MessageBus } from '../../src/ops/bus/index.ts';

export function sharedBuses(): { next(): MessageBus } {
  const handlers = new Map<string, Set<BusHandler>>();
  const ready = Promise.resolve();
  const of = (channel: string) => [...(handlers.get(channel) ?? [])];
  const next = (): MessageBus => ({
    shared: true,
    publish: (channel, message) => {
      for (const h of of(channel)) h(message, false);
    },
    subscribe(channel, handler) {
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set.add(handler));
      return { ready, close: () => void set.delete(handler) };
    },
    request: async (channel, message) => {
      let answer: unknown;
      for (const h of of(channel)) answer ??= h(message, false);
      return answer;
    },
    close: () => Promise.resolve(),
  });
  return { next };
}
