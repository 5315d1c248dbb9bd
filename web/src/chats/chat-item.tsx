// One chat in the history: its title as a link with the date of its last activity (titles repeat:
// the date tells them apart), its labels and environment, and the "new answer"
// mark (an answer finished while the person was elsewhere) with a button that dismisses it.
import { NavLink } from 'react-router';
import { api, call } from '../api/client.ts';
import { fullDate, shortDate } from '../lib/format-date.ts';
import { useAction } from '../ui/use-action.ts';
import type { ChatSummary } from './chat-list.tsx';

export function ChatItem({ chat, onChange }: { chat: ChatSummary; onChange: (chat: ChatSummary) => void }) {
  const title = chat.title || 'Untitled chat';
  const dismiss = useAction(async () => onChange(await call(api.POST('/api/dismiss_chat_completion', { body: { chat_id: chat.chat_id } }))));
  return (
    <li className="chat-item">
      <NavLink to={`/chat/${encodeURIComponent(chat.chat_id)}`} title={title}>
        {title}
      </NavLink>
      <time className="chat-date" dateTime={new Date(chat.updated_at).toISOString()} title={fullDate(chat.updated_at)}>
        {shortDate(chat.updated_at)}
      </time>
      {chat.recently_completed && (
        <span className="new-answer">
          <span className="badge">New answer</span>
          <button type="button" className="chip-remove" aria-label={`Dismiss the new-answer mark of ${title}`} disabled={dismiss.pending} onClick={() => void dismiss.run()}>
            ×
          </button>
        </span>
      )}
      {(chat.labels.length > 0 || chat.environment) && (
        <span className="chat-meta">
          {chat.environment && <span className="tag">{chat.environment}</span>}
          {chat.labels.map((l) => (
            <span key={l} className="tag">
              {l}
            </span>
          ))}
        </span>
      )}
    </li>
  );
}
