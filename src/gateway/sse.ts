// Server-sent events for agent runs: one SSE event per stored agent event (`id`, `event`, `data`),
// keep-alive comments while the model thinks, and a clean end when the run completes, the client
// goes away (the run goes on) or the service shuts down.
import type { Context } from 'koa';
import { eventJson, type RunRow, type StoredEvent } from '../agent/index.ts';
import type { Services } from './services.ts';

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
  const out = { write: (text: string) => void (res.writableEnded || res.destroyed ? undefined : res.write(text)), end: () => res.end() };
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    unsubscribe();
    s.shutdown.removeEventListener('abort', close);
    out.end();
  };
  // The headers, the retry hint and the events replayed now leave in one write (one syscall, and the
  // client has its first event with the headers).
  res.cork();
  out.write('retry: 2000\n\n');
  const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), s.config.agent.keepAliveMs);
  // Must come before follow(): a finished run ends synchronously inside it.
  let unsubscribe: () => void = () => {};
  unsubscribe = s.agent.follow(run, afterId, (e) => {
    if (!closed) out.write(sseFrame(e));
  }, () => setImmediate(close));
  res.uncork();
  ctx.req.on('close', close);
  if (s.shutdown.aborted) close();
  else s.shutdown.addEventListener('abort', close, { once: true });
}

/** The Last-Event-ID header (or `last_event_id` query for clients that cannot set headers). */
export function lastEventId(ctx: Context): number {
  const raw = ctx.get('Last-Event-ID') || (typeof ctx.query['last_event_id'] === 'string' ? ctx.query['last_event_id'] : '');
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : 0;
}
