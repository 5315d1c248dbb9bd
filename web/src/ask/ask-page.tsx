// / and /chat/:chatId: ask questions and watch the answers stream in. The page stays mounted when a
// new chat gets its address, so the stream that started it goes on.
import { useEffect, useRef, useState } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { AnswerView } from './answer-view.tsx';
import { Composer } from './composer.tsx';
import { FollowUps } from './follow-ups.tsx';
import { useChat } from './use-chat.ts';

export function AskPage() {
  const routeChatId = useMatch('/chat/:chatId')?.params.chatId;
  const [freshId, setFreshId] = useState(() => crypto.randomUUID());
  // Set once a question was asked in the fresh chat: coming back to / then starts another one.
  const freshUsed = useRef(false);
  const chatId = routeChatId ?? freshId;
  useEffect(() => {
    if (!routeChatId && freshUsed.current) {
      freshUsed.current = false;
      setFreshId(crypto.randomUUID());
    }
  }, [routeChatId]);
  const chat = useChat(chatId, routeChatId === undefined);
  const navigate = useNavigate();
  const bottom = useRef<HTMLDivElement>(null);
  const last = chat.turns.at(-1);
  useDocumentTitle(chat.turns[0]?.question.slice(0, 60) ?? 'Ask');
  useEffect(() => {
    // (Scrolling methods return a promise in current browsers: never the effect's cleanup.)
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [chat.turns.length]);

  const ask = async (text: string) => {
    const accepted = await chat.ask(text);
    if (accepted && !routeChatId) {
      freshUsed.current = true;
      navigate(`/chat/${chatId}`);
    }
    return accepted;
  };
  return (
    <div className="ask">
      <h1 className="visually-hidden">Ask</h1>
      {chat.turns.length === 0 && !chat.loading && !routeChatId && (
        <div className="empty-state">
          <h2>What would you like to know?</h2>
          <p className="muted">Ask in plain language; the answer shows the queries it ran.</p>
        </div>
      )}
      {chat.loading && <p role="status">Loading the chat…</p>}
      {chat.turns.map((t) => (
        <article key={t.key} className="turn">
          <h2 className="visually-hidden">Question</h2>
          <div className="question">{t.question}</div>
          <AnswerView answer={t.answer} chatId={chatId} />
        </article>
      ))}
      {chat.connection === 'lost' && (
        <div className="alert info" role="status">
          Connection lost; reconnecting. The answer goes on meanwhile.
        </div>
      )}
      <FormAlert problem={chat.problem} />
      {!chat.running && !chat.loading && (chat.turns.length === 0 || last?.answer.status === 'completed') && (
        <FollowUps asked={chat.turns.map((t) => t.question)} onPick={(s) => void ask(s)} title={chat.turns.length === 0 ? 'Suggested questions' : 'Suggested follow-ups'} />
      )}
      <div ref={bottom} />
      <Composer chatId={chatId} draftKey={routeChatId ?? 'new'} running={chat.running} onAsk={ask} onRemark={chat.remark} onStop={chat.stop} />
    </div>
  );
}
