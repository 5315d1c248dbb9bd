// Following a run: its events after an id, then live until `completed`. A run of this process is
// replayed from the journal and followed on the in-process bus (events are delivered when the replay
// has been read: never synchronously inside follow()); a run another replica executes is
// followed through the shared bus (remote-follow.ts); a finished run is only replayed.
import type { Logger } from '../../log.ts';
import type { StoredEvent } from '../events.ts';
import type { EventJournal } from './event-journal.ts';
import type { RunRow } from './event-log.ts';
import type { ActiveRun } from './execute-run.ts';
import type { LiveBus } from './live-bus.ts';

export interface FollowRun {
  run: RunRow;
  afterId: number;
  /** The run, when this process executes it. */
  active: ActiveRun | undefined;
  journal: EventJournal;
  bus: LiveBus;
  log: Logger;
  onEvent(e: StoredEvent): void;
  /** Called once, when the run is over (right away for a finished run). */
  onEnd(): void;
  /**
   * Called once, when the events before the live ones have been handed to onEvent (or could not be
   * read), before any onEnd: a stream can send its head and the replay in one write.
   */
  onReplayed?(): void;
}

/** Follows the run; returns the unsubscribe function. */
export function followRun(f: FollowRun): () => void {
  const { run, active, journal, bus } = f;
  const replayed = () => f.onReplayed?.();
  if (!active && run.status === 'running' && bus.sharesRuns) {
    const unsubscribe = bus.followRemote({ runId: run.id, afterId: f.afterId, readCommitted: (after) => journal.committedAfter(run, after), onEvent: f.onEvent, onEnd: f.onEnd });
    replayed();
    return unsubscribe;
  }
  let ended = false;
  // A live run has no events before its run_started: a stream from the start reads none of the older log.
  let last = Math.max(f.afterId, (active?.firstEventId ?? 1) - 1);
  const end = () => {
    if (!ended) {
      ended = true;
      stopListening();
      f.onEnd();
    }
  };
  const deliver = (e: StoredEvent) => {
    if (ended || e.id <= last) return;
    last = e.id;
    f.onEvent(e);
    if (e.event.type === 'completed') end();
  };
  // Listening starts before the log is read, and what arrives meanwhile waits: every event comes once,
  // in order, whether the read found it or the bus brought it.
  let waiting: StoredEvent[] | undefined = [];
  const stopListening = active ? bus.listen(run.id, (e) => (waiting ? waiting.push(e) : deliver(e))) : () => {};
  const drop = (err: unknown) => {
    // Same rule as live delivery: a failing subscriber is dropped, the run goes on.
    ended = true;
    stopListening();
    f.log.warn({ err, run_id: run.id }, 'dropped a failing agent event subscriber');
  };
  void journal.after(run, last).then((past) => {
    try {
      for (const e of past) deliver(e);
      for (const e of waiting!) deliver(e);
      waiting = undefined;
    } catch (err) {
      replayed();
      return drop(err);
    }
    replayed();
    if (!active) end();
  }, (err: unknown) => {
    // The store could not be read (closing at shutdown): the follower's stream ends rather than hangs.
    f.log.warn({ err, run_id: run.id }, 'could not read the events of an agent run');
    replayed();
    end();
  });
  return () => {
    ended = true;
    stopListening();
  };
}
