// At most N tasks at once, started in the order they arrived. A task whose signal is aborted while it
// waits is skipped (a cancelled run, a shutdown), never started.

export class Limiter {
  private running = 0;
  private waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Runs `task` when a slot is free; resolves to undefined when `signal` aborted before it started. */
  async run<T>(task: () => Promise<T>, signal: AbortSignal): Promise<T | undefined> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return signal.aborted ? undefined : await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `running` never dips and lets a newcomer jump the queue.
      if (next) next();
      else this.running--;
    }
  }
}
