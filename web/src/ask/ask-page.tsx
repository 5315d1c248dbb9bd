// / and /chat/:chatId: ask questions and watch the answers stream in. The page stays mounted when a
// new chat gets its address, so the stream that started it goes on. An open chat shows its owner's
// actions (chat toolbar, per question and per answer) and keeps the history sidebar up to date.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useMatch, useNavigate } from 'react-router';
import { api, call } from '../api/client.ts';
import { useChatList } from '../chats/chat-list.tsx';
import { ChatToolbar } from '../chats/chat-toolbar.tsx';
import { AI_ANSWERS } from '../lib/disclaimers.ts';
import { whenIdle } from '../lib/idle.ts';
import { DisclaimerNote } from '../ui/disclaimer-note.tsx';
import { useDocumentTitle } from '../ui/document-title.ts';
import { Composer } from './composer.tsx';
import { FollowUps } from './follow-ups.tsx';
import { prepareMarkdown } from './markdown.tsx';
import { TurnView } from './turn-view.tsx';
import { useChat } from './use-chat.ts';

export function AskPage() {
  const routeChatId = useMatch('/chat/:chatId')?.params.chatId;
  // A new visit of / ("New chat"), even from / itself while the fresh chat waits for its address.
  const visit = useLocation().key;
  const [freshId, setFreshId] = useState(() => crypto.randomUUID());
  // Set once a question was asked in the fresh chat: coming back to / then starts another one.
  const freshUsed = useRef(false);
  const chatId = routeChatId ?? freshId;
  useEffect(() => {
    if (!routeChatId && freshUsed.current) {
      freshUsed.current = false;
      setFreshId(crypto.randomUUID());
    }
  }, [routeChatId, visit]);
  const chat = useChat(chatId, routeChatId === undefined);
  const list = useChatList();
  const summary = routeChatId ? (list.find(routeChatId) ?? chat.summary) : undefined;
  const navigate = useNavigate();
  const bottom = useRef<HTMLDivElement>(null);
  const last = chat.turns.at(-1);
  useDocumentTitle(summary?.title || chat.turns[0]?.question?.slice(0, 60) || 'Ask');
  useEffect(() => {
    // (Scrolling methods return a promise in current browsers: never the effect's cleanup.)
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [chat.turns.length]);
  useEffect(() => whenIdle(prepareMarkdown), []);
  // A fresh chat has no summary until it has its address, but once asked in it is followed all the same.
  useListFollowsChat(chat.running, routeChatId ?? (chat.turns.length > 0 ? chatId : undefined), summary, list);
  const afterFirstText = useAfterFirstText(chat.running, (last?.answer?.text ?? '') !== '');
  // The chat this page shows now, for work that runs after the question was asked.
  const shown = useRef({ routeChatId, chatId });
  shown.current = { routeChatId, chatId };

  const ask = async (text: string) => {
    const accepted = await chat.ask(text);
    if (accepted) afterFirstText(() => void list.refresh());
    if (accepted && !routeChatId) {
      freshUsed.current = true;
      afterFirstText(() => {
        // Not if the person opened another chat meanwhile.
        if (shown.current.routeChatId === undefined && shown.current.chatId === chatId) navigate(`/chat/${chatId}`);
      });
    }
    return accepted;
  };
  const questions = chat.turns.filter((t) => t.question !== undefined);
  return (
    <div className="ask">
      {summary ? <ChatToolbar chat={summary} onChange={list.apply} /> : <h1 className="visually-hidden">Ask</h1>}
      <DisclaimerNote disclaimer={AI_ANSWERS} />
      {chat.turns.length === 0 && !chat.loading && !routeChatId && (
        <div className="empty-state">
          <h2>What would you like to know?</h2>
          <p className="muted">Ask in plain language; the answer shows the queries it ran.</p>
        </div>
      )}
      {chat.loading && <p role="status">Loading the chat…</p>}
      {chat.turns.map((t) => (
        <TurnView
          key={t.key}
          turn={t}
          chatId={chatId}
          editable={!chat.running && summary !== undefined}
          first={questions[0] === t}
          last={questions.at(-1) === t}
          onChanged={chat.reload}
        />
      ))}
      {chat.connection === 'lost' && (
        <div className="alert info" role="status">
          Connection lost; reconnecting. The answer goes on meanwhile.
        </div>
      )}
      {!chat.running && !chat.loading && (chat.turns.length === 0 || last?.answer?.status === 'completed') && (
        <FollowUps
          asked={chat.turns.flatMap((t) => (t.question === undefined ? [] : [t.question]))}
          onPick={(s) => void ask(s)}
          title={chat.turns.length === 0 ? 'Suggested questions' : 'Suggested follow-ups'}
          chatId={chat.turns.length === 0 ? undefined : chatId}
        />
      )}
      <div ref={bottom} />
      <Composer chatId={chatId} draftKey={routeChatId ?? 'new'} running={chat.running} onAsk={ask} onRemark={chat.remark} onStop={chat.stop} problem={chat.problem} />
    </div>
  );
}

/**
 * Work a new question causes that can wait for its answer's first text: done once that text is on
 * screen, the answer ended, or a second passed, whichever comes first. Before the first text it
 * competed with the answer: reading the history cost the gateway tens of milliseconds on the thread
 * that runs the answer, and the page the rendering of the sidebar; giving the chat its address
 * (a navigation: the browser's history entry, the router's re-render of the layout) put the first
 * text ~10 ms later in Chromium on the demo (`bench web`, alternated builds). The second's bound keeps a
 * slow first text from holding the address and the history back. Leaving the page drops the work.
 */
function useAfterFirstText(running: boolean, hasText: boolean): (work: () => void) => void {
  const queue = useRef<(() => void)[]>([]);
  const [queued, setQueued] = useState(0);
  useEffect(() => {
    if (queued === 0) return;
    const flush = () => {
      const work = queue.current;
      queue.current = [];
      setQueued(0);
      for (const w of work) w();
    };
    if (!running || hasText) {
      flush();
      return;
    }
    const timer = setTimeout(flush, AFTER_FIRST_TEXT_WITHIN_MS);
    return () => clearTimeout(timer);
  }, [queued, running, hasText]);
  return useCallback((work: () => void) => {
    queue.current.push(work);
    setQueued((n) => n + 1);
  }, []);
}

/** The longest a new question's address and history wait for its answer's first text. */
const AFTER_FIRST_TEXT_WITHIN_MS = 1_000;

/**
 * The history learns of a finished answer (new title, order), and the open chat's "new answer" mark
 * is cleared: the person is looking at it.
 */
function useListFollowsChat(running: boolean, chatId: string | undefined, summary: ReturnType<typeof useChatList>['recent'][number] | undefined, list: ReturnType<typeof useChatList>) {
  const wasRunning = useRef(running);
  const { refresh, apply, watch } = list;
  const runningNow = useRef(running);
  runningNow.current = running;
  useEffect(
    // Leaving a chat while its answer runs: the history watches for the answer to finish.
    () => () => {
      if (chatId && runningNow.current) watch(chatId);
    },
    [chatId, watch],
  );
  useEffect(() => {
    if (wasRunning.current && !running) void refresh();
    wasRunning.current = running;
  }, [running, refresh]);
  const marked = summary?.recently_completed === true && !running;
  useEffect(() => {
    if (!chatId || !marked) return;
    call(api.POST('/api/dismiss_chat_completion', { body: { chat_id: chatId } })).then(apply, () => undefined);
  }, [chatId, marked, apply]);
}
