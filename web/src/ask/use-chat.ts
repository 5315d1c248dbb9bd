// A chat as the Ask page holds it: the recorded turns, the answer being streamed, and what a person
// can do with it (ask, stop, add a remark). Leaving the page stops following, not the run: coming
// back (or reloading) replays the running answer's events from the start.
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, call } from '../api/client.ts';
import { ApiProblem } from '../api/problem.ts';
import type { ResponseOf } from '../api/types.ts';
import { followRun } from './agent-stream.ts';
import { answerFromMessage, applyEvent, emptyAnswer, type AgentEvent, type AnswerState } from './answer-state.ts';

type ChatMessage = ResponseOf<'/api/c2/{chat_id}', 'get'>['messages'][number];

export interface Turn {
  key: string;
  question: string;
  answer: AnswerState;
}

export interface Chat {
  turns: Turn[];
  loading: boolean;
  problem: ApiProblem | undefined;
  running: boolean;
  connection: 'open' | 'lost';
  /** Asks a question; resolves once the server accepted it (true) or refused it (false, problem set). */
  ask: (message: string) => Promise<boolean>;
  stop: () => Promise<void>;
  remark: (text: string) => Promise<void>;
}

/** Turns from recorded messages: each user message with the answer that follows it (if any yet). */
function toTurns(messages: ChatMessage[]): { turns: Turn[]; unanswered: boolean } {
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role === 'user') turns.push({ key: m.message_uuid, question: m.content, answer: { ...emptyAnswer(), status: 'running' } });
    else if (m.role === 'assistant' && turns.length > 0) turns[turns.length - 1]!.answer = answerFromMessage(m);
  }
  return { turns, unanswered: messages.at(-1)?.role === 'user' };
}

/** `fresh`: a chat without an address yet (nothing to load). */
export function useChat(chatId: string, fresh: boolean): Chat {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  const [connection, setConnection] = useState<'open' | 'lost'>('open');
  const following = useRef<AbortController | undefined>(undefined);
  // The chat on screen: a new chat that just got its address is still the same chat.
  const shown = useRef<string | undefined>(undefined);

  const onEvent = useCallback((id: number, event: AgentEvent) => {
    setTurns((ts) => (ts.length === 0 ? ts : [...ts.slice(0, -1), { ...ts[ts.length - 1]!, answer: applyEvent(ts[ts.length - 1]!.answer, id, event) }]));
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

  useEffect(() => {
    if (shown.current === chatId) return;
    shown.current = chatId;
    following.current?.abort();
    setTurns([]);
    setProblem(undefined);
    if (fresh) return;
    const abort = new AbortController();
    setLoading(true);
    call(api.GET('/api/c2/{chat_id}', { params: { path: { chat_id: chatId }, query: { pairs: 20 } }, signal: abort.signal }))
      .then((page) => {
        const { turns: recorded, unanswered } = toTurns(page.messages);
        setTurns(recorded);
        // The last question has no answer yet: its run is going on; follow it from its first event.
        if (unanswered) void follow(undefined).catch((err: unknown) => setProblem(err instanceof ApiProblem ? err : undefined));
      })
      .catch((err: unknown) => {
        if (err instanceof ApiProblem) setProblem(err);
      })
      .finally(() => setLoading(false));
    return () => abort.abort();
  }, [chatId, fresh, follow]);

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
          else setTurns((ts) => ts.map((t) => (t.key === key ? { ...t, answer: { ...t.answer, status: 'failed' } } : t)));
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

  const running = turns.at(-1)?.answer.status === 'running';
  return { turns, loading, problem, running, connection, ask, stop, remark };
}
