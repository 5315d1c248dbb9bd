// Comparing a finished run with an earlier one of the same evaluation: each question fixed,
// regressed, still passing, still failing, new or removed.
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ResponseOf } from '../api/types.ts';
import { SelectField } from '../ui/field.tsx';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

type Run = ResponseOf<'/api/evaluation_runs/{id}', 'get'>;
type Comparison = ResponseOf<'/api/evaluation_runs/{id}/compare', 'get'>;

const CHANGE_LABELS: Record<string, string> = {
  fixed: 'fixed',
  regressed: 'regressed',
  still_passing: 'still passing',
  still_failing: 'still failing',
  new: 'new',
  removed: 'removed',
  pending: 'not scored yet',
};

export function CompareSection({ run }: { run: Run }) {
  const runs = useLoad((signal) => call(api.GET('/api/evaluations/{id}/runs', { params: { path: { id: run.evaluation_id }, query: { limit: 50 } }, signal })), run.id);
  const others = (runs.data?.runs ?? []).filter((r) => r.id !== run.id && r.finished);
  const [baseline, setBaseline] = useState('');
  const [comparison, setComparison] = useState<Comparison | undefined>();
  const compare = useAction(async () => {
    const chosen = baseline || others[0]?.id;
    if (!chosen) return;
    setComparison(await call(api.GET('/api/evaluation_runs/{id}/compare', { params: { path: { id: run.id }, query: { baseline: chosen } } })));
  });
  return (
    <section aria-labelledby="compare-title">
      <h2 id="compare-title">Compare with a baseline run</h2>
      <FormAlert problem={runs.problem} />
      {runs.data && others.length === 0 && <p>No other finished run of this evaluation yet.</p>}
      {others.length > 0 && (
        <>
          <SelectField
            label="Baseline run"
            value={baseline || others[0]!.id}
            onChange={setBaseline}
            options={others.map((r) => ({
              value: r.id,
              label: `${new Date(r.created_at).toLocaleString()} on ${r.target.kind === 'production' ? 'production' : 'an environment'}: ${r.summary.pass} of ${r.summary.total} passed`,
            }))}
          />
          <div className="actions">
            <button type="button" onClick={() => void compare.run()}>
              Compare
            </button>
          </div>
        </>
      )}
      <FormAlert problem={compare.problem} />
      {comparison && (
        <table className="data-table" aria-label="Comparison with the baseline">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">Change</th>
              <th scope="col">Baseline</th>
              <th scope="col">This run</th>
            </tr>
          </thead>
          <tbody>
            {comparison.questions.map((q) => (
              <tr key={q.id}>
                <td>{q.question}</td>
                <td>
                  <span className={`status ${q.change}`}>{CHANGE_LABELS[q.change] ?? q.change}</span>
                </td>
                <td>{q.baseline ? `${q.baseline.result} (${q.baseline.observed ?? '—'})` : '—'}</td>
                <td>{q.run ? `${q.run.result} (${q.run.observed ?? '—'})` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
