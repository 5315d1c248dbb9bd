import { AppError } from '../../errors.ts';
import type { Query } from '../../store/index.ts';
import type { ClientInfo } from '../account/account-deps.ts';
import { appendAudit, auditEntryQuery, markAudited, type AuditEntry } from '../audit-log/write-audit.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';

/** Where the request came from: its client address goes on every audit entry. */
export type RequestClient = Pick<ClientInfo, 'ip'>;

export type AdminAct = Pick<AuditEntry, 'action' | 'userId' | 'target' | 'data' | 'outcome'>;

const entryOf = (admin: Principal, client: RequestClient, act: AdminAct): AuditEntry => ({ ...act, orgId: admin.orgId, actorId: admin.userId, ip: client.ip });

/** The INSERT of an admin's action on their organization, with the client address, for the action's batch. */
export function adminAuditQuery(deps: Pick<MembersDeps, 'x' | 'clock'>, admin: Principal, client: RequestClient, act: AdminAct): Query {
  return auditEntryQuery(deps.x, entryOf(admin, client, act), deps.clock.now());
}

/** Writes one audit entry of an admin's action on their organization, on its own. */
export function auditAdmin(deps: Pick<MembersDeps, 'x' | 'clock'>, admin: Principal, client: RequestClient, act: AdminAct): Promise<void> {
  return appendAudit(deps.x, deps.clock, entryOf(admin, client, act));
}

/**
 * A domain rule said no (409 LAST_ADMIN, a taken domain, a workspace-only refusal): an entry here,
 * with the action's own data. Other refusals (unknown ids, malformed input, quotas) get theirs from
 * the gateway, which audits every refused request on an administrative route.
 */
export function isRefusal(err: unknown): err is AppError {
  return err instanceof AppError && (err.kind === 'conflict' || err.kind === 'forbidden' || err.kind === 'bad_request');
}

/**
 * Runs an admin action and audits a refusal as a failure with its error code, then rethrows it. The
 * entry is written after the action's batch rolled back, so it stays.
 */
export async function auditRefusals<T>(deps: Pick<MembersDeps, 'x' | 'clock'>, admin: Principal, client: RequestClient, act: AdminAct, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isRefusal(err)) {
      await auditAdmin(deps, admin, client, { ...act, outcome: 'failure', data: { ...act.data, error: err.code } });
      markAudited(err);
    }
    throw err;
  }
}
