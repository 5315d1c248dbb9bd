// Admission of started runs to the event loop. A run's first steps (context, the model request) cost
// about a millisecond of CPU each; started as soon as their request was handled, a burst of questions
// made every later asker wait for the earlier runs' first steps before their own `run_started` left.
// Queued here, runs start a few per turn of the event loop, after the I/O waiting in that turn (other
// requests) is served. When the loop is idle a turn takes microseconds, so a queue drains at once; a
// loop busy enough to slow turns down is past what more starts per turn could serve anyway (a run
// costs several times its start).

/** Runs started per turn of the event loop: a few milliseconds of work between two I/O phases. */
const STARTS_PER_TURN = 4;

export class StartQueue {
  private queue: (() => void)[] = [];
  private scheduled = false;

  constructor(private perTurn = STARTS_PER_TURN) {}

  /** Calls `start` in a later turn of the event loop, after the I/O waiting now. `start` must not throw. */
  push(start: () => void): void {
    this.queue.push(start);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.drain);
    }
  }

  private drain = (): void => {
    for (const start of this.queue.splice(0, this.perTurn)) start();
    if (this.queue.length > 0) setImmediate(this.drain);
    else this.scheduled = false;
  };
}
