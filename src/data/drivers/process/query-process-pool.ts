// The query processes of the gateway: at most `max` at work, a few kept idle for the next query, and
// a fair share per owner so one user's slow queries cannot take every process. A lease that finds
// none free waits, up to its query's budget. A start costs ~60 ms for SQLite and ~150 ms for DuckDB on
// a quiet machine (over a second on a busy one, at the processes' low priority), and it would count
// against the query's budget: so when no idle process is left, a spare starts at once in the
// background, with the engine the last session used already loaded. Between sessions, as many
// processes stay warm as were at work at once lately (`peakMs`), and at least `maxIdle`: a burst of N
// parallel sessions (an evaluation run) would otherwise end a process on each release beyond the idle
// limit and start a spare on the next lease, each start costing more CPU than the session it serves.
import { QueryCancelled, WarehouseBusy, WarehouseUnavailable } from '../../errors.ts';
import { processEntry } from './process-entry.ts';
import type { Engine } from './protocol.ts';
import { QueryProcess } from './query-process.ts';

export interface QueryProcessPoolOptions {
  /** Processes at work at once; more leases wait. */
  max: number;
  /** Memory one process may hold. */
  memoryMb: number;
  /** Idle processes kept warm when the pool has been quiet for `peakMs`; default 2. */
  maxIdle?: number;
  /** How long the most processes at work at once is remembered (default 30 s; tests shorten it). */
  peakMs?: number;
  /** Processes one owner may hold at once; default half of `max`, at least 1. */
  perOwner?: number;
}

export interface LeaseOptions {
  /** Whose query it is (a user id): the fair share counts by owner. */
  owner?: string | undefined;
  /** How long to wait for a free process. */
  waitMs: number;
  signal?: AbortSignal | undefined;
  /** An idle process that last ran this engine is preferred: its library is loaded already. */
  engine?: Engine;
  /** Preferred above that: an idle process whose last session opened this warehouse file (its instance is open). */
  warehouse?: string | undefined;
}

interface Waiter {
  owner: string | undefined;
  engine: Engine | undefined;
  warehouse: string | undefined;
  grant: (p: QueryProcess) => void;
  fail: (err: Error) => void;
}

/** A bounded set of query processes. */
export class QueryProcessPool {
  private readonly busy = new Map<QueryProcess, string | undefined>();
  private readonly idle: QueryProcess[] = [];
  private readonly waiters: Waiter[] = [];
  private closed = false;
  private entry: string | undefined;
  private readonly perOwner: number;
  /** The most processes at work at once lately, and when it was last reached. */
  private peak = { busy: 0, at: 0 };
  private readonly peakMs: number;
  private trimTimer: NodeJS.Timeout | undefined;
  private started = 0;

  constructor(private readonly opts: QueryProcessPoolOptions) {
    this.perOwner = opts.perOwner ?? Math.max(1, Math.floor(opts.max / 2));
    this.peakMs = opts.peakMs ?? 30_000;
  }

  /** Processes at work and idle, for tests and health reports. */
  get size(): { busy: number; idle: number } {
    return { busy: this.busy.size, idle: this.idle.length };
  }

  /** Processes started so far (respawn churn, for benchmarks and metrics). */
  get spawned(): number {
    return this.started;
  }

  /** Sessions waiting for a process: the pool's queue depth, for metrics. */
  get waiting(): number {
    return this.waiters.length;
  }

