// Following a run that another replica executes, through the shared bus. The owner publishes each
// batch of events after committing it, with the id of the run's event it published before (`prev`).
// The follower subscribes first and buffers; once the subscription is live it reads the store after
// its last event id, then drains the buffer, skipping ids it already delivered. Anything published
// before the subscription was live was committed before it, so the read finds it: nothing is lost
// and nothing is delivered twice. A batch whose `prev` is beyond the last id delivered shows a gap
// (messages lost while Redis was away): the store is read again first. So is it when the bus says
// messages may have been missed (a reconnect), since the lost message may have been the last one.
import type { MessageBus } from '../../ops/bus/index.ts';
import type { StoredEvent } from '../events.ts';

/** What the owner publishes on a run's channel. */
export interface RunBatch {
  /** The id of the run's last event published before these (0 for the first batch). */
  prev: number;
  events: StoredEvent[];
}

export interface RemoteFollow {
  bus: MessageBus;
  runId: string;
  afterId: number;
  /** The run's committed events after an id, in order. */
  readCommitted(afterId: number): Promise<StoredEvent[]>;
  onEvent(e: StoredEvent): void;
  /** Called once, after the run's `completed`. */
  onEnd(): void;
  /** A failing subscriber (or store) ends the follow without onEnd. */
  onError(err: unknown): void;
}

export function runChannel(runId: string): string {
  return `run:${runId}`;
}

/** Follows the run until its `completed`; returns the function that stops following. */
export function followRemote(f: RemoteFollow): () => void {
  let last = f.afterId;
  let attached = false;
  let closed = false;
  const buffer: RunBatch[] = [];
  const stop = () => {
    closed = true;
    subscription.close();
  };
  const deliver = (e: StoredEvent) => {
    if (closed || e.id <= last) return;
    last = e.id;
    f.onEvent(e);
    if (e.event.type === 'completed') {
      stop();
      f.onEnd();
    }
  };
  const catchUp = async () => {
    for (const e of await f.readCommitted(last)) deliver(e);
  };
  const drain = async () => {
    while (!closed && buffer.length > 0) {
      const batch = buffer.shift()!;
      if (batch.prev > last) await catchUp();
      for (const e of batch.events) deliver(e);
    }
  };
  const fail = (err: unknown) => {
    if (closed) return;
    stop();
    f.onError(err);
  };
  // One piece of work at a time, in order: a batch that arrives during a read of the store waits.
  let working = Promise.resolve();
  const guarded = (work: () => Promise<void>) => {
    if (closed || !attached) return;
    working = working.then(() => (closed ? undefined : work())).catch(fail);
  };
  const resync = () => guarded(async () => (await catchUp(), await drain()));
  const subscription = f.bus.subscribe(
    runChannel(f.runId),
    (message) => {
      if (closed) return;
      buffer.push(message as RunBatch);
      guarded(drain);
    },
    resync,
  );
  subscription.ready.then(() => {
    attached = true;
    resync();
  }, fail);
  return stop;
}
