// How the CLI shows a run: its shape as the API returns it, and one row per question.

export interface QuestionView {
  id: string;
  question: string;
  result: string;
  expected: unknown;
  observed: unknown;
  relative_diff: number | null;
  error: string | null;
  answer: string | null;
}

export interface RunView {
  id: string;
  evaluation_id: string;
  evaluation_name: string;
  status: string;
  finished: boolean;
  verdict: string;
  created_at: string;
  target: { kind: string; environment_id: string | null };
  target_commit: string | null;
  summary: { total: number; pass: number; fail: number; error: number; pending: number };
  questions?: QuestionView[];
}

const MARK: Record<string, string> = { pass: '✔ pass', fail: '✘ fail', error: '! error', pending: '… pending' };

export function questionRows(run: RunView): Record<string, unknown>[] {
  return (run.questions ?? []).map((q) => ({
    result: MARK[q.result] ?? q.result,
    id: q.id,
    expected: q.expected,
    observed: q.observed ?? '',
    diff: q.relative_diff === null ? '' : `${q.relative_diff}%`,
    note: q.error ?? '',
  }));
}
