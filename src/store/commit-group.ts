// Group commit for writes that arrive together. A commit costs far more than the inserts it carries
// (the WAL frames of every page touched, and their system calls: ~0.3 ms for a question, its chat
// and its run on this kind of machine), and a burst of requests brings dozens of such writes in one
// turn of the event loop. Queued here, they commit in one transaction at the end of the turn (the
// check phase, after the I/O of that turn); each runs in a savepoint of its own, so one that throws
// rolls back alone and only its caller sees the error. A caller answers after its promise settles,
// that is after the commit: nothing acknowledged can be lost.
import type { Db } from './open-store.ts';
import { transact } from './transact.ts';

interface Queued {
  work: () => unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

export class CommitGroup {
  private queue: Queued[] = [];

  constructor(private db: Db) {}

  /** Runs `work` (synchronous) in this turn's shared transaction; settles once that has committed. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (v: unknown) => void, reject });
      if (this.queue.length === 1) setImmediate(this.commit);
    });
  }

  private commit = (): void => {
    const batch = this.queue;
    this.queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = transact(this.db, () =>
        batch.map((q): Outcome => {
          try {
            // Nested: a savepoint of its own, released or rolled back alone.
            return { ok: true, value: transact(this.db, q.work) };
          } catch (err) {
            return { ok: false, err };
          }
        }),
      );
    } catch (err) {
      // The commit itself failed (disk full, store closed): nothing of the batch is stored.
      for (const q of batch) q.reject(err);
      return;
    }
    batch.forEach((q, i) => {
      const o = outcomes[i]!;
      if (o.ok) q.resolve(o.value);
      else q.reject(o.err);
    });
  };
}
