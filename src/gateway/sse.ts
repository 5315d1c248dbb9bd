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
  // The headers, the retry hint and the events replayed now leave in one write (one syscall, and the
  // client has its first event with the headers).
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
  let forgetAtShutdown = () => {};
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    unsubscribe();
    forgetAtShutdown();
    out.end();
  };
  out.write('retry: 2000\n\n');
  const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), s.config.agent.keepAliveMs);
  // Declared before follow(): close() unsubscribes, and follow's callbacks may lead to it.
  let unsubscribe: () => void = () => {};
  unsubscribe = s.agent.follow(run, afterId, (e) => {
    if (!closed) out.write(sseFrame(e));
  }, () => setImmediate(close));
  res.uncork();
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
