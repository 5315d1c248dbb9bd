// Opening a saved question runs its SQL again, as the viewer: the governed pipeline applies the
// viewer's role, governed sources and row filters, never the owner's. Governance is read at the
// knowledge of today, not at the commit the answer used: a question lives for months, and a row
// filter added or a table withdrawn since must apply to it (the commit stays on the question as
// where it came from).
import type { Principal } from '../auth/index.ts';
import { readableQuestion } from './access.ts';
import type { SavedDeps } from './deps.ts';
import type { QuestionRun } from './schemas.ts';

/** Fresh rows of a question the caller may read, with the time the warehouse was read. */
export async function runQuestion(deps: SavedDeps, p: Principal, id: string, opts: { environmentId: string | undefined; signal?: AbortSignal | undefined }): Promise<QuestionRun> {
  const q = await readableQuestion(deps, p, id);
  const readAt = deps.clock.now();
  const r = await deps.ports.query(p, { environmentId: opts.environmentId, connectionId: q.connection_id, sql: q.sql, signal: opts.signal });
  return { columns: r.columns, rows: r.rows, read_at: new Date(readAt).toISOString(), truncated: r.truncated };
}
