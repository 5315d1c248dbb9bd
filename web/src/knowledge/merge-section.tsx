// Merging an environment into production: confirmed first; a modeler without the merge permission
// is told why they cannot; with the organization's evaluation gate, the regressions that refuse the
// merge are listed, and an admin may merge anyway (recorded in the merge commit). While files conflict
// with production the merge waits for their resolution (the server would answer 409).
import { useState } from 'react';
import { api, call } from '../api/client.ts';
import type { ApiProblem } from '../api/problem.ts';
import { useMe } from '../session/session.tsx';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { RegressionList, type Regression } from './evaluation-gate.tsx';
import { mergeProblemText } from './merge-problem.ts';

interface MergeSectionProps {
  envId: string;
  envName: string;
  /** Files conflict with production: resolve them first. */
  conflicted: boolean;
  onMerged: (deleted: boolean) => void;
}

export function MergeSection({ envId, envName, conflicted, onMerged }: MergeSectionProps) {
  const me = useMe();
  const [deleteAfter, setDeleteAfter] = useState(false);
  const [override, setOverride] = useState(false);
  const [merged, setMerged] = useState<{ reported: Regression[] } | undefined>();
  const merge = useAction(async () => {
    const result = await call(
      api.POST('/api/environments/{id}/merge', {
        params: { path: { id: envId } },
        body: { confirm: true, delete_after: deleteAfter, ...(override ? { override_evaluations: true } : {}) },
      }),
    );
    // With the gate on `report`, the merge carries the comparison it went through with.
    const report = (result as { evaluations?: { regressions?: Regression[] } | null } | undefined)?.evaluations;
    setMerged({ reported: report?.regressions ?? [] });
    onMerged(deleteAfter);
  });
  const canMerge = me.role === 'admin' || me.permissions.includes('merge_to_production');
  const regressions = regressionsOf(merge.problem);
  return (
    <section aria-labelledby="merge-title">
      <h2 id="merge-title">Merge into production</h2>
      {!canMerge ? (
        <p role="note">
          You cannot merge: merging into production needs an admin, or a modeler with the permission “Can merge changes to production”. Ask an admin to
          merge {envName} or to give you that permission.
        </p>
      ) : (
        <>
          <div className="field">
            <label className="check">
              <input type="checkbox" checked={deleteAfter} onChange={(e) => setDeleteAfter(e.target.checked)} /> Delete the environment once merged
            </label>
          </div>
          {regressions && me.role === 'admin' && (
            <div className="field">
              <label className="check">
                <input type="checkbox" checked={override} onChange={(e) => setOverride(e.target.checked)} /> Merge despite the regressions (recorded in the
                merge commit)
              </label>
            </div>
          )}
          {conflicted && <p role="note">Resolve the conflicts with production above first: merging waits until none remain.</p>}
          <div className="actions">
            <ConfirmButton
              disabled={conflicted}
              question={`Merge ${envName} into production? Everyone’s answers use its knowledge from then on.`}
              onConfirm={() => merge.run()}
            >
              Merge
            </ConfirmButton>
          </div>
          {merged && <Note>Merged into production.</Note>}
          {merged && merged.reported.length > 0 && (
            <>
              <p>The evaluation check reported these questions answering worse than on production:</p>
              <RegressionList regressions={merged.reported} />
            </>
          )}
          {merge.problem && (
            <div className="alert error" role="alert">
              {mergeProblemText(merge.problem, me.role === 'admin')}
            </div>
          )}
          {regressions && <RegressionList regressions={regressions} />}
        </>
      )}
    </section>
  );
}

function regressionsOf(problem: ApiProblem | undefined): Regression[] | undefined {
  if (problem?.code !== 'EVALUATION_REGRESSION') return undefined;
  const list = problem.data['regressions'];
  return Array.isArray(list) ? (list as Regression[]) : [];
}

