// /share/:shareId: a chat (or one answer) someone shared, for anyone with the link and without
// signing in. Read-only: the answers' text, tables (the rows they brought) and charts.
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { ApiProblem } from '../api/problem.ts';
import { AnswerView } from '../ask/answer-view.tsx';
import { toTurns, type Turn } from '../ask/turns.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';

/** Question/answer pairs per page. */
const PAIRS = 10;

export function SharedChatPage() {
  const shareId = useParams().shareId ?? '';
  const [title, setTitle] = useState<string | undefined>();
  const [turns, setTurns] = useState<Turn[]>([]);
  const [next, setNext] = useState<number | undefined>(0);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<ApiProblem | undefined>();
  useDocumentTitle(title ? `${title} (shared)` : 'Shared chat');

  const load = useCallback(
    async (offset: number) => {
      setLoading(true);
      try {
        const page = await call(api.GET('/api/share/{chat_id}', { params: { path: { chat_id: shareId }, query: { pairs: PAIRS, offset } } }));
        setTitle(page.chat?.title || 'Untitled chat');
        setTurns((older) => [...toTurns(page.messages).turns, ...(offset === 0 ? [] : older)]);
        setNext(page.has_more ? offset + PAIRS : undefined);
        setProblem(undefined);
      } catch (err) {
        setProblem(err instanceof ApiProblem ? err : undefined);
      } finally {
        setLoading(false);
      }
    },
    [shareId],
  );
  useEffect(() => {
    void load(0);
  }, [load]);

  return (
    <div className="shared-page">
      <header className="topbar">
        <Link to="/" className="brand" style={{ margin: 0 }} aria-label="Sextant home">
          <img src="/favicon.svg" alt="" width={22} height={22} /> Sextant
        </Link>
      </header>
      <main id="main" className="ask">
        <h1>{title ?? 'Shared chat'}</h1>
        <p className="muted">Shared read-only. The tables show the rows the answers brought; the data behind them stays in the organization.</p>
        {problem?.status === 404 ? (
          <div className="alert error" role="alert">
            This link shows nothing: the chat was never shared, or its owner stopped sharing it.
          </div>
        ) : (
          <FormAlert problem={problem} />
        )}
        {loading && <p role="status">Loading…</p>}
        {next !== undefined && next > 0 && (
          <button type="button" disabled={loading} onClick={() => void load(next)}>
            Show earlier questions
          </button>
        )}
        {turns.map((t) => (
          <article key={t.key} className="turn">
            {t.question !== undefined && (
              <>
                <h2 className="visually-hidden">Question</h2>
                <div className="question">{t.question}</div>
              </>
            )}
            {t.answer && <AnswerView answer={t.answer} chatId={shareId} readOnly />}
          </article>
        ))}
      </main>
    </div>
  );
}
