// A chat as the Ask page holds it: the recorded turns, the answer being streamed, and what a person
// can do with it (ask, stop, add a remark). Leaving the page stops following, not the run: coming
// back (or reloading) replays the running answer's events from the start.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, call } from '../api/client.ts';
import { ApiProblem } from '../api/problem.ts';
import type { ResponseOf } from '../api/types.ts';
import { followRun } from './agent-stream.ts';
import { applyEvent, emptyAnswer, type AgentEvent } from './answer-state.ts';
import { toTurns, type Turn } from './turns.ts';

type ChatPage = ResponseOf<'/api/c2/{chat_id}', 'get'>;
export type ChatSummary = NonNullable<ChatPage['chat']>;
export type { Turn };

export interface Chat {
  turns: Turn[];
  /** The chat's record (title, flags), once loaded. */
  summary: ChatSummary | undefined;
  loading: boolean;
  problem: ApiProblem | undefined;
  running: boolean;
  connection: 'open' | 'lost';
  /** Asks a question; resolves once the server accepted it (true) or refused it (false, problem set). */
  ask: (message: string) => Promise<boolean>;
  stop: () => Promise<void>;
  remark: (text: string) => Promise<void>;
  /** Reads the recorded turns again (after a reorder or a deletion). */
  reload: () => Promise<void>;
}

/** How many of the latest question/answer pairs a chat opens with. */
const PAIRS = 20;

/** `fresh`: a chat without an address yet (nothing to load). */
export function useChat(chatId: string, fresh: boolean): Chat {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [summary, setSummary] = useState<ChatSummary | undefined>();
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [connection, setConnection] = useState<'open' | 'lost'>('open');
  const following = useRef<AbortController | undefined>(undefined);
  // The chat on screen: a new chat that just got its address is still the same chat.
  const shown = useRef<string | undefined>(undefined);

  const onEvent = useCallback((id: number, event: AgentEvent) => {
    setTurns((ts) => {
      const last = ts.at(-1);
      if (!last) return ts;
      const questionUuid = event.type === 'run_started' ? event.message_uuid : last.questionUuid;
      return [...ts.slice(0, -1), { ...last, questionUuid, answer: applyEvent(last.answer ?? emptyAnswer(), id, event) }];
    });
  }, []);

  const follow = useCallback(
    async (message: string | undefined, onStarted?: () => void) => {
      following.current?.abort();
      const abort = new AbortController();
      following.current = abort;
      try {
        await followRun({ chatId, message, afterId: 0, onEvent, onStarted, onConnection: setConnection, signal: abort.signal });
      } finally {
        setConnection('open');
      }
    },
    [chatId, onEvent],
  );

  /** Reads the latest pairs; an unanswered last question is followed when `resume` (its run may be going on). */
  const load = useCallback(
    async (signal: AbortSignal | undefined, resume: boolean) => {
      const page = await call(api.GET('/api/c2/{chat_id}', { params: { path: { chat_id: chatId }, query: { pairs: PAIRS } }, signal }));
      const { turns: recorded, unanswered } = toTurns(page.messages);
      setSummary(page.chat);
      if (!(unanswered && resume)) {
        setTurns(recorded);
        return;
      }
      setTurns([...recorded.slice(0, -1), { ...recorded.at(-1)!, answer: emptyAnswer() }]);
      try {
        await follow(undefined);
      } catch (err) {
        // No run behind the question (written by another client, or its answer deleted): nothing to follow.
        if (err instanceof ApiProblem && err.status === 404) setTurns(recorded);
        else throw err;
        return;
      }
      // The run replayed to its end: show what the chat recorded (its answer may have been deleted since).
      if (!signal?.aborted) await load(signal, false);
    },
    [chatId, follow],
  );

  useEffect(() => {
    if (shown.current === chatId) return;
    shown.current = chatId;
    following.current?.abort();
    setTurns([]);
    setSummary(undefined);
    setProblem(undefined);
    if (fresh) return;
    const abort = new AbortController();
    setLoading(true);
    load(abort.signal, true)
      .catch((err: unknown) => {
        if (err instanceof ApiProblem) setProblem(err);
      })
      .finally(() => setLoading(false));
    return () => abort.abort();
  }, [chatId, fresh, load]);

  useEffect(() => () => following.current?.abort(), []);

  const ask = useCallback(
    async (message: string) => {
      setProblem(undefined);
      const key = `pending-${Date.now()}`;
      setTurns((ts) => [...ts, { key, question: message, answer: emptyAnswer() }]);
      let started = false;
      const accepted = new Promise<boolean>((resolve) => {
        follow(message, () => {
          started = true;
          resolve(true);
        }).catch((err: unknown) => {
          const p = err instanceof ApiProblem ? err : new ApiProblem(0, 'The answer stopped unexpectedly.', 'CLIENT_ERROR');
          setProblem(p);
          // Refused before it started: the question goes back to the composer, not into the chat.
          if (!started) setTurns((ts) => ts.filter((t) => t.key !== key));
          else setTurns((ts) => ts.map((t) => (t.key === key && t.answer ? { ...t, answer: { ...t.answer, status: 'failed' } } : t)));
          resolve(started);
        });
      });
      return accepted;
    },
    [follow],
  );

  const stop = useCallback(async () => {
    await call(api.POST('/api/agentic/stop', { body: { chat_id: chatId } })).catch((err: unknown) => setProblem(err instanceof ApiProblem ? err : undefined));
  }, [chatId]);

  const remark = useCallback(
    async (text: string) => {
      await call(api.POST('/api/agentic/feedback', { body: { chat_id: chatId, feedback: text } }));
    },
    [chatId],
  );

  const reload = useCallback(async () => {
    try {
      await load(undefined, false);
    } catch (err) {
      setProblem(err instanceof ApiProblem ? err : undefined);
    }
  }, [load]);

  const running = turns.at(-1)?.answer?.status === 'running';
  return { turns, summary, loading, problem, running, connection, ask, stop, remark, reload };
}
