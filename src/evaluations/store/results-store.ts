// SQL of per-question results (migration 0090). A result is written once, from pending to its end,
// guarded by `result = 'pending'`: a cancel that closed it first wins, and a restart re-asks exactly
// the questions still pending.
import { statement, type Db } from '../../store/index.ts';
import type { ErrorReason, Outcome, StoredReply } from '../scoring/grade.ts';

export type QuestionResult = 'pending' | 'pass' | 'fail' | 'error';

export interface ResultRow {
  run_id: string;
  question_id: string;
  position: number;
  result: QuestionResult;
  observed: string | null;
  observed_source: 'table' | 'text' | null;
  relative_diff: number | null;
  error: ErrorReason | null;
  replies: string;
  sql: string;
  chat_id: string | null;
  followed_up: number;
  attempts: number;
  started_at: number | null;
  finished_at: number | null;
}

export function resultsOf(db: Db, runId: string): ResultRow[] {
  return statement(db, 'SELECT * FROM evaluation_results WHERE run_id = ? ORDER BY position').all(runId) as ResultRow[];
}

export function pendingResults(db: Db, runId: string): ResultRow[] {
  return statement(db, `SELECT * FROM evaluation_results WHERE run_id = ? AND result = 'pending' ORDER BY position`).all(runId) as ResultRow[];
}

/** Starts one more attempt of a pending question in a new chat; returns the attempt number, or 0 when no longer pending. */
export function startAttempt(db: Db, runId: string, questionId: string, chatIdOf: (attempt: number) => string, at: number): number {
  // Read and write with nothing awaited between: no other writer can come in (one process, synchronous SQLite).
  const row = statement(db, `SELECT attempts FROM evaluation_results WHERE run_id = ? AND question_id = ? AND result = 'pending'`).get(runId, questionId) as { attempts: number } | undefined;
  if (!row) return 0;
  const attempt = row.attempts + 1;
  statement(db, 'UPDATE evaluation_results SET attempts = ?, started_at = ?, chat_id = ? WHERE run_id = ? AND question_id = ?').run(attempt, at, chatIdOf(attempt), runId, questionId);
  return attempt;
}

/** The evidence and outcome of a question, written over its pending row (or over a finished one when regrading). */
export interface ResultWrite {
  outcome: Outcome;
  replies: StoredReply[];
  sql: string[];
  followedUp: boolean;
  at: number;
}

const outcomeColumns = (o: Outcome) =>
  o.result === 'error' ? [o.result, null, null, null, o.error] : [o.result, JSON.stringify(o.observed), o.source, o.relative_diff, null];

/** Ends a pending question; false when it was no longer pending. */
export function finishResult(db: Db, runId: string, questionId: string, w: ResultWrite): boolean {
  return (
    statement(
      db,
      `UPDATE evaluation_results SET result = ?, observed = ?, observed_source = ?, relative_diff = ?, error = ?, replies = ?, sql = ?, followed_up = ?, finished_at = ?
       WHERE run_id = ? AND question_id = ? AND result = 'pending'`,
    ).run(...outcomeColumns(w.outcome), JSON.stringify(w.replies), JSON.stringify(w.sql), w.followedUp ? 1 : 0, w.at, runId, questionId).changes === 1
  );
}

/** Replaces a finished question's outcome (regrade: same replies, corrected expectations). */
export function rescoreResult(db: Db, runId: string, questionId: string, outcome: Outcome): void {
  statement(db, `UPDATE evaluation_results SET result = ?, observed = ?, observed_source = ?, relative_diff = ?, error = ? WHERE run_id = ? AND question_id = ? AND result != 'pending'`).run(
    ...outcomeColumns(outcome),
    runId,
    questionId,
  );
}

/** Closes every pending question of a run as an error with `reason`. */
export function closePending(db: Db, runId: string, reason: ErrorReason, at: number): number {
  return statement(db, `UPDATE evaluation_results SET result = 'error', error = ?, finished_at = ? WHERE run_id = ? AND result = 'pending'`).run(reason, at, runId).changes;
}
