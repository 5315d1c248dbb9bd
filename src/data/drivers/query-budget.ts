// The time a query may keep its warehouse busy, and the caller's signal to stop it. The budget counts
// only the time spent waiting on the warehouse (opening the result, each batch), not the time the
// reader takes with rows it already has: a slow download is not cut, a slow query is. When the budget
// runs out or the signal aborts, the driver's `stop` ends the work in the warehouse itself, and every
// pending and later wait fails at once with a typed error, so no caller waits on a stuck engine.
import { QueryCancelled, QueryTimedOut } from '../errors.ts';

export type StopReason = 'timeout' | 'cancelled';

export interface QueryBudgetOptions {
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Ends the work in the warehouse (kill, interrupt, cancel request); called at most once. */
  stop: (reason: StopReason) => void;
}

/** One query's time budget; `track` each wait on the warehouse. */
export class QueryBudget {
  private spentMs = 0;
  private busySince: number | undefined;
  private active = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped: StopReason | undefined;
  private readonly waiters = new Set<(err: Error) => void>();
  private readonly onAbort = () => this.end('cancelled');

  constructor(private readonly opts: QueryBudgetOptions) {
    if (opts.signal?.aborted) this.stopped = 'cancelled';
    else opts.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Why the query was stopped, if it was. */
  get stopReason(): StopReason | undefined {
    return this.stopped;
  }

  /** Waits for `op` as warehouse time; rejects with QueryTimedOut or QueryCancelled when stopped first. */
  async track<T>(op: Promise<T>): Promise<T> {
    if (this.stopped) {
      op.catch(() => undefined);
      throw this.error();
    }
    this.begin();
    let fail!: (err: Error) => void;
    const stoppedFirst = new Promise<never>((_, reject) => (fail = reject));
    this.waiters.add(fail);
    try {
      return await Promise.race([op, stoppedFirst]);
    } catch (err) {
      // Whatever the engine says after being stopped (killed, interrupted), the reason is ours.
      throw this.stopped ? this.error() : err;
    } finally {
      op.catch(() => undefined);
      this.waiters.delete(fail);
      this.finish();
    }
  }

  /** Stops listening to the signal and clears the timer (the query is over). */
  dispose(): void {
    clearTimeout(this.timer);
    this.opts.signal?.removeEventListener('abort', this.onAbort);
  }

  /** The typed error of the stop. */
  error(): Error {
    return this.stopped === 'timeout' ? new QueryTimedOut(this.opts.timeoutMs) : new QueryCancelled();
  }

  private begin(): void {
    if (this.active++ > 0) return;
    this.busySince = performance.now();
    this.timer = setTimeout(() => this.end('timeout'), Math.max(0, this.opts.timeoutMs - this.spentMs));
  }

  private finish(): void {
    if (--this.active > 0) return;
    clearTimeout(this.timer);
    this.spentMs += performance.now() - (this.busySince ?? performance.now());
  }

  private end(reason: StopReason): void {
    if (this.stopped) return;
    this.stopped = reason;
    this.dispose();
    try {
      this.opts.stop(reason);
    } finally {
      const err = this.error();
      for (const fail of this.waiters) fail(err);
    }
  }
}
