// Comparing a run with a baseline question by question (matched by id): fixed, regressed, still
// passing, still failing, new, removed, or pending while either side has not ended.
import type { Principal } from '../auth/index.ts';
import type { EvaluationDeps } from './deps.ts';
import { ownRun } from './read-runs.ts';
import { questionViews, runView, type QuestionView, type Verdict } from './run-view.ts';
import { resultsOf } from './store/results-store.ts';
import { questionsOf, type RunRow } from './store/runs-store.ts';

export const CHANGES = ['fixed', 'regressed', 'still_passing', 'still_failing', 'new', 'removed', 'pending'] as const;
export type Change = (typeof CHANGES)[number];

export interface QuestionChange {
  id: string;
  question: string;
  change: Change;
  expected: number | string;
  baseline: { result: string; observed: number | string | null } | null;
  run: { result: string; observed: number | string | null } | null;
}

export interface Comparison {
  run_id: string;
  baseline_id: string;
  run_verdict: Verdict;
  baseline_verdict: Verdict;
  summary: Record<Change, number>;
  questions: QuestionChange[];
}

/** How a question moved from the baseline's result to the run's. */
export function changeOf(before: QuestionView | undefined, after: QuestionView | undefined): Change {
  if (!before) return 'new';
  if (!after) return 'removed';
  if (before.result === 'pending' || after.result === 'pending') return 'pending';
  const was = before.result === 'pass';
  const is = after.result === 'pass';
  return was ? (is ? 'still_passing' : 'regressed') : is ? 'fixed' : 'still_failing';
}

/** Compares two stored runs. */
export async function compareRows(deps: EvaluationDeps, run: RunRow, baseline: RunRow): Promise<Comparison> {
  const [runResults, baselineResults] = await Promise.all([resultsOf(deps.store, run.id), resultsOf(deps.store, baseline.id)]);
  const after = questionViews(questionsOf(run), runResults);
  const before = questionViews(questionsOf(baseline), baselineResults);
  const afterById = new Map(after.map((q) => [q.id, q]));
  const beforeById = new Map(before.map((q) => [q.id, q]));
  const ids = [...after.map((q) => q.id), ...before.filter((q) => !afterById.has(q.id)).map((q) => q.id)];
  const side = (q: QuestionView | undefined) => (q ? { result: q.result, observed: q.observed } : null);
  const questions = ids.map((id): QuestionChange => {
    const a = afterById.get(id);
    const b = beforeById.get(id);
    const q = (a ?? b)!;
    return { id, question: q.question, change: changeOf(b, a), expected: q.expected, baseline: side(b), run: side(a) };
  });
  const summary = Object.fromEntries(CHANGES.map((c) => [c, 0])) as Record<Change, number>;
  for (const q of questions) summary[q.change]++;
  return {
    run_id: run.id,
    baseline_id: baseline.id,
    run_verdict: runView(run, runResults, false).verdict,
    baseline_verdict: runView(baseline, baselineResults, false).verdict,
    summary,
    questions,
  };
}

/** GET /api/evaluation_runs/{id}/compare?baseline=: both runs of the caller's organization. */
export async function compareRuns(deps: EvaluationDeps, p: Principal, runId: string, baselineId: string): Promise<Comparison> {
  return compareRows(deps, await ownRun(deps, p, runId), await ownRun(deps, p, baselineId));
}
