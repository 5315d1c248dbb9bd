import { sql } from 'kysely';
import type { Query } from '../../store/index.ts';

/**
 * The statements ending every live session of a user and invalidating every JWT minted before
 * (token_version + 1), for a batch of the asynchronous store.
 */
export function invalidateSessionsQueries(userId: string, now: number): Query[] {
  return [
    sql`UPDATE users SET token_version = token_version + 1 WHERE id = ${userId}`,
    sql`UPDATE sessions SET ended_at = ${now} WHERE user_id = ${userId} AND ended_at IS NULL`,
  ];
}
