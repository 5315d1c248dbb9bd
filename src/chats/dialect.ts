// Which dialect an executor speaks. The chats' statements are written once, but full-text search
// (FTS5 or tsvector) and JSON aggregation are spelled per dialect.
import { PostgresAdapter } from 'kysely';
import type { Executor } from '../store/index.ts';

/** True when the executor runs on PostgreSQL. */
export function onPostgres(x: Executor): boolean {
  return x.db.getExecutor().adapter instanceof PostgresAdapter;
}
