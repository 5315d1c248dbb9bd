// Live delivery of stored events to the subscribers of a run. In this process delivery is
// synchronous right after the event is stored, through the in-process bus with the event object
// itself, so a subscriber that replays the log and then attaches (in one tick) misses nothing. A
// subscriber that throws is dropped and logged; the run goes on.
//
// With replicas (a shared bus), the events of this process's runs also go to the others, in the
// batches the journal commits and only after the commit: whatever a follower elsewhere receives, every
// earlier event of the run is already in the store, so it can always fill a gap from there.
import type { Logger } from '../../log.ts';
import { memoryBus, type BusSubscription, type MessageBus } from '../../ops/bus/index.ts';
import type { StoredEvent } from '../events.ts';
import { followRemote, runChannel, type RemoteFollow, type RunBatch } from './remote-follow.ts';

export type Listener = (e: StoredEvent) => void;

export class LiveBus {
  private local = memoryBus();
  /** The id of the last event sent to other replicas, by run (until its `completed`). */
  private lastShared = new Map<string, number>();

  constructor(
    private log: Logger,
    private shared: MessageBus = memoryBus(),
  ) {}

  /** Adds a listener for a run; returns the function that removes it. */
  listen(runId: string, listener: Listener): () => void {
    const subscription: BusSubscription = this.local.subscribe(runChannel(runId), (e) => {
      try {
        listener(e as StoredEvent);
      } catch (err) {
        subscription.close();
        this.log.warn({ err, run_id: runId }, 'dropped a failing agent event subscriber');
      }
    });
    return subscription.close;
  }

  publish(e: StoredEvent): void {
    this.local.publish(runChannel(e.run_id), e);
  }

  /** Events just committed to the store: the other replicas' followers get them, one message per run. */
  committed(batch: StoredEvent[]): void {
    if (!this.shared.shared) return;
    const byRun = new Map<string, StoredEvent[]>();
    for (const e of batch) {
      const events = byRun.get(e.run_id);
      if (events) events.push(e);
      else byRun.set(e.run_id, [e]);
    }
    for (const [runId, events] of byRun) {
      const message: RunBatch = { prev: this.lastShared.get(runId) ?? 0, events };
      if (events.some((e) => e.event.type === 'completed')) this.lastShared.delete(runId);
      else this.lastShared.set(runId, events[events.length - 1]!.id);
      this.shared.publish(runChannel(runId), message);
    }
  }

  /** Whether runs of other replicas can be followed from here. */
  get sharesRuns(): boolean {
    return this.shared.shared;
  }

  /** Follows a run another replica executes (see remote-follow.ts). */
  followRemote(follow: Omit<RemoteFollow, 'bus' | 'onError'>): () => void {
    return followRemote({ ...follow, bus: this.shared, onError: (err) => this.log.warn({ err, run_id: follow.runId }, 'dropped a failing agent event subscriber') });
  }

  /** Subscribers of a run in this process (for tests and metrics). */
  count(runId: string): number {
    return this.local.count(runChannel(runId));
  }
}
