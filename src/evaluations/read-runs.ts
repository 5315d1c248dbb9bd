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
export function ownRun(deps: EvaluationDeps, p: Principal, id: string): RunRow {
  requireModeler(p);
  const run = findRun(deps.db, p.orgId, id);
  if (!run) throw new EvaluationRunNotFound();
  return run;
}

export function getRun(deps: EvaluationDeps, p: Principal, id: string): RunView {
  const run = ownRun(deps, p, id);
  return runView(run, resultsOf(deps.db, run.id));
}

/** Runs of an evaluation, newest first; `cursor` is the `next_cursor` of the page before. */
export function listEvaluationRuns(deps: EvaluationDeps, p: Principal, evaluationId: string, { cursor, limit = 20 }: { cursor?: string; limit?: number }): { runs: RunView[]; next_cursor: string | null } {
  requireModeler(p);
  if (cursor !== undefined && !/^\d{1,15}$/.test(cursor)) throw new ValidationFailed([{ loc: ['query', 'cursor'], msg: 'not a cursor of this list', type: 'value_error' }]);
  const before = cursor === undefined ? Number.MAX_SAFE_INTEGER : Number(cursor);
  const rows = listRuns(deps.db, p.orgId, evaluationId, before, limit + 1);
  const page = rows.slice(0, limit);
  return {
    runs: page.map((run) => runView(run, resultsOf(deps.db, run.id), false)),
    next_cursor: rows.length > limit ? String(page[page.length - 1]!.seq) : null,
  };
}
