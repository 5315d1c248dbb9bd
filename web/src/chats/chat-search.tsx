// Search over the person's chats (the full text of every message), as they type. Results show the
// matching words in context; Escape clears the search.
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import { ApiProblem } from '../api/problem.ts';
import type { ResponseOf } from '../api/types.ts';
import { FormAlert } from '../ui/form-alert.tsx';

type Hit = ResponseOf<'/api/search_chats', 'get'>['results'][number];

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

/** The server's excerpt (escaped text with <mark> around matches) as React nodes, never as HTML. */
export function snippetNodes(snippet: string): ReactNode[] {
  return snippet.split(/(<mark>.*?<\/mark>)/).map((part, i) => {
    const marked = /^<mark>(.*)<\/mark>$/.exec(part);
    return marked ? <mark key={i}>{unescape(marked[1]!)}</mark> : unescape(part);
  });
}

/** Results of `query` (searched 250 ms after the last key). */
export function SearchResults({ query }: { query: string }) {
  const [hits, setHits] = useState<Hit[] | undefined>();
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  useEffect(() => {
    const abort = new AbortController();
    const timer = setTimeout(() => {
      call(api.GET('/api/search_chats', { params: { query: { q: query.slice(0, 200), limit: 30 } }, signal: abort.signal })).then(
        (r) => {
          setHits(r.results);
          setProblem(undefined);
        },
        (err: unknown) => {
          if (err instanceof ApiProblem) setProblem(err);
        },
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [query]);
  return (
    <section aria-label="Search results">
      <FormAlert problem={problem} />
      <p role="status" className="muted">
        {hits === undefined ? 'Searching…' : hits.length === 0 ? 'No chat matches.' : `${hits.length} chat${hits.length === 1 ? '' : 's'} found`}
      </p>
      <ul className="chat-list">
        {hits?.map((h) => (
          <li key={h.chat_id} className="chat-item">
            <Link to={`/chat/${encodeURIComponent(h.chat_id)}`}>{h.title || 'Untitled chat'}</Link>
            <span className="snippet">{snippetNodes(h.snippet)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
