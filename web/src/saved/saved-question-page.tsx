// /saved/:id: a saved question, run again as the person opening it, with the time the data was read,
// the result as a table and the saved chart drawn over the fresh rows; its SQL and its versions.
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { chartOver } from './chart-over.ts';
import { QuestionHistory } from './question-history.tsx';
import { QuestionTools } from './question-tools.tsx';
import { RunTable } from './run-table.tsx';
import { SubscribeButton } from '../subscriptions/subscribe-dialog.tsx';

const ChartView = lazy(() => import('../ask/chart-view.tsx').then((m) => ({ default: m.ChartView })));

export function SavedQuestionPage() {
  const { id = '' } = useParams();
  const question = useLoad((signal) => call(api.GET('/api/saved_questions/{id}', { params: { path: { id } }, signal })), id);
  const run = useLoad((signal) => call(api.POST('/api/saved_questions/{id}/run', { params: { path: { id } }, signal })), id);
  useDocumentTitle(question.data?.title ?? 'Saved question');
  const q = question.data;
  const result = run.data;
  return (
    <section className="saved-page" aria-labelledby="question-title">
      <h1 id="question-title">{q?.title ?? 'Saved question'}</h1>
      {q?.description && <p>{q.description}</p>}
      {q && <QuestionTools questionId={q.id} />}
      <FormAlert problem={question.problem ?? run.problem} />
      <div className="run-status">
        {result && <span role="status">Data read at {new Date(result.read_at).toLocaleString()}</span>}
        {run.loading && <span role="status">Running the question…</span>}
        <span className="spacer" />
        <button type="button" disabled={run.loading} onClick={() => void run.reload()}>
          Run again
        </button>
        <SubscribeButton savedQuestionId={id} />
      </div>
      {result && q?.chart ? (
        <Suspense fallback={<p className="muted">Drawing the chart…</p>}>
          <ChartView spec={chartOver(q.chart, result)} />
        </Suspense>
      ) : null}
      {result && <RunTable result={result} sql={q?.sql} />}
      {q && (
        <details>
          <summary>SQL</summary>
          <pre>
            <code>{q.sql}</code>
          </pre>
        </details>
      )}
      {q && <QuestionHistory questionId={q.id} current={q.version} />}
    </section>
  );
}
