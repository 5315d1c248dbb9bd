// A run as the API shows it: its state, verdict and summary, the commits it used, and per question
// the snapshot, what was observed, the result, the chat of the answer and the SQL it ran.
import type { AnswerValue } from '../shared/answer-value.ts';
import type { SuiteQuestion } from '../shared/evaluation-suite.ts';
import { comparable, expectedOf } from './scoring/score.ts';
import type { StoredReply } from './scoring/grade.ts';
import type { QuestionResult, ResultRow } from './store/results-store.ts';
import { questionsOf, type RunRow, type RunStatus } from './store/runs-store.ts';

export type Verdict = 'pass' | 'fail' | 'error' | 'pending';

export interface RunSummary {
  total: number;
  pass: number;
  fail: number;
  error: number;
  pending: number;
}

export interface QuestionView extends SuiteQuestion {
  /** The expected answer as compared (a fraction for percent and ratio, a day for dates). */
  expected: number | string;
  result: QuestionResult;
  observed: number | string | null;
  observed_source: 'table' | 'text' | null;
  relative_diff: number | null;
  error: string | null;
  /** Chat of the answer (hidden from history, opens with GET /api/c2/{chat_id}). */
  chat_id: string | null;
  sql: string[];
  /** The last reply (the follow-up's when there was one). */
  answer: string | null;
  followed_up: boolean;
  attempts: number;
}

export interface RunView {
  id: string;
  evaluation_id: string;
  evaluation_name: string;
  status: RunStatus;
  finished: boolean;
  verdict: Verdict;
  summary: RunSummary;
  evaluation_commit: string;
  source_environment_id: string | null;
  target: { kind: 'production' | 'environment'; environment_id: string | null };
  target_commit: string | null;
  trigger: string;
  metadata: Record<string, unknown>;
  created_by: string;
  created_at: string;
  finished_at: string | null;
  regraded_at: string | null;
  regrade_commit: string | null;
  warnings: string[];
  questions?: QuestionView[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function summaryOf(results: Pick<ResultRow, 'result'>[]): RunSummary {
  const summary: RunSummary = { total: results.length, pass: 0, fail: 0, error: 0, pending: 0 };
  for (const r of results) summary[r.result]++;
  return summary;
}

/** pending while running; fail when a question failed; error when none failed but one could not be judged; else pass. */
export function verdictOf(status: RunStatus, summary: RunSummary): Verdict {
  if (status === 'running') return 'pending';
  if (summary.fail > 0) return 'fail';
  return summary.error > 0 || summary.pending > 0 ? 'error' : 'pass';
}

/** The API view of a run; `withQuestions` adds the per-question part. */
export function runView(run: RunRow, results: ResultRow[], withQuestions = true): RunView {
  const summary = summaryOf(results);
  const view: RunView = {
    id: run.id,
    evaluation_id: run.evaluation_id,
    evaluation_name: run.evaluation_name,
    status: run.status,
    finished: run.status !== 'running',
    verdict: verdictOf(run.status, summary),
    summary,
    evaluation_commit: run.evaluation_commit,
    source_environment_id: run.source_env_id,
    target: { kind: run.target_kind, environment_id: run.target_env_id },
    target_commit: run.target_commit,
    trigger: run.trigger,
    metadata: JSON.parse(run.metadata) as Record<string, unknown>,
    created_by: run.user_id,
    created_at: iso(run.created_at)!,
    finished_at: iso(run.finished_at),
    regraded_at: iso(run.regraded_at),
    regrade_commit: run.regrade_commit,
    warnings: JSON.parse(run.warnings) as string[],
  };
  if (withQuestions) view.questions = questionViews(questionsOf(run), results);
  return view;
}

/** The snapshot's questions with their results, in the run's order. */
export function questionViews(questions: SuiteQuestion[], results: ResultRow[]): QuestionView[] {
  const byId = new Map(results.map((r) => [r.question_id, r]));
  return questions.flatMap((q) => {
    const r = byId.get(q.id);
    if (!r) return [];
    const observed = r.observed === null ? null : comparable(JSON.parse(r.observed) as AnswerValue, q.answer_type);
    const replies = JSON.parse(r.replies) as StoredReply[];
    return [
      {
        ...q,
        expected: expectedOf(q),
        result: r.result,
        observed,
        observed_source: r.observed_source,
        relative_diff: r.relative_diff,
        error: r.error,
        chat_id: r.chat_id,
        sql: JSON.parse(r.sql) as string[],
        answer: replies.length > 0 ? replies[replies.length - 1]!.text : null,
        followed_up: r.followed_up === 1,
        attempts: r.attempts,
      },
    ];
  });
}
