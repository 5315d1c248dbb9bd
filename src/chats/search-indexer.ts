// Keeps the search queue (migration 0051) drained as messages arrive: a write asks for a drain and
// returns; the drain runs after that turn of the event loop (or a moment later), in the bounded slices of
// indexQueueInSlices. A search then finds the queue about empty instead of indexing everything written
// since the last search (issue 38: 7.8 s for the first search after 100,000 messages).
import type { Executor } from '../store/index.ts';
import { indexQueueInSlices } from './message-index.ts';

export interface SearchIndexer {
  /** Asks for the queue to be indexed after the current turn (or `settleMs` later); returns at once, never throws. */
  nudge(): void;
  /** Drains what is asked for without settling first; settles when no drain is running or asked for (the bench, tests and shutdown wait on it). */
  idle(): Promise<void>;
}

/**
 * One drain at a time per process; a nudge during a drain runs one more after it, for what came since
 * its last slice. `settleMs` waits that long after a nudge before draining: a burst of questions then
 * pays one FTS commit for its messages after its answers have started, instead of a small drain
 * between every turn of its starts. No search waits for it (a search drains the queue first), and
 * `idle()` cuts the wait short.
 */
export function createSearchIndexer(x: Executor, { onError, slice, settleMs = 0 }: { onError: (err: unknown) => void; slice?: number; settleMs?: number }): SearchIndexer {
  let running: Promise<void> | undefined;
  let again = false;
  /** Ends the settling wait of the drain asked for, if it is still waiting. */
  let hurry: (() => void) | undefined;
  /** Someone waits in idle(): the drains until the queue is idle do not settle first. */
  let urgent = false;
  const settle = () =>
    new Promise<void>((resolve) => {
      if (settleMs === 0 || urgent) return void setImmediate(resolve);
      const timer = setTimeout(() => hurry?.(), settleMs);
      hurry = () => {
        clearTimeout(timer);
        hurry = undefined;
        resolve();
      };
    });
  const drain = (): Promise<void> =>
    settle()
      .then(() => indexQueueInSlices(x, slice))
      .catch(onError)
      .then(() => {
        if (!again) {
          running = undefined;
          urgent = false;
          return;
        }
        again = false;
        running = drain();
        return running;
      });
  return {
    nudge() {
      if (running) again = true;
      else running = drain();
    },
    idle() {
      if (!running) return Promise.resolve();
      urgent = true;
      hurry?.();
      return running;
    },
  };
}
