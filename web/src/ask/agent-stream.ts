// Follows an agent run over server-sent events on fetch (POST to start, GET to resume), parsed by
// eventsource-parser. A dropped connection (network loss, proxy timeout, silent socket) resumes with
// the last event id, so no event is lost and none is applied twice.
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { rawFetch } from '../api/client.ts';
import { problemOf } from '../api/problem.ts';
import type { AgentEvent } from './answer-state.ts';

export interface FollowOptions {
  chatId: string;
  /** Starts a run with this message; without it, resumes the chat's latest run. */
  message?: string;
  /** Resume after this event id (0: from the run's first event). */
  afterId?: number;
  onEvent: (id: number, event: AgentEvent) => void;
  /** Told once the server accepted the message (the run has started). */
  onStarted?: () => void;
  /** Told when the connection drops and when it is back. */
  onConnection?: (state: 'lost' | 'open') => void;
  signal: AbortSignal;
}

/** Longest silence before the connection counts as lost (the server sends keep-alives every 15 s). */
const SILENCE_MS = 40_000;

/** Resolves once the run's `completed` event arrived, or when aborted; throws if the run cannot start. */
export async function followRun(o: FollowOptions): Promise<void> {
  let lastId = o.afterId ?? 0;
  let start = o.message !== undefined;
  for (let attempt = 0; !o.signal.aborted; attempt++) {
    const attemptAbort = new AbortController();
    const stopAttempt = () => attemptAbort.abort();
    o.signal.addEventListener('abort', stopAttempt);
    try {
      const res = await open(o, start, lastId, attemptAbort.signal);
      if (!res.ok) {
        // Before a run started, the question is refused (the composer keeps it); afterwards the run is gone.
        throw problemOf(res.status, await res.json().catch(() => undefined), res.headers.get('Retry-After'));
      }
      if (start) o.onStarted?.();
      start = false;
      if (attempt > 0) o.onConnection?.('open');
      const completed = await readEvents(res, attemptAbort, (id, event) => {
        lastId = id;
        o.onEvent(id, event);
      });
      if (completed) return;
    } catch (err) {
      // The first POST that never got an answer may not have started a run: the caller retries it.
      if (start || !isConnectionError(err, o.signal)) throw err;
    } finally {
      o.signal.removeEventListener('abort', stopAttempt);
    }
    if (o.signal.aborted) return;
    o.onConnection?.('lost');
    await reconnectDelay(attempt, o.signal);
  }
}

function open(o: FollowOptions, start: boolean, lastId: number, signal: AbortSignal): Promise<Response> {
  if (start) {
    return rawFetch('/api/agentic/stream', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ chat_id: o.chatId, message: o.message }), signal });
  }
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (lastId > 0) headers['Last-Event-ID'] = String(lastId);
  return rawFetch(`/api/agentic/subscribe/${encodeURIComponent(o.chatId)}`, { headers, signal });
}

/** Applies events until `completed` (true) or the end of the stream (false). */
async function readEvents(res: Response, abort: AbortController, onEvent: (id: number, event: AgentEvent) => void): Promise<boolean> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  let watchdog = setTimeout(() => abort.abort(), SILENCE_MS);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      clearTimeout(watchdog);
      if (done) return false;
      watchdog = setTimeout(() => abort.abort(), SILENCE_MS);
      const id = Number(value.id);
      if (!Number.isInteger(id) || !value.data) continue;
      const event = JSON.parse(value.data) as AgentEvent;
      onEvent(id, event);
      if (event.type === 'completed') return true;
    }
  } finally {
    clearTimeout(watchdog);
    void reader.cancel().catch(() => undefined);
  }
}

/** Network failures and our own silence watchdog; not the caller's abort, not a refused request. */
function isConnectionError(err: unknown, callerSignal: AbortSignal): boolean {
  if (callerSignal.aborted) return true;
  if (err instanceof DOMException && err.name === 'AbortError') return true;
  if (err instanceof TypeError) return true;
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'NETWORK_ERROR';
}

/** Waits a little longer after each failure, or until the browser says it is online again. */
function reconnectDelay(attempt: number, signal: AbortSignal): Promise<void> {
  const ms = Math.min(250 * 2 ** attempt, 5000);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    window.addEventListener('online', done);
    signal.addEventListener('abort', done);
  });
}
