// Admins read their organization's audit log: filters on actor (id or email), action, target, outcome
// and time, newest first, in keyset pages on (created_at, id); the export reads the same rows in
// batches so that memory holds one batch whatever the size of the log. Another organization's entries
// are never selected. The same statements run on SQLite and PostgreSQL.
import { sql, type RawBuilder } from 'kysely';
import { InvalidCursor } from '../../errors.ts';
import { asciiLower, type Executor } from '../../store/index.ts';
import type { Principal } from '../principal.ts';

export interface AuditFilter {
  actorId?: string | undefined;
  /** The actor by email, in any ASCII case: a member since removed has their entries found by it too. */
  actorEmail?: string | undefined;
  action?: string | undefined;
  targetId?: string | undefined;
  outcome?: 'success' | 'failure' | undefined;
  /** Inclusive lower bound, ms since the epoch. */
  from?: number | undefined;
  /** Exclusive upper bound, ms since the epoch. */
  to?: number | undefined;
}

export interface AuditView {
  id: string;
  time: string;
  action: string;
  outcome: string;
  actor_id: string | null;
  actor_email: string | null;
  user_id: string | null;
  target_type: string | null;
  target_id: string | null;
  ip: string | null;
  data: Record<string, unknown>;
}

/** A row as stored: the time in epoch milliseconds, the data as JSON text. */
interface Raw extends Omit<AuditView, 'time' | 'data'> {
  created_at: number;
  data: string;
}

/** Where a page starts: after the entry with this time and id. */
type After = [createdAt: number, id: string];

export const AUDIT_COLUMNS: (keyof AuditView)[] = ['id', 'time', 'action', 'outcome', 'actor_id', 'actor_email', 'user_id', 'target_type', 'target_id', 'ip', 'data'];
const EXPORT_BATCH = 500;

/** One page of entries, newest first, and the cursor of the next page (null at the end). */
export async function listAudit({ x }: { x: Executor }, admin: Principal, filter: AuditFilter, page: { cursor?: string | undefined; limit: number }): Promise<{ entries: AuditView[]; next_cursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  const rows = await selectPage(x, admin.orgId, filter, after, page.limit + 1);
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return { entries: shown.map(view), next_cursor: more && last ? encodeCursor(last) : null };
}

/** Every matching entry, newest first, read in batches (no open statement between batches). */
export async function* exportAudit({ x }: { x: Executor }, admin: Principal, filter: AuditFilter): AsyncGenerator<AuditView> {
  let after: After | undefined;
  for (;;) {
    const rows = await selectPage(x, admin.orgId, filter, after, EXPORT_BATCH);
    for (const r of rows) yield view(r);
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH || !last) return;
    after = [last.created_at, last.id];
    // Let the response drain and other requests run between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function conditions(x: Executor, orgId: string, f: AuditFilter, after: After | undefined): RawBuilder<unknown> {
  const where = [sql`a.org_id = ${orgId}`];
  if (f.actorId !== undefined) where.push(sql`a.actor_id = ${f.actorId}`);
  if (f.actorEmail !== undefined) where.push(sql`a.actor_id IN (SELECT e.id FROM users e WHERE ${asciiLower(x, sql.ref('e.email'))} = ${asciiLower(x, sql.val(f.actorEmail))})`);
  if (f.action !== undefined) where.push(sql`a.action = ${f.action}`);
  if (f.targetId !== undefined) where.push(sql`a.target_id = ${f.targetId}`);
  if (f.outcome !== undefined) where.push(sql`a.outcome = ${f.outcome}`);
  if (f.from !== undefined) where.push(sql`a.created_at >= ${f.from}`);
  if (f.to !== undefined) where.push(sql`a.created_at < ${f.to}`);
  if (after) where.push(sql`(a.created_at < ${after[0]} OR (a.created_at = ${after[0]} AND a.id < ${after[1]}))`);
  return sql.join(where, sql` AND `);
}

function selectPage(x: Executor, orgId: string, f: AuditFilter, after: After | undefined, limit: number): Promise<Raw[]> {
  return x.all(
    sql<Raw>`SELECT a.id, a.created_at, a.action, a.outcome, a.actor_id, u.email AS actor_email, a.user_id, a.target_type, a.target_id, a.ip, a.data
      FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
      WHERE ${conditions(x, orgId, f, after)} ORDER BY a.created_at DESC, a.id DESC LIMIT ${limit}`,
  );
}

function view(r: Raw): AuditView {
  return {
    id: r.id,
    time: new Date(r.created_at).toISOString(),
    action: r.action,
    outcome: r.outcome,
    actor_id: r.actor_id,
    actor_email: r.actor_email,
    user_id: r.user_id,
    target_type: r.target_type,
    target_id: r.target_id,
    ip: r.ip,
    data: JSON.parse(r.data) as Record<string, unknown>,
  };
}

function encodeCursor(r: Raw): string {
  return Buffer.from(JSON.stringify([r.created_at, r.id])).toString('base64url');
}

function decodeCursor(cursor: string): After {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && v[0] >= 0 && typeof v[1] === 'string' && v[1].length <= 64) return [v[0] as number, v[1]];
  } catch {
    // Falls through to the validation error.
  }
  throw new InvalidCursor();
}
