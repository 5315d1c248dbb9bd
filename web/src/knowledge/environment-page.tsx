// /knowledge/environments/:id: one environment, what it changes against production (file by file,
// line by line), the conflicts a merge would meet and their resolution, the evaluation check, the
// merge itself (waiting while conflicts remain), its warehouse targets, and deleting it.
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { setActiveEnvironment, useActiveEnvironment } from '../api/environment.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { useDocumentTitle } from '../ui/document-title.ts';
import { FormAlert } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { ConflictsSection } from './conflicts-section.tsx';
import { DiffSection } from './diff-view.tsx';
import { EvaluationGateSection } from './evaluation-gate.tsx';
import type { Environment } from './environments-page.tsx';
import { MergeSection } from './merge-section.tsx';
import { TargetsSection } from './targets-section.tsx';

export function EnvironmentPage() {
  const { id = '' } = useParams();
  const env = useLoad((signal) => call(api.GET('/api/environments/{id}', { params: { path: { id } }, signal })), id);
  useDocumentTitle(env.data ? `Environment ${env.data.name}` : 'Environment');
  if (!env.data) return env.problem ? <FormAlert problem={env.problem} /> : <p role="status">Loading…</p>;
  return <EnvironmentView env={env.data} onChange={(next) => env.update(() => next)} />;
}

function EnvironmentView({ env, onChange }: { env: Environment; onChange: (env: Environment) => void }) {
  const active = useActiveEnvironment();
  const navigate = useNavigate();
  // Bumped after a merge or an update so the diff and the conflicts are read again.
  const [version, setVersion] = useState(0);
  const conflicts = useLoad(
    (signal) => call(api.GET('/api/environments/{id}/conflicts', { params: { path: { id: env.id }, query: { details: 'true' } }, signal })),
    `${env.id}:${version}`,
  );
  const remove = useAction(async () => {
    await call(api.DELETE('/api/environments/{id}', { params: { path: { id: env.id }, query: { confirm: 'true' } } }));
    gone();
  });
  const gone = () => {
    if (active?.id === env.id) setActiveEnvironment(undefined);
    void navigate('/knowledge/environments');
  };
  return (
    <>
      <h1>
        <span className="swatch" style={{ background: env.color }} aria-hidden="true" /> Environment {env.name}
      </h1>
      <div className="actions">
        {active?.id === env.id ? (
          <button type="button" onClick={() => setActiveEnvironment(undefined)}>
            Back to production
          </button>
        ) : (
          <button type="button" onClick={() => setActiveEnvironment(env)}>
            Work in {env.name}
          </button>
        )}
        <ConfirmButton label={`Delete environment ${env.name}`} question={`Delete ${env.name}? Changes not merged are lost.`} onConfirm={() => remove.run()}>
          Delete
        </ConfirmButton>
      </div>
      <FormAlert problem={remove.problem} />
      <DiffSection envId={env.id} version={version} />
      <ConflictsSection envId={env.id} conflicts={conflicts} onUpdated={() => setVersion((v) => v + 1)} />
      <EvaluationGateSection envId={env.id} />
      <MergeSection
        envId={env.id}
        envName={env.name}
        conflicted={conflicts.data?.mergeable === false}
        onMerged={(deleted) => (deleted ? gone() : setVersion((v) => v + 1))}
      />
      <TargetsSection env={env} onChange={onChange} />
    </>
  );
}
