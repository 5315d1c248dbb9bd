// /knowledge/evaluations/runs/:id: a run's progress while it runs (read again every few seconds),
// then its verdict and each question's expected and observed answers, the chat of the answer, and a
// comparison with an earlier run of the same evaluation.
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { CompareSection } from './run-compare.tsx';

type Run = ResponseOf<'/api/evaluation_runs/{id}', 'get'>;
const POLL_MS = 1500;

export function RunPage() {
  const { id = '' } = useParams();
  const run = useLoad((signal) => call(api.GET('/api/evaluation_runs/{id}', { params: { path: { id } }, signal })), id);
  useDocumentTitle(run.data ? `Run of ${run.data.evaluation_name}` : 'Evaluation run');
  const { reload } = run;
  const finished = run.data?.finished ?? true;
  useEffect(() => {
    if (finished) return;
    const timer = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [finished, reload]);
  if (!run.data) return run.problem ? <FormAlert problem={run.problem} /> : <p role="status">Loading…</p>;
  return <RunView run={run.data} onChange={(next) => run.update(() => next)} />;
}

function RunView({ run, onChange }: { run: Run; onChange: (run: Run) => void }) {
  const cancel = useAction(async () => onChange(await call(api.POST('/api/evaluation_runs/{id}/cancel', { params: { path: { id: run.id } } }))));
  const { summary } = run;
  const done = summary.total - summary.pending;
  return (
    <>
      <h1>Run of {run.evaluation_name}</h1>
      <p className="muted">
        On {run.target.kind === 'production' ? 'production' : `environment ${run.target.environment_id}`} at commit <code>{run.target_commit?.slice(0, 10) ?? '—'}</code>,
        started {new Date(run.created_at).toLocaleString()}.
      </p>
      <section aria-labelledby="progress-title">
        <h2 id="progress-title">{run.finished ? 'Verdict' : 'Progress'}</h2>
        {run.finished ? (
          <p role="status">
            <span className={`status ${run.verdict}`}>{run.verdict}</span> {summary.pass} passed, {summary.fail} failed, {summary.error} errors, of {summary.total} questions
            {run.status === 'cancelled' ? ' (cancelled)' : ''}.
          </p>
        ) : (
          <>
            <label htmlFor="run-progress">
              {done} of {summary.total} questions answered
            </label>
            <progress id="run-progress" className="progress" max={summary.total} value={done} />
            <div className="actions">
              <button type="button" onClick={() => void cancel.run()}>
                Cancel the run
              </button>
            </div>
            <FormAlert problem={cancel.problem} />
          </>
        )}
        {run.warnings.map((w) => (
          <p key={w} className="muted">
            {w}
          </p>
        ))}
      </section>
      <ResultsTable run={run} />
      {run.finished && <CompareSection run={run} />}
    </>
  );
}

function ResultsTable({ run }: { run: Run }) {
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title">Questions</h2>
      <table className="data-table" aria-labelledby="results-title">
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">Expected</th>
            <th scope="col">Observed</th>
            <th scope="col">Result</th>
            <th scope="col">Answer</th>
          </tr>
        </thead>
        <tbody>
          {(run.questions ?? []).map((q) => (
            <tr key={q.id}>
              <td>{q.question}</td>
              <td>{String(q.expected_answer)}</td>
              <td>
                {q.observed === null ? '—' : String(q.observed)}
                {q.relative_diff !== null && q.relative_diff > 0 && <span className="muted"> ({q.relative_diff.toFixed(1)} % off)</span>}
              </td>
              <td>
                <span className={`status ${q.result}`}>{q.result}</span>
                {q.error && <span className="muted"> {q.error}</span>}
              </td>
              <td>{q.chat_id ? <Link to={`/chat/${encodeURIComponent(q.chat_id)}`} aria-label={`Open the chat of ${q.question}`}>Open the chat</Link> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
