import { sql } from 'kysely';
import type { Executor } from '../store/index.ts';

/** Messages waiting for delivery (first attempt, a retry, or claimed by a sender): the mail queue's depth, for metrics. */
export async function pendingMailCount(x: Executor): Promise<number> {
  const row = await x.one(sql<{ n: number }>`SELECT count(*) AS n FROM outbox WHERE next_attempt_at IS NOT NULL`);
  return Number(row?.n ?? 0);
}
