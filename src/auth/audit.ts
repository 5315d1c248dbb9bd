import type { Clock } from '../clock.ts';
import { auditRow, type AuditEntry } from './audit-log/write-audit.ts';
import type { Db } from '../store/index.ts';

export type { AuditEntry };

/** Appends one entry to the security audit log (the synchronous writers not yet on the executor). */
export function writeAudit(deps: { db: Db; clock: Clock }, e: AuditEntry): void {
  const r = auditRow(e, deps.clock.now());
  deps.db.prepare(
    'INSERT INTO audit_log (id, org_id, user_id, actor_id, action, data, created_at, target_type, target_id, ip, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ).run(r.id, r.org_id, r.user_id, r.actor_id, r.action, r.data, r.created_at, r.target_type, r.target_id, r.ip, r.outcome);
}
