// Reading runs: one run with its questions, and an evaluation's runs newest first in keyset pages.
// Runs are shared across the organization (interface part 2); another organization's run is 404.
import type { Principal } from '../auth/index.ts';
import { ValidationFailed } from '../errors.ts';
import type { EvaluationDeps } from './deps.ts';
import { EvaluationRunNotFound } from './errors.ts';
import { runView, type RunView } from './run-view.ts';
import { requireModeler } from './start-run.ts';
import { resultsOf } from './store/results-store.ts';
import { findRun, listRuns, type RunRow } from './store/runs-store.ts';

/** The caller's organization's run, or 404. */
export async function ownRun(deps: EvaluationDeps, p: Principal, id: string): Promise<RunRow> {
  requireModeler(p);
  const run = await findRun(deps.store, p.orgId, id);
  if (!run) throw new EvaluationRunNotFound();
  return run;
}

export async function getRun(deps: EvaluationDeps, p: Principal, id: string): Promise<RunView> {
  const run = await ownRun(deps, p, id);
  return runView(run, await resultsOf(deps.store, run.id));
}

/** Runs of an evaluation, newest first; `cursor` is the `next_cursor` of the page before. */
export async function listEvaluationRuns(
  deps: EvaluationDeps,
  p: Principal,
  evaluationId: string,
  { cursor, limit = 20 }: { cursor?: string; limit?: number },
): Promise<{ runs: RunView[]; next_cursor: string | null }> {
  requireModeler(p);
  if (cursor !== undefined && !/^\d{1,15}$/.test(cursor)) throw new ValidationFailed([{ loc: ['query', 'cursor'], msg: 'not a cursor of this list', type: 'value_error' }]);
  const before = cursor === undefined ? Number.MAX_SAFE_INTEGER : Number(cursor);
  const rows = await listRuns(deps.store, p.orgId, evaluationId, before, limit + 1);
  const page = rows.slice(0, limit);
  return {
    runs: await Promise.all(page.map(async (run) => runView(run, await resultsOf(deps.store, run.id), false))),
    next_cursor: rows.length > limit ? String(page[page.length - 1]!.seq) : null,
  };
}
