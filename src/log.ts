import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.ts';

export type { Logger };

/**
 * Structured JSON logs. Request logs carry the path without its query string (which may hold
 * tokens), and these keys are censored wherever they appear.
 *
 * Without a destination, lines go to stdout asynchronously and in batches (stdoutInBatches below).
 */
export function createLogger(level: LogLevel, destination: NodeJS.WritableStream | pino.DestinationStream = stdoutInBatches()): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: isoTimeOncePerMs,
      redact: {
        paths: [
          'password',
          'token',
          'access_token',
          'refresh_token',
          'api_token',
          'code',
          'secret',
          '*.password',
          '*.token',
          '*.access_token',
          '*.refresh_token',
          '*.api_token',
          '*.secret',
          'headers.authorization',
          'headers.cookie',
          'headers["api-key"]',
          'headers["x-api-key"]',
        ],
        censor: '[redacted]',
      },
    },
    destination as pino.DestinationStream,
  );
}

let lastMs = NaN;
let lastTime = '';

/**
 * pino's isoTime, formatted once per millisecond: under load many lines share one, and toISOString
 * was ~2 % of a small request's CPU in a profile.
 */
function isoTimeOncePerMs(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/*
 * Lines to stdout in batches, written asynchronously. pino's synchronous default made one blocking
 * write per line on the event loop (every request logs one); one asynchronous write per line still
 * paid the hand-over to libuv's thread pool each time. sonic-boom can batch by itself (minLength), but
 * it measures the pending text again with Buffer.byteLength on every line it appends, which flattens
 * and scans a string of up to minLength bytes per line: ~2 µs per access line in a profile, more
 * than building the line. Here lines wait in an array and leave joined, once BATCH_CHARS are pending
 * or FLUSH_MS has passed, through pino's own destination (which keeps its handling of a closed pipe).
 */

/** Characters pending before a batch leaves (about 80 access lines). */
const BATCH_CHARS = 16 * 1024;
/** How long a line may wait for others before it is written. */
const FLUSH_MS = 200;

type Destination = ReturnType<typeof pino.destination>;

/** pino closes its destination before exit when the event loop runs empty (sonic-boom's types omit the flag). */
const isClosed = (d: Destination) => (d as { destroyed?: boolean }).destroyed === true;

class BatchedDestination {
  #lines: string[] = [];
  #chars = 0;
  constructor(readonly out: Destination) {}

  write(line: string): boolean {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= BATCH_CHARS) this.drain();
    return true;
  }

  /** Hands the pending lines to the destination, which writes them at once unless a write is under way. */
  drain(): void {
    if (this.#lines.length === 0 || isClosed(this.out)) return;
    const text = this.#lines.join('');
    this.#lines = [];
    this.#chars = 0;
    this.out.write(text);
  }

  flushSync(): void {
    this.drain();
    if (!isClosed(this.out)) this.out.flushSync();
  }
}

const open = new Set<BatchedDestination>();

/**
 * One timer and one pair of exit hooks for every destination. The hooks are prepended: pino's own
 * (registered when the destination is made) flush and, before exit, close the destination, so the
 * pending lines must reach it first.
 */
function register(d: BatchedDestination): void {
  if (open.size === 0) {
    setInterval(() => open.forEach((x) => x.drain()), FLUSH_MS).unref();
    process.prependListener('beforeExit', () => open.forEach((x) => x.drain()));
    process.prependListener('exit', () => open.forEach((x) => x.flushSync()));
  }
  open.add(d);
}

/** Standard output, asynchronous and batched; what is pending is written synchronously at exit. */
function stdoutInBatches(): pino.DestinationStream {
  const d = new BatchedDestination(pino.destination({ dest: 1, sync: false }));
  register(d);
  return d;
}
