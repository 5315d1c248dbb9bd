// The evaluation check of an environment (when the organization gates merges on evaluations): each
// evaluation run on the environment and on production, compared question by question; the
// regressions are what a required gate refuses a merge for.
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

type EvaluationDiff = ResponseOf<'/api/environments/{id}/evaluation_diff', 'get'>;
export type Regression = EvaluationDiff['regressions'][number];

/** How often a pending comparison is read again. */
const POLL_MS = 2000;

export function EvaluationGateSection({ envId }: { envId: string }) {
  const gate = useLoad((signal) => call(api.GET('/api/evaluations/settings', { signal })));
  const [diff, setDiff] = useState<EvaluationDiff | undefined>();
  const check = useAction(async () => setDiff(await call(api.GET('/api/environments/{id}/evaluation_diff', { params: { path: { id: envId } } }))));
  // Runs still going: read again until every comparison is ready.
  const recheck = check.run;
  useEffect(() => {
    if (diff?.status !== 'pending') return;
    const timer = setTimeout(() => void recheck(), POLL_MS);
    return () => clearTimeout(timer);
  }, [diff, recheck]);
  const mode = gate.data?.evaluation_gate;
  if (!mode || mode === 'off') return null;
  return (
    <section aria-labelledby="gate-title">
      <h2 id="gate-title">Evaluation check</h2>
      <p className="muted">
        {mode === 'required' ? 'Merges that make an evaluation answer worse than production are refused.' : 'Merges carry the comparison of evaluations.'}
      </p>
      <div className="actions">
        <button type="button" onClick={() => void check.run()}>
          {diff ? 'Compare again' : 'Compare evaluations with production'}
        </button>
      </div>
      <FormAlert problem={check.problem} />
      {diff?.status === 'pending' && (
        <p role="status">Running the evaluations on this environment and on production…</p>
      )}
      {diff?.status === 'ready' && (
        <>
          <ul aria-label="Evaluations compared">
            {diff.evaluations.map((e) => (
              <li key={e.evaluation_id}>
                {e.name}: {e.comparison ? `${e.comparison.summary.regressed ?? 0} regressed, ${e.comparison.summary.fixed ?? 0} fixed` : e.blocked_by ?? e.status}
                {e.environment_run_id && (
                  <>
                    {' '}
                    (<Link to={`/knowledge/evaluations/runs/${encodeURIComponent(e.environment_run_id)}`}>run on this environment</Link>)
                  </>
                )}
              </li>
            ))}
          </ul>
          {diff.regressions.length === 0 ? <p role="status">No question answers worse than on production.</p> : <RegressionList regressions={diff.regressions} />}
        </>
      )}
    </section>
  );
}

export function RegressionList({ regressions }: { regressions: Regression[] }) {
  return (
    <table className="data-table" aria-label="Regressed questions">
      <thead>
        <tr>
          <th scope="col">Question</th>
          <th scope="col">Expected</th>
          <th scope="col">Production</th>
          <th scope="col">This environment</th>
        </tr>
      </thead>
      <tbody>
        {regressions.map((r) => (
          <tr key={`${r.evaluation_id}:${r.question_id}`}>
            <td>{r.question}</td>
            <td>{String(r.expected)}</td>
            <td>{r.production_observed === null ? '—' : String(r.production_observed)}</td>
            <td>
              {r.environment_observed === null ? '—' : String(r.environment_observed)} <span className="status fail">{r.environment_result}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
