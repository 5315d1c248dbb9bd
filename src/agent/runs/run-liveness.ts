// A replica's part in run ownership, on a timer: it refreshes the heartbeat of the runs it executes
// and fails the runs of replicas that stopped refreshing theirs (lost-runs.ts). Timed from the SSE
// keep-alive interval K: a heartbeat every K/3, a run lost after two heartbeats missed (2K/3), a sweep
// every K/3 on every replica; a run whose replica died is failed within K, and a follower's stream,
// which gets a keep-alive comment every K, ends within about one keep-alive.
import type { Logger } from '../../log.ts';
import type { StoredEvent } from '../events.ts';
import type { RunRow } from './event-log.ts';
import { failLostRun, failLostRuns, type LostRunsDeps } from './lost-runs.ts';
import { heartbeatRuns } from './run-owners.ts';

/** Calls `tick` every `ms` until the returned function is called. */
export type Ticker = (ms: number, tick: () => void) => () => void;

export const intervalTicker: Ticker = (ms, tick) => {
  const timer = setInterval(tick, ms);
  // Heartbeats alone never keep a process alive.
  timer.unref();
  return () => clearInterval(timer);
};

/** A floor under tiny keep-alive intervals (tests): a heartbeat is a write. */
const MIN_INTERVAL_MS = 100;

export interface RunLivenessDeps extends Omit<LostRunsDeps, 'lostAfterMs'> {
  log: Logger;
  keepAliveMs: number;
  /**
   * The runs this replica executes whose end it is not recording (none: no write on an idle replica).
   * A run being recorded is no longer running in the store, by this replica's own write.
   */
  runIds(): string[];
  /**
   * Told of a run this replica executes that another failed as lost meanwhile (this one was cut
   * off from the store, or stalled, past the threshold): its work is wasted and is stopped.
   */
  lost(runId: string): void;
  /** Delivers the events that ended lost runs to their followers, here and on the other replicas. */
  deliver(events: StoredEvent[]): void;
}

export class RunLiveness {
  readonly intervalMs: number;
  readonly lostAfterMs: number;

  constructor(private deps: RunLivenessDeps) {
    this.intervalMs = Math.max(Math.round(deps.keepAliveMs / 3), MIN_INTERVAL_MS);
    this.lostAfterMs = 2 * this.intervalMs;
  }

  /** Refreshes the heartbeat of this replica's running runs, in one statement; stops those found lost. */
  async heartbeat(): Promise<void> {
    const own = this.deps.runIds();
    if (own.length === 0) return;
    const alive = await heartbeatRuns(this.deps.store, this.deps.replicaId, this.deps.clock.now());
    // A run not refreshed is no longer running in the store: failed as lost by another replica, or
    // ended by this one, whose end was written before or during the heartbeat's write (asked again
    // now). A run of this replica cut as lost emits nothing more, so cutting one this replica is
    // ending would take the `completed` its followers wait for.
    const running = new Set(this.deps.runIds());
    for (const runId of own) if (!alive.has(runId) && running.has(runId)) this.deps.lost(runId);
  }

  /**
   * Fails the runs of lost replicas and delivers their ends; how many it failed. `everyOtherReplica`:
   * every running run of another replica counts as lost, however fresh its heartbeat (a store this
   * process alone can open, at start).
   */
  async sweep({ everyOtherReplica = false } = {}): Promise<number> {
    const before = everyOtherReplica ? Number.MAX_SAFE_INTEGER : this.deps.clock.now() - this.lostAfterMs;
    const ended = await failLostRuns({ ...this.deps, lostAfterMs: this.lostAfterMs }, before);
    for (const events of ended) this.deps.deliver(events);
    return ended.length;
  }

  /** Whether a running run belongs to a lost replica (never to this one). */
  isLost(run: RunRow): boolean {
    return run.replica_id !== this.deps.replicaId && run.heartbeat_at < this.deps.clock.now() - this.lostAfterMs;
  }

  /**
   * Fails the running run of a chat now if its replica is lost, rather than at the next sweep: a
   * question in that chat is answered at once instead of refused as in progress.
   */
  async sweepChat(run: RunRow): Promise<void> {
    if (run.status !== 'running' || !this.isLost(run)) return;
    const events = await failLostRun({ ...this.deps, lostAfterMs: this.lostAfterMs }, run, this.deps.clock.now() - this.lostAfterMs);
    if (events) this.deps.deliver(events);
  }

  /** Heartbeat and sweep on `ticker` until the returned function is called. */
  start(ticker: Ticker = intervalTicker): () => void {
    let busy = false;
    return ticker(this.intervalMs, () => {
      // A tick still waiting on the store (PostgreSQL slow to answer) is not doubled by the next.
      if (busy) return;
      busy = true;
      void this.heartbeat()
        .then(() => this.sweep())
        .catch((err: unknown) => {
          // The store is busy or closing: the next tick tries again.
          this.deps.log.warn({ err }, 'could not keep agent runs alive or sweep lost ones');
        })
        .finally(() => (busy = false));
    });
  }
}
