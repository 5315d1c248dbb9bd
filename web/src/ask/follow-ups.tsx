// Questions to ask next. In a new chat: the server's suggestions (recent answered questions,
// reports, documented tables). After an answer: follow-ups of that answer (another grouping, by
// month, the year before). The server offers only questions the model answers; those already asked
// in this chat are left out.
import { useEffect, useState } from 'react';
import { api, call } from '../api/client.ts';

interface FollowUpsProps {
  asked: string[];
  onPick: (text: string) => void;
  title: string;
  /** The chat whose last answer the follow-ups follow; none for a new chat. */
  chatId?: string | undefined;
}

export function FollowUps({ asked, onPick, title, chatId }: FollowUpsProps) {
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const answered = asked.length;
  useEffect(() => {
    const abort = new AbortController();
    call(api.GET('/api/get_initial_suggestions', { params: { query: chatId ? { chat_id: chatId } : {} }, signal: abort.signal })).then(
      (r) => setSuggestions(r.suggestions.map((s) => s.text)),
      () => setSuggestions([]),
    );
    return () => abort.abort();
  }, [chatId, answered]);
  const seen = new Set(asked.map((q) => q.trim().toLowerCase()));
  const shown = suggestions.filter((s) => !seen.has(s.trim().toLowerCase())).slice(0, 4);
  if (shown.length === 0) return null;
  return (
    <section aria-label={title}>
      <h2 className="visually-hidden">{title}</h2>
      <div className="follow-ups">
        {shown.map((s) => (
          <button key={s} type="button" onClick={() => onPick(s)}>
            {s}
          </button>
        ))}
      </div>
    </section>
  );
}
