import type { Clock } from '../clock.ts';
import { newId } from '../security/index.ts';
import type { Db } from '../store/index.ts';

export interface AuditEntry {
  action: string;
  userId?: string | null;
  orgId?: string | null;
  /** Who did it, when not the user themselves (an admin). */
  actorId?: string | null;
  data?: Record<string, unknown>;
  /** What was acted on, when not the user: a provider, a connection, a token... */
  target?: { type: string; id: string } | undefined;
  /** The client address of the request. */
  ip?: string | undefined;
  /** Default success; failures (a wrong password, a refused change) are audited too. */
  outcome?: 'success' | 'failure';
}

/** Appends one entry to the security audit log. */
export function writeAudit(deps: { db: Db; clock: Clock }, e: AuditEntry): void {
  deps.db.prepare(
    'INSERT INTO audit_log (id, org_id, user_id, actor_id, action, data, created_at, target_type, target_id, ip, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(
    newId(),
    e.orgId ?? null,
    e.userId ?? null,
    e.actorId ?? e.userId ?? null,
    e.action,
    JSON.stringify(e.data ?? {}),
    deps.clock.now(),
    e.target?.type ?? (e.userId ? 'user' : null),
    e.target?.id ?? e.userId ?? null,
    e.ip ?? null,
    e.outcome ?? 'success',
  );
}

/** Audit entries of a user, oldest first. */
export function auditOf(db: Db, userId: string): { action: string; actor_id: string | null; data: string; created_at: number }[] {
  return db.prepare('SELECT action, actor_id, data, created_at FROM audit_log WHERE user_id = ? ORDER BY created_at, rowid').all(userId) as {
    action: string;
    actor_id: string | null;
    data: string;
    created_at: number;
  }[];
}
