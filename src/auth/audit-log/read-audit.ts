// Admins read their organization's audit log: filters on actor, action, target, outcome and time,
// newest first, in keyset pages; the export reads the same rows in batches so that memory holds one
// batch whatever the size of the log. Another organization's entries are never selected.
import { ValidationFailed } from '../../errors.ts';
import type { Db } from '../../store/index.ts';
import type { Principal } from '../principal.ts';

export interface AuditFilter {
  actorId?: string | undefined;
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

/** A row as stored: the time in epoch milliseconds, the data as JSON text, the rowid for paging. */
interface Raw extends Omit<AuditView, 'time' | 'data'> {
  rowid: number;
  created_at: number;
  data: string;
}

export const AUDIT_COLUMNS: (keyof AuditView)[] = ['id', 'time', 'action', 'outcome', 'actor_id', 'actor_email', 'user_id', 'target_type', 'target_id', 'ip', 'data'];
const EXPORT_BATCH = 500;

/** One page of entries, newest first, and the cursor of the next page (null at the end). */
export function listAudit({ db }: { db: Db }, admin: Principal, filter: AuditFilter, page: { cursor?: string | undefined; limit: number }): { entries: AuditView[]; next_cursor: string | null } {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  const rows = selectPage(db, admin.orgId, filter, after, page.limit + 1);
  const more = rows.length > page.limit;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return { entries: shown.map(view), next_cursor: more && last ? encodeCursor(last) : null };
}

/** Every matching entry, newest first, read in batches (no open statement between batches). */
export async function* exportAudit({ db }: { db: Db }, admin: Principal, filter: AuditFilter): AsyncGenerator<AuditView> {
  let after: [number, number] | undefined;
  for (;;) {
    const rows = selectPage(db, admin.orgId, filter, after, EXPORT_BATCH);
    for (const r of rows) yield view(r);
    const last = rows.at(-1);
    if (rows.length < EXPORT_BATCH || !last) return;
    after = [last.created_at, last.rowid];
    // Let the response drain and other requests run between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function selectPage(db: Db, orgId: string, f: AuditFilter, after: [number, number] | undefined, limit: number): Raw[] {
  const where = ['a.org_id = ?'];
  const params: unknown[] = [orgId];
  const add = (sql: string, value: unknown) => {
    where.push(sql);
    params.push(value);
  };
  if (f.actorId !== undefined) add('a.actor_id = ?', f.actorId);
  if (f.action !== undefined) add('a.action = ?', f.action);
  if (f.targetId !== undefined) add('a.target_id = ?', f.targetId);
  if (f.outcome !== undefined) add('a.outcome = ?', f.outcome);
  if (f.from !== undefined) add('a.created_at >= ?', f.from);
  if (f.to !== undefined) add('a.created_at < ?', f.to);
  if (after) {
    where.push('(a.created_at < ? OR (a.created_at = ? AND a.rowid < ?))');
    params.push(after[0], after[0], after[1]);
  }
  return db
    .prepare(
      `SELECT a.rowid, a.id, a.created_at, a.action, a.outcome, a.actor_id, u.email AS actor_email, a.user_id, a.target_type, a.target_id, a.ip, a.data
       FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
       WHERE ${where.join(' AND ')} ORDER BY a.created_at DESC, a.rowid DESC LIMIT ?`,
    )
    .all(...params, limit) as Raw[];
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
  return Buffer.from(`${r.created_at}.${r.rowid}`).toString('base64url');
}

function decodeCursor(cursor: string): [number, number] {
  const m = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new ValidationFailed([{ loc: ['query', 'cursor'], msg: 'Invalid cursor', type: 'value_error' }]);
  return [Number(m[1]), Number(m[2])];
}
