// Server-sent events for the CLI: eventsource-parser reads the frames; followSse keeps a run's stream
// going across dropped connections, resuming after the last event received (Last-Event-ID).
import { createParser } from 'eventsource-parser';

/** One server-sent event. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Parses a server-sent event stream into events (comments, used as keep-alives, are skipped). */
async function* readSse(body: ReadableStream<Uint8Array>, onRetry?: (ms: number) => void): AsyncGenerator<SseEvent> {
  const ready: SseEvent[] = [];
  const parser = createParser({
    onEvent: (e) => void (e.data !== '' && ready.push({ ...(e.id !== undefined ? { id: e.id } : {}), ...(e.event !== undefined ? { event: e.event } : {}), data: e.data })),
    ...(onRetry ? { onRetry } : {}),
  });
  const decoder = new TextDecoder();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    yield* ready.splice(0);
  }
}

export interface FollowOptions {
  /** Opens the stream again after a drop; `lastEventId` is the id of the last event received. */
  reopen(lastEventId: string | undefined): Promise<Response>;
  /** The event that completes the stream; a stream ending before it has dropped. */
  isLast(e: SseEvent): boolean;
  /** Failed reconnections in a row before giving up; default 5. */
  maxRetries?: number;
  /** Told before each reconnection. */
  onReconnect?: (attempt: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

/** The stream could not be resumed. */
export class StreamLost extends Error {}

const DEFAULT_RETRY_MS = 1000;
const later = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Every event of a stream once, from `first` and then from reconnections (after the server's `retry`
 * delay) until the last event. An event at or before the last id received is not given twice.
 */
export async function* followSse(first: Response, opts: FollowOptions): AsyncGenerator<SseEvent> {
  const { maxRetries = 5, sleep = later } = opts;
  let res: Response | undefined = first;
  let lastId: string | undefined;
  let retryMs = DEFAULT_RETRY_MS;
  let failures = 0;
  for (;;) {
    if (res?.ok && res.body) {
      try {
        for await (const e of readSse(res.body, (ms) => (retryMs = ms))) {
          if (e.id !== undefined && lastId !== undefined && !after(e.id, lastId)) continue;
          if (e.id !== undefined) lastId = e.id;
          failures = 0;
          yield e;
          if (opts.isLast(e)) return;
        }
      } catch {
        // The connection dropped mid-stream: reconnect below.
      }
    } else if (res && res.status >= 400 && res.status < 500) {
      throw new StreamLost(`The stream could not be resumed (HTTP ${res.status})`);
    }
    if (++failures > maxRetries) throw new StreamLost(`The stream dropped and ${maxRetries} reconnections failed`);
    opts.onReconnect?.(failures);
    await sleep(retryMs);
    res = await opts.reopen(lastId).catch(() => undefined);
  }
}

/** Whether event id `a` comes after `b`: numerically when both are numbers (the server's ids are). */
function after(a: string, b: string): boolean {
  const [x, y] = [Number(a), Number(b)];
  return Number.isFinite(x) && Number.isFinite(y) && a !== '' && b !== '' ? x > y : a !== b;
}
