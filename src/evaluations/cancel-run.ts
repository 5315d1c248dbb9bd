// Cancelling a run: it ends at once, its pending questions close as `cancelled`, and the questions in
// flight are asked to stop (their late answers are not recorded). Answers already scored stay. One
// batch: the run ends only if it was still running, and then its pending questions close with it.
import type { Principal } from '../auth/index.ts';
import type { EvaluationDeps } from './deps.ts';
import { RunFinished } from './errors.ts';
import { ownRun } from './read-runs.ts';
import { runView, type RunView } from './run-view.ts';
import type { EvaluationRunner } from './runner.ts';
import { closePendingQuery, resultsOf } from './store/results-store.ts';
import { endRunQuery, findRun } from './store/runs-store.ts';

export async function cancelRun(deps: EvaluationDeps, runner: EvaluationRunner, p: Principal, id: string): Promise<RunView> {
  const { store } = deps;
  const run = await ownRun(deps, p, id);
  const now = deps.clock.now();
  const ended = await store.batch([endRunQuery(store.db, run.id, 'cancelled', now), closePendingQuery(store.db, run.id, 'cancelled', now)], { require: [0] });
  if (!ended.ok) throw new RunFinished((await findRun(store, p.orgId, run.id))!.status);
  runner.cancel(run.id);
  return runView((await findRun(store, p.orgId, run.id))!, await resultsOf(store, run.id));
}
