import type { Clock } from '../../clock.ts';
import { sql } from 'kysely';
import type { Db, Query } from '../../store/index.ts';
import type { AuthStore } from '../single-use-tables.ts';

/** Ends every live session of a user and invalidates every JWT minted before (token_version + 1). */
export function invalidateSessions(db: Db, clock: Clock, userId: string): void {
  db.prepare('UPDATE users SET token_version = token_version + 1 WHERE id = ?').run(userId);
  db.prepare('UPDATE sessions SET ended_at = ? WHERE user_id = ? AND ended_at IS NULL').run(clock.now(), userId);
}

/** The same two statements for a batch on the asynchronous store (the request path keeps the one above). */
export function invalidateSessionsQueries(x: AuthStore, clock: Clock, userId: string): Query[] {
  return [
    x.db.updateTable('users').set({ token_version: sql`token_version + 1` }).where('id', '=', userId),
    x.db.updateTable('sessions').set({ ended_at: clock.now() }).where('user_id', '=', userId).where('ended_at', 'is', null),
  ];
}
