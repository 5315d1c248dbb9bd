// Group commit for writes that arrive together. A commit costs far more than the inserts it carries
// (on SQLite the WAL frames of every page touched, and their system calls; on PostgreSQL a round trip
// and a WAL flush), and a burst of requests brings dozens of such writes in one turn of the event
// loop. Queued here, they commit in one batch at the end of the turn (the check phase, after the I/O
// of that turn). A statement that fails rolls the batch back; then each runs alone, so only its
// caller sees the error. A caller answers after its promise settles, that is after the commit:
// nothing acknowledged can be lost. Conditional statements (`ON CONFLICT DO NOTHING`, `WHERE ...`)
// tell each caller by their row count whether theirs took effect. A group that reaches `most` writes
// commits at once, in the turn that filled it: under a burst, the first callers are answered while
// the later ones are still arriving, instead of every caller waiting for the whole burst's work.
import type { Executor, Outcome, Query } from './executor.ts';

interface Queued {
  query: Query;
  resolve(outcome: Outcome): void;
  reject(err: unknown): void;
}

export class CommitGroup {
  private queue: Queued[] = [];

  /** `most`: the largest group; a full group commits at once instead of at the end of the turn. */
  constructor(
    private x: Executor,
    private most = Infinity,
  ) {}

  /** Runs `query` in this turn's shared batch; settles with what it did once that has committed. */
  run(query: Query): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      this.queue.push({ query, resolve, reject });
      if (this.queue.length >= this.most) void this.commit();
      else if (this.queue.length === 1) setImmediate(() => void this.commit());
    });
  }

  private async commit(): Promise<void> {
    const batch = this.queue;
    // Committed early when it filled up (the check phase then finds nothing, or a group begun since).
    if (batch.length === 0) return;
    this.queue = [];
    try {
      const done = await this.x.batch(batch.map((q) => q.query));
      if (done.ok) return batch.forEach((q, i) => q.resolve(done.results[i]!));
    } catch {
      // One of them failed, or the commit did (disk full, store closed): each is tried alone below.
    }
    for (const q of batch) {
      try {
        const done = await this.x.batch([q.query]);
        if (done.ok) q.resolve(done.results[0]!);
      } catch (err) {
        q.reject(err);
      }
    }
  }
}
