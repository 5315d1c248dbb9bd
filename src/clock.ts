import { readFileSync } from 'node:fs';

/** Where time comes from. Domain code takes a Clock so tests can move time without sleeping. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A clock read from a file holding ms since the epoch, for tests of built server processes: the test
 * writes the time, every process reads it. An unreadable file is an error, never the system's time.
 */
export function fileClock(path: string): Clock {
  return {
    now() {
      const ms = Number(readFileSync(path, 'utf8').trim());
      if (!Number.isSafeInteger(ms)) throw new Error(`the test clock file ${path} holds no time`);
      return ms;
    },
  };
}

/** A clock that only moves when told to; for tests of expiry. */
export class FakeClock implements Clock {
  constructor(private ms = Date.UTC(2026, 0, 15, 12, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}
