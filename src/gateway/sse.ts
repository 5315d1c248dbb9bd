// Server-sent events for agent runs: one SSE event per stored agent event (`id`, `event`, `data`),
// keep-alive comments while the model thinks, and a clean end when the run completes, the client
// goes away (the run goes on) or the service shuts down.
import type { Context } from 'koa';
import { eventJson, type RunRow, type StoredEvent } from '../agent/index.ts';
import { closeAtShutdown } from './close-at-shutdown.ts';
import type { Services } from '../compose/services.ts';

/** Formats one stored event as an SSE frame. */
export function sseFrame(e: StoredEvent): string {
  return `id: ${e.id}\nevent: ${e.event.type}\ndata: ${eventJson(e.event)}\n\n`;
}

/**
 * The keep-alive comments of every open stream of one service, on one timer: a timer per stream was
 * an allocation and a timer-list insert on every answer's start, and the streams' ticks need not be
 * apart. A stream is silent at most one interval; the timer runs only while a stream is open.
 */
export class KeepAlives {
  private writes = new Set<() => void>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private ms: number) {}

  /** Whether the timer runs (a stream is open). */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Calls `write` every interval from now on; returns the function that stops it. */
  add(write: () => void): () => void {
    this.writes.add(write);
    this.timer ??= setInterval(() => this.tick(), this.ms);
    return () => {
      this.writes.delete(write);
      if (this.writes.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private tick(): void {
    for (const write of this.writes) {
      try {
        write();
      } catch {
        // A stream whose socket fails is closed by its own 'close'; the others still get theirs.
      }
    }
  }
}

const keepAlives = new WeakMap<Services, KeepAlives>();

function keepAlivesOf(s: Services): KeepAlives {
  let k = keepAlives.get(s);
  if (!k) keepAlives.set(s, (k = new KeepAlives(s.config.agent.keepAliveMs)));
  return k;
}

/** Streams a run's events after `afterId` to the response, then follows it live. */
export function streamRun(ctx: Context, s: Services, run: RunRow, afterId: number): void {
  ctx.req.socket.setTimeout(0);
  ctx.req.socket.setNoDelay(true);
  ctx.status = 200;
  ctx.type = 'text/event-stream; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache, no-transform');
  ctx.set('Connection', 'keep-alive');
  ctx.set('X-Accel-Buffering', 'no');
  // Written straight to the socket: Koa's stream piping reports a client that leaves as an error.
  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200);
  // The headers, the retry hint and the events replayed leave in one write (one syscall, and the
  // client has its first event with the headers): uncorked once the replay has been read (below).
  res.cork();
  // Each event goes to the socket as one ready-made chunk of the chunked response. Through
  // res.write, Node frames it as three pieces (size, data, CRLF) gathered by a cork until the next
  // tick and sent with writev: about twice the CPU of one write, paid for every event of every
  // stream. res.end() still writes the last chunk, so the stream ends well-formed. (An HTTP/1.0
  // client gets no chunked encoding: the text goes as it is.)
  res.flushHeaders();
  const socket = res.socket!;
  const frame = res.chunkedEncoding ? (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n` : (text: string) => text;
  const out = {
    write: (text: string) => void (res.writableEnded || socket.destroyed ? undefined : socket.write(frame(text))),
    end: () => res.end(),
  };
  let closed = false;
  let corked = true;
  // The head, the retry hint and the events replayed (a new run's run_started) leave together, once
  // the replay is read: one write for a start instead of two.
  const uncork = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  let forgetAtShutdown = () => {};
  const close = () => {
    if (closed) return;
    closed = true;
    stopKeepAlive();
    unsubscribe();
    forgetAtShutdown();
    uncork();
    out.end();
  };
  out.write('retry: 2000\n\n');
  const stopKeepAlive = keepAlivesOf(s).add(() => out.write(': keep-alive\n\n'));
  // Declared before follow(): close() unsubscribes, and follow's callbacks may lead to it.
  let unsubscribe: () => void = () => {};
  unsubscribe = s.agent.follow(run, afterId, (e) => {
    if (!closed) out.write(sseFrame(e));
  }, () => setImmediate(close), uncork);
  // The response's close, not the request's: since Node 16 a request emits 'close' once its body is
  // read (long before a handler runs), so it never told that the client went away.
  res.on('close', close);
  if (s.shutdown.aborted) close();
  else forgetAtShutdown = closeAtShutdown(s.shutdown, close);
}

/** The Last-Event-ID header (or `last_event_id` query for clients that cannot set headers). */
export function lastEventId(ctx: Context): number {
  const raw = ctx.get('Last-Event-ID') || (typeof ctx.query['last_event_id'] === 'string' ? ctx.query['last_event_id'] : '');
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : 0;
}
