// SQL of per-question results (migration 0090). A result is written once, from pending to its end,
// guarded by `result = 'pending'`: a cancel that closed it first wins, and a restart re-asks exactly
// the questions still pending.
import { sql, type Kysely } from 'kysely';
import type { ErrorReason, Outcome, StoredReply } from '../scoring/grade.ts';
import type { EvalStore, EvaluationTables } from './tables.ts';

export type { QuestionResult, ResultRow } from './tables.ts';

type Db = Kysely<EvaluationTables>;

const resultsOfRun = (x: EvalStore, runId: string) => x.db.selectFrom('evaluation_results').selectAll().where('run_id', '=', runId).orderBy('position');

export const resultsOf = (x: EvalStore, runId: string) => x.all(resultsOfRun(x, runId));

export const pendingResults = (x: EvalStore, runId: string) => x.all(resultsOfRun(x, runId).where('result', '=', 'pending'));

/**
 * Starts one more attempt of a pending question in a new chat, `chatPrefix` followed by the attempt
 * number; returns the attempt number, or 0 when no longer pending. One conditional statement: two
 * processes resuming the same run never share an attempt.
 */
export async function startAttempt(x: EvalStore, runId: string, questionId: string, chatPrefix: string, at: number): Promise<number> {
  const row = await x.one(
    x.db
      .updateTable('evaluation_results')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), started_at: at, chat_id: sql<string>`${chatPrefix} || CAST(attempts + 1 AS TEXT)` }))
      .where('run_id', '=', runId)
      .where('question_id', '=', questionId)
      .where('result', '=', 'pending')
      .returning('attempts'),
  );
  return row?.attempts ?? 0;
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
  o.result === 'error'
    ? { result: o.result, observed: null, observed_source: null, relative_diff: null, error: o.error }
    : { result: o.result, observed: JSON.stringify(o.observed), observed_source: o.source, relative_diff: o.relative_diff, error: null };

/** Ends a pending question; false when it was no longer pending. */
export async function finishResult(x: EvalStore, runId: string, questionId: string, w: ResultWrite): Promise<boolean> {
  const written = await x.run(
    x.db
      .updateTable('evaluation_results')
      .set({ ...outcomeColumns(w.outcome), replies: JSON.stringify(w.replies), sql: JSON.stringify(w.sql), followed_up: w.followedUp ? 1 : 0, finished_at: w.at })
      .where('run_id', '=', runId)
      .where('question_id', '=', questionId)
      .where('result', '=', 'pending'),
  );
  return written.changes === 1;
}

/** Replaces a finished question's outcome (regrade: same replies, corrected expectations). */
export const rescoreResultQuery = (db: Db, runId: string, questionId: string, outcome: Outcome) =>
  db.updateTable('evaluation_results').set(outcomeColumns(outcome)).where('run_id', '=', runId).where('question_id', '=', questionId).where('result', '!=', 'pending');

/** Closes every pending question of a run as an error with `reason`. */
export const closePendingQuery = (db: Db, runId: string, reason: ErrorReason, at: number) =>
  db.updateTable('evaluation_results').set({ result: 'error', error: reason, finished_at: at }).where('run_id', '=', runId).where('result', '=', 'pending');

export const closePending = async (x: EvalStore, runId: string, reason: ErrorReason, at: number) => (await x.run(closePendingQuery(x.db, runId, reason, at))).changes;
