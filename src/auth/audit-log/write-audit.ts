// Writing audit entries through the asynchronous store: `auditEntryQuery` is the INSERT a domain puts
// in its batch, so the entry commits (or rolls back) with the change it records.
//
// An entry's id is a ULID of its time, monotonic within the process: entries written in the same
// millisecond sort in the order they were written, so (created_at, id) pages the log newest first on
// both dialects (PostgreSQL has no rowid to break ties with).
import { monotonicFactory } from 'ulid';
import type { Clock } from '../../clock.ts';
import type { Executor, Query } from '../../store/index.ts';

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

const auditId = monotonicFactory();

/** The stored row of an entry written at `now`. */
export function auditRow(e: AuditEntry, now: number) {
  return {
    id: auditId(now),
    org_id: e.orgId ?? null,
    user_id: e.userId ?? null,
    actor_id: e.actorId ?? e.userId ?? null,
    action: e.action,
    data: JSON.stringify(e.data ?? {}),
    created_at: now,
    target_type: e.target?.type ?? (e.userId ? 'user' : null),
    target_id: e.target?.id ?? e.userId ?? null,
    ip: e.ip ?? null,
    outcome: e.outcome ?? 'success',
  };
}

/** The INSERT of one entry, for a batch. */
export function auditEntryQuery(x: Executor, e: AuditEntry, now: number): Query {
  return x.db.insertInto('audit_log').values(auditRow(e, now));
}

/** Appends one entry on its own. */
export async function appendAudit(x: Executor, clock: Clock, e: AuditEntry): Promise<void> {
  await x.run(auditEntryQuery(x, e, clock.now()));
}

// Errors whose failure entry is written: the gateway's catch-all for refused administrative requests
// skips them, so a refusal leaves exactly one entry whichever layer wrote it.
const audited = new WeakSet<object>();

/** Records that `err` has its failure entry (written by the operation that refused). */
export function markAudited(err: unknown): void {
  if (typeof err === 'object' && err !== null) audited.add(err);
}

/** Whether a failure entry for `err` was written already. */
export function wasAudited(err: unknown): boolean {
  return typeof err === 'object' && err !== null && audited.has(err);
}
