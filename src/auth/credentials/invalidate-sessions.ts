import type { Clock } from '../../clock.ts';
import { sql } from 'kysely';
import type { Db, Query } from '../../store/index.ts';

/** Ends every live session of a user and invalidates every JWT minted before (token_version + 1). */
export function invalidateSessions(db: Db, clock: Clock, userId: string): void {
  db.prepare('UPDATE users SET token_version = token_version + 1 WHERE id = ?').run(userId);
  db.prepare('UPDATE sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL').run(clock.now(), userId);
}

/** The same two writes as statements for a batch of the asynchronous store. */
export function invalidateSessionsQueries(userId: string, now: number): Query[] {
  return [
    sql`UPDATE users SET token_version = token_version + 1 WHERE id = ${userId}`,
    sql`UPDATE sessions SET ended_at = ${now} WHERE user_id = ${userId} AND ended_at IS NULL`,
  ];
}
