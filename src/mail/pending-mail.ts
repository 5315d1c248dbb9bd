import { statement, type Db } from '../store/index.ts';

/** Messages waiting for delivery (first attempt or a retry): the mail queue's depth, for metrics. */
export function pendingMailCount(db: Db): number {
  return (statement(db, 'SELECT count(*) AS n FROM outbox WHERE next_attempt_at IS NOT NULL').get() as { n: number }).n;
}
