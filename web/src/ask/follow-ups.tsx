// Questions to ask next: the server's suggestions (recent questions, reports, documented tables),
// less those already asked in this chat.
import { useEffect, useState } from 'react';
import { api, call } from '../api/client.ts';

export function FollowUps({ asked, onPick, title }: { asked: string[]; onPick: (text: string) => void; title: string }) {
  const [suggestions, setSuggestions] = useState<string[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    call(api.GET('/api/get_initial_suggestions', { signal: abort.signal })).then(
      (r) => setSuggestions(r.suggestions.map((s) => s.text)),
      () => setSuggestions([]),
    );
    return () => abort.abort();
  }, []);
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