  /** A process for one session; give it back with `release`. */
  async lease({ owner, waitMs, signal, engine, warehouse }: LeaseOptions): Promise<QueryProcess> {
    this.entry = await processEntry();
    if (this.closed) throw new WarehouseUnavailable('The service is shutting down');
    if (signal?.aborted) throw new QueryCancelled();
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
      };
      const waiter: Waiter = {
        owner,
        engine,
        warehouse,
        grant: (p) => {
          done();
          resolve(p);
        },
        fail: (err) => {
          done();
          reject(err);
        },
      };
      const timer = setTimeout(() => waiter.fail(new WarehouseBusy()), waitMs);
      const onAbort = () => waiter.fail(new QueryCancelled());
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.pump();
    });
  }

  /** Gives a process back: kept for the next session when `reusable` and healthy, else ended. */
  release(p: QueryProcess, reusable: boolean): void {
    if (!this.busy.delete(p)) return;
    const keep = this.keptIdle();
    if (reusable && p.alive && !this.closed && this.idle.length < keep) {
      p.hold(false);
      this.idle.push(p);
    } else {
      p.kill();
      this.spare(p.engine);
    }
    this.trim(keep);
    this.pump();
  }

  /** Ends every process and refuses waiting and later leases. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.trimTimer);
    for (const w of [...this.waiters]) w.fail(new WarehouseUnavailable('The service is shutting down'));
    const all = [...this.busy.keys(), ...this.idle];
    this.busy.clear();
    this.idle.length = 0;
    for (const p of all) {
      // Held again until they are gone: an idle process does not keep the event loop alive, and
      // nothing would then be left to see it end.
      p.hold(true);
      p.kill();
    }
    await Promise.all(all.map((p) => p.exited));
  }

  /** Idle processes to keep: the idle limit, plus those at work at the recent peak and not now. */
  private keptIdle(): number {
    const base = this.opts.maxIdle ?? 2;
    // A pool told to keep none (a one-off session's) keeps none.
    if (base === 0) return 0;
    const recent = performance.now() - this.peak.at < this.peakMs ? this.peak.busy : 0;
    return base + Math.max(0, recent - this.busy.size);
  }

  /**
   * Ends warm processes beyond `keep`; those beyond the idle limit end at the latest once the peak is
   * forgotten, even when no session comes to release another (the timer does not hold the event loop).
   */
  private trim(keep = this.keptIdle()): void {
    while (this.idle.length > keep) this.idle.shift()!.kill();
    if (this.trimTimer || this.closed || this.idle.length <= (this.opts.maxIdle ?? 2)) return;
    this.trimTimer = setTimeout(() => {
      this.trimTimer = undefined;
      this.trim();
    }, this.peakMs);
    this.trimTimer.unref();
  }

  private fits(owner: string | undefined): boolean {
    if (this.busy.size >= this.opts.max) return false;
    if (owner === undefined) return true;
    let held = 0;
    for (const o of this.busy.values()) if (o === owner) held++;
    return held < this.perOwner;
  }

  private take(owner: string | undefined, engine: Engine | undefined, warehouse: string | undefined): QueryProcess {
    for (let i = this.idle.length - 1; i >= 0; i--) if (!this.idle[i]!.alive) this.idle.splice(i, 1);
    const same = warehouse === undefined ? -1 : this.idle.findIndex((x) => x.engine === engine && x.warehouse === warehouse);
    const warm = same >= 0 ? same : this.idle.findIndex((x) => x.engine === engine);
    const p = (warm >= 0 ? this.idle.splice(warm, 1)[0] : this.idle.pop()) ?? this.spawn();
    this.busy.set(p, owner);
    const now = performance.now();
    if (this.busy.size >= this.peak.busy || now - this.peak.at >= this.peakMs) this.peak = { busy: this.busy.size, at: now };
    p.hold(true);
    this.spare(engine);
    return p;
  }

  private spawn(): QueryProcess {
    const p = new QueryProcess({ entry: this.entry!, memoryMb: this.opts.memoryMb });
    this.started++;
    // A process that ends by itself (watchdog, crash) frees its place.
    void p.exited.then(() => this.forget(p));
    return p;
  }

  /** Starts an idle process when none is left and there is room, its engine loading already. */
  private spare(engine: Engine | undefined): void {
    if (this.closed || this.idle.length > 0 || this.busy.size >= this.opts.max || (this.opts.maxIdle ?? 2) === 0) return;
    const p = this.spawn();
    p.hold(false);
    this.idle.push(p);
    if (engine) p.call({ op: 'warm', engine }).catch(() => undefined);
  }

  private forget(p: QueryProcess): void {
    const i = this.idle.indexOf(p);
    if (i >= 0) this.idle.splice(i, 1);
    if (this.busy.delete(p)) this.pump();
  }

  /** Grants free places to waiters in order, skipping owners at their share. */
  private pump(): void {
    for (const w of [...this.waiters]) {
      if (this.closed || this.busy.size >= this.opts.max) return;
      if (this.fits(w.owner)) w.grant(this.take(w.owner, w.engine, w.warehouse));
    }
  }
}
