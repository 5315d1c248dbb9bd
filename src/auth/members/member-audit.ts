import { AppError } from '../../errors.ts';
import type { ClientInfo } from '../account/account-deps.ts';
import { writeAudit, type AuditEntry } from '../audit.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';

/** Where the request came from: its client address goes on every audit entry. */
export type RequestClient = Pick<ClientInfo, 'ip'>;

export type AdminAct = Pick<AuditEntry, 'action' | 'userId' | 'target' | 'data' | 'outcome'>;

/** Writes one audit entry of an admin's action on their organization, with the client address. */
export function auditAdmin(deps: Pick<MembersDeps, 'db' | 'clock'>, admin: Principal, client: RequestClient, act: AdminAct): void {
  writeAudit(deps, { ...act, orgId: admin.orgId, actorId: admin.userId, ip: client.ip });
}

/**
 * A domain rule said no (409 LAST_ADMIN, a taken domain, a workspace-only refusal): worth an entry.
 * Unknown ids (404) and malformed input (422) are not attempts on anything.
 */
export function isRefusal(err: unknown): err is AppError {
  return err instanceof AppError && (err.kind === 'conflict' || err.kind === 'forbidden' || err.kind === 'bad_request');
}

/**
 * Runs an admin action and audits a refusal as a failure with its error code, then rethrows it. The
 * entry is written after the action's transaction rolled back, so it stays.
 */
export function auditRefusals<T>(deps: Pick<MembersDeps, 'db' | 'clock'>, admin: Principal, client: RequestClient, act: AdminAct, run: () => T): T {
  const refused = (err: unknown): never => {
    if (isRefusal(err)) auditAdmin(deps, admin, client, { ...act, outcome: 'failure', data: { ...act.data, error: err.code } });
    throw err;
  };
  try {
    const result = run();
    return (result instanceof Promise ? result.catch(refused) : result) as T;
  } catch (err) {
    return refused(err);
  }
}
