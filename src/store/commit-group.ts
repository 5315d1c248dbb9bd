// Group commit for writes that arrive together. A commit costs far more than the inserts it carries
// (on SQLite the WAL frames of every page touched, and their system calls; on PostgreSQL a round trip
// and a WAL flush), and a burst of requests brings dozens of such writes in one turn of the event
// loop. Queued here, they commit in one batch at the end of the turn (the check phase, after the I/O
// of that turn). A statement that fails rolls the batch back; then each write runs alone, so only its
// caller sees the error. A caller answers after its promise settles, that is after the commit:
// nothing acknowledged can be lost. Conditional statements (`ON CONFLICT DO NOTHING`, `WHERE ...`)
// tell each caller by their row count whether theirs took effect. A group that reaches `most` writes
// commits at once, in the turn that filled it: under a burst, the first callers are answered while
// the later ones are still arriving, instead of every caller waiting for the whole burst's work.
import type { BatchResult, Executor, Outcome, Query } from './executor.ts';

interface Queued {
  queries: Query[];
  require: number[];
  resolve(result: BatchResult): void;
  reject(err: unknown): void;
}

export class CommitGroup {
  private queue: Queued[] = [];

  /** `most`: the largest group (in writes, a batch counting as one); a full group commits at once. */
  constructor(
    private x: Executor,
    private most = Infinity,
  ) {}

  /** Runs `query` in this turn's shared batch; settles with what it did once that has committed. */
  async run(query: Query): Promise<Outcome> {
    const done = await this.batch([query]);
    return (done as Extract<BatchResult, { ok: true }>).results[0]!;
  }

  /**
   * Runs `queries` as `Executor.batch` does (all or nothing, `require` included), inside this turn's
   * shared batch; settles with what they did once that has committed, or with the failed requirement.
   */
  batch(queries: Query[], { require = [] }: { require?: number[] } = {}): Promise<BatchResult> {
    return new Promise<BatchResult>((resolve, reject) => {
      this.queue.push({ queries, require, resolve, reject });
      if (this.queue.length >= this.most) void this.commit();
      else if (this.queue.length === 1) setImmediate(() => void this.commit());
    });
  }

  private async commit(): Promise<void> {
    const group = this.queue;
    // Committed early when it filled up (the check phase then finds nothing, or a group begun since).
    if (group.length === 0) return;
    this.queue = [];
    try {
      const done = await this.x.batch(...joined(group));
      if (done.ok) return resolveEach(group, done.results);
    } catch {
      // One of them failed, or the commit did (disk full, store closed): each is tried alone below.
    }
    // A failed requirement rolled the group back too: each write alone tells its own caller.
    for (const q of group) {
      try {
        q.resolve(await this.x.batch(q.queries, { require: q.require }));
      } catch (err) {
        q.reject(err);
      }
    }
  }
}

/** The writes of a group as one batch, their requirements shifted to their place in it. */
function joined(group: Queued[]): [Query[], { require: number[] }] {
  const queries: Query[] = [];
  const require: number[] = [];
  for (const q of group) {
    for (const i of q.require) require.push(queries.length + i);
    queries.push(...q.queries);
  }
  return [queries, { require }];
}

function resolveEach(group: Queued[], results: Outcome[]): void {
  let at = 0;
  for (const q of group) {
    q.resolve({ ok: true, results: results.slice(at, at + q.queries.length) });
    at += q.queries.length;
  }
}
