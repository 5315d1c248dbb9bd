import { statement, type Db } from '../../store/index.ts';

/** Evaluation questions not yet answered, across every run: the evaluation queue's depth, for metrics. */
export function countPendingQuestions(db: Db): number {
  return (statement(db, `SELECT count(*) AS n FROM evaluation_results WHERE result = 'pending'`).get() as { n: number }).n;
}
