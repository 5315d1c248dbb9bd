import type { Clock } from '../clock.ts';
import { appendAudit, type AuditEntry } from './audit-log/write-audit.ts';
export { markAudited, wasAudited } from './audit-log/write-audit.ts';
import type { Executor } from '../store/index.ts';

export type { AuditEntry };

/** Appends one entry to the security audit log, on its own (a change and its entry together: `auditEntryQuery` in a batch). */
export function writeAudit(deps: { store: Executor; clock: Clock }, e: AuditEntry): Promise<void> {
  return appendAudit(deps.store, deps.clock, e);
}
