// Keeps the search queue (migration 0051) drained as messages arrive: a write asks for a drain and
// returns; the drain runs after that turn of the event loop, in the bounded slices of
// indexQueueInSlices. A search then finds the queue about empty instead of indexing everything written
// since the last search (issue 38: 7.8 s for the first search after 100,000 messages).
import type { Executor } from '../store/index.ts';
import { indexQueueInSlices } from './message-index.ts';

export interface SearchIndexer {
  /** Asks for the queue to be indexed after the current turn; returns at once, never throws. */
  nudge(): void;
  /** Settles when no drain is running or asked for (the bench, tests and shutdown wait on it). */
  idle(): Promise<void>;
}

/** One drain at a time per process; a nudge during a drain runs one more after it, for what came since its last slice. */
export function createSearchIndexer(x: Executor, { onError, slice }: { onError: (err: unknown) => void; slice?: number }): SearchIndexer {
  let running: Promise<void> | undefined;
  let again = false;
  const drain = (): Promise<void> =>
    new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => indexQueueInSlices(x, slice))
      .catch(onError)
      .then(() => {
        if (!again) return void (running = undefined);
        again = false;
        running = drain();
        return running;
      });
  return {
    nudge() {
      if (running) again = true;
      else running = drain();
    },
    idle: () => running ?? Promise.resolve(),
  };
}
