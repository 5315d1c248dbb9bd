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
}

/** Appends one entry to the security audit log. */
export function writeAudit(db: Db, clock: Clock, e: AuditEntry): void {
  db.prepare('INSERT INTO audit_log (id, org_id, user_id, actor_id, action, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
    newId(),
    e.orgId ?? null,
    e.userId ?? null,
    e.actorId ?? e.userId ?? null,
    e.action,
    JSON.stringify(e.data ?? {}),
    clock.now(),
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
