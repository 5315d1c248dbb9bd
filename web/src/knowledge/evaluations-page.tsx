// /knowledge/evaluations: the evaluations where the person works (production or the active
// environment), each with its newest run, and starting a run on production or on the environment.
import { Link, useNavigate } from 'react-router';
import { api, call } from '../api/client.ts';
import { useActiveEnvironment } from '../api/environment.ts';
import type { ResponseOf } from '../api/types.ts';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';

type Evaluation = ResponseOf<'/api/evaluations', 'get'>['evaluations'][number];
export const runPath = (id: string) => `/knowledge/evaluations/runs/${encodeURIComponent(id)}`;

export function EvaluationsPage() {
  useDocumentTitle('Evaluation runs');
  const env = useActiveEnvironment();
  const list = useLoad((signal) => call(api.GET('/api/evaluations', { signal })), env?.id ?? '');
  return (
    <section aria-labelledby="evals-title">
      <h1 id="evals-title">Evaluation runs</h1>
      <p className="muted">
        Each evaluation asks its questions and checks the answers against the expected ones. Definitions are read from {env ? `environment ${env.name}` : 'production'}; edit
        them under <Link to="/knowledge/items/evaluations">Evaluations</Link>.
      </p>
      <FormAlert problem={list.problem} />
      {list.loading && !list.data && <p role="status">Loading…</p>}
      {list.data &&
        (list.data.evaluations.length === 0 ? (
          <p>No evaluation yet.</p>
        ) : (
          <ul className="cards" aria-label="Evaluations">
            {list.data.evaluations.map((e) => (
              <EvaluationCard key={e.id} evaluation={e} />
            ))}
          </ul>
        ))}
    </section>
  );
}

function EvaluationCard({ evaluation: e }: { evaluation: Evaluation }) {
  const env = useActiveEnvironment();
  const navigate = useNavigate();
  const start = useAction(async (target: { kind: 'production' } | { kind: 'environment'; environment_id: string }) => {
    const run = await call(api.POST('/api/evaluations/{id}/runs', { params: { path: { id: e.id } }, body: { target, trigger: 'manual' } }));
    void navigate(runPath(run.id));
  });
  const last = e.last_run;
  return (
    <li className="card">
      <h3>{e.name}</h3>
      <p className="muted">
        {e.question_count} questions{e.description ? ` · ${e.description}` : ''}
      </p>
      {e.error && <p className="field-error">{e.error}</p>}
      {last && (
        <p>
          Newest run: <span className={`status ${last.verdict}`}>{last.verdict}</span> {last.summary.pass} of {last.summary.total} passed on{' '}
          {last.target.kind === 'production' ? 'production' : 'an environment'} · <Link to={runPath(last.id)}>see its results</Link>
        </p>
      )}
      <div className="actions">
        <button type="button" onClick={() => void start.run({ kind: 'production' })} aria-label={`Run on production: ${e.name}`}>
          Run on production
        </button>
        {env && (
          <button type="button" onClick={() => void start.run({ kind: 'environment', environment_id: env.id })} aria-label={`Run on ${env.name}: ${e.name}`}>
            Run on {env.name}
          </button>
        )}
      </div>
      <FormAlert problem={start.problem} />
      {typeof start.problem?.data['active_run_id'] === 'string' && <Link to={runPath(start.problem.data['active_run_id'])}>See the run in progress</Link>}
    </li>
  );
}
