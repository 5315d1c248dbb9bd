// Live delivery of stored events to the subscribers of a run. Delivery is synchronous right after
// the event is stored, so a subscriber that replays the log and then attaches (in one tick) misses
// nothing. A subscriber that throws is dropped and logged; the run goes on.
import type { Logger } from '../../log.ts';
import type { StoredEvent } from '../events.ts';

export type Listener = (e: StoredEvent) => void;

export class LiveBus {
  private listeners = new Map<string, Set<Listener>>();
  constructor(private log: Logger) {}

  /** Adds a listener for a run; returns the function that removes it. */
  listen(runId: string, listener: Listener): () => void {
    let set = this.listeners.get(runId);
    if (!set) this.listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(runId) === set) this.listeners.delete(runId);
    };
  }

  publish(e: StoredEvent): void {
    for (const listener of [...(this.listeners.get(e.run_id) ?? [])]) {
      try {
        listener(e);
      } catch (err) {
        this.listeners.get(e.run_id)?.delete(listener);
        this.log.warn({ err, run_id: e.run_id }, 'dropped a failing agent event subscriber');
      }
    }
  }

  /** Subscribers of a run (for tests and metrics). */
  count(runId: string): number {
    return this.listeners.get(runId)?.size ?? 0;
  }
}
