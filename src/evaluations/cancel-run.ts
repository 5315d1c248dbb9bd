// Cancelling a run: it ends at once, its pending questions close as `cancelled`, and the questions in
// flight are asked to stop (their late answers are not recorded). Answers already scored stay.
import type { Principal } from '../auth/index.ts';
import { transact } from '../store/index.ts';
import type { EvaluationDeps } from './deps.ts';
import { RunFinished } from './errors.ts';
import { ownRun } from './read-runs.ts';
import { runView, type RunView } from './run-view.ts';
import type { EvaluationRunner } from './runner.ts';
import { closePending, resultsOf } from './store/results-store.ts';
import { endRun, findRun } from './store/runs-store.ts';

export function cancelRun(deps: EvaluationDeps, runner: EvaluationRunner, p: Principal, id: string): RunView {
  const run = ownRun(deps, p, id);
  const now = deps.clock.now();
  const ended = transact(deps.db, () => {
    if (!endRun(deps.db, run.id, 'cancelled', now)) return false;
    closePending(deps.db, run.id, 'cancelled', now);
    return true;
  });
  if (!ended) throw new RunFinished(findRun(deps.db, p.orgId, run.id)!.status);
  runner.cancel(run.id);
  return runView(findRun(deps.db, p.orgId, run.id)!, resultsOf(deps.db, run.id));
}
