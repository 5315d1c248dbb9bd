// Following a run: its events after an id, then live until `completed`. A run of this process is
// replayed from the journal and followed on the in-process bus; a run another replica executes is
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
}

/** Follows the run; returns the unsubscribe function. */
export function followRun(f: FollowRun): () => void {
  const { run, active, journal, bus, onEvent } = f;
  if (!active && run.status === 'running' && bus.sharesRuns) {
    return bus.followRemote({ runId: run.id, afterId: f.afterId, readCommitted: (after) => journal.committedAfter(run, after), onEvent, onEnd: f.onEnd });
  }
  let ended = false;
  const end = () => {
    if (!ended) {
      ended = true;
      stopListening();
      f.onEnd();
    }
  };
  // Replay and attach in one synchronous block: nothing can be appended in between.
  // A live run has no events before its run_started: a stream from the start reads none of the older log.
  const past = journal.after(run, Math.max(f.afterId, (active?.firstEventId ?? 1) - 1));
  const stopListening = active
    ? bus.listen(run.id, (e) => {
        onEvent(e);
        if (e.event.type === 'completed') end();
      })
    : () => {};
  try {
    for (const e of past) onEvent(e);
  } catch (err) {
    // Same rule as live delivery: a failing subscriber is dropped, the run goes on.
    ended = true;
    stopListening();
    f.log.warn({ err, run_id: run.id }, 'dropped a failing agent event subscriber');
    return () => {};
  }
  if (!active || past.some((e) => e.event.type === 'completed')) end();
  return () => {
    ended = true;
    stopListening();
  };
}
