// Regrading a finished run after expected answers were corrected: the definition is read again where
// the caller works, each question of the run that it still has takes its expected answer, type and
// tolerance from it, and the stored replies are scored again. Nothing is asked again. The new scores
// and the regrade mark are written in one batch (replies of a finished run no longer change, so the
// scores read before it stay right); the mark requires the run not to be running.
import type { Principal } from '../auth/index.ts';
import type { SuiteQuestion } from '../shared/evaluation-suite.ts';
import type { EvaluationDeps } from './deps.ts';
import { RunNotFinished } from './errors.ts';
import { ownRun } from './read-runs.ts';
import { runView, type RunView } from './run-view.ts';
import { grade, type StoredReply } from './scoring/grade.ts';
import { rescoreResultQuery, resultsOf } from './store/results-store.ts';
import { findRun, markRegradedQuery, questionsOf } from './store/runs-store.ts';

// Outcomes that say nothing about the replies: regrading keeps them.
const KEPT = new Set(['timeout', 'cancelled', 'access_lost']);

export async function regradeRun(deps: EvaluationDeps, p: Principal, id: string, environmentId: string | undefined): Promise<RunView> {
  const { store } = deps;
  const run = await ownRun(deps, p, id);
  if (run.status === 'running') throw new RunNotFinished();
  const { definition, commit } = await deps.ports.knowledge.definition(p, environmentId, run.evaluation_id);
  const corrected = new Map(definition.questions.map((q) => [q.id, q]));
  const questions: SuiteQuestion[] = questionsOf(run).map((q) => {
    const c = corrected.get(q.id);
    return c ? { ...q, expected_answer: c.expected_answer, answer_type: c.answer_type, tolerance_pct: c.tolerance_pct } : q;
  });
  const byId = new Map(questions.map((q) => [q.id, q]));
  const rescores = (await resultsOf(store, run.id))
    .filter((r) => r.result !== 'pending' && !(r.error && KEPT.has(r.error)))
    .map((r) => rescoreResultQuery(store.db, run.id, r.question_id, grade(byId.get(r.question_id)!, JSON.parse(r.replies) as StoredReply[])));
  const marked = await store.batch([...rescores, markRegradedQuery(store.db, run.id, questions, commit, deps.clock.now())], { require: [rescores.length] });
  if (!marked.ok) throw new RunNotFinished();
  return runView((await findRun(store, p.orgId, run.id))!, await resultsOf(store, run.id));
}
