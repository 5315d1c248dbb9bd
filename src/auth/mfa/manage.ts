// MFA with a live session: status, disable, regenerate recovery codes, and the admin reset.
import { NotFound } from '../../errors.ts';
import { verifyPassword } from '../../security/index.ts';
import type { AccountDeps, ClientInfo } from '../account/account-deps.ts';
import { getMembership, getOrganization, getUser, type UserRow } from '../directory.ts';
import { fieldRequired, MfaNotEnabled, SecondFactorRejected } from '../errors.ts';
import type { Principal } from '../principal.ts';
import { throttledAttempt } from '../credentials/throttled-attempt.ts';
import { assertInteractive } from './enroll.ts';
import { remainingRecoveryCodes, replaceRecoveryCodes } from './recovery-codes.ts';
import { auditEntryQuery } from '../audit-log/write-audit.ts';
import { ACCESS_CLEARED_AUDIT, consumeSecondFactor, resetMfaCount, resetMfaQueries, wipeMfa, type AccessCleared } from './second-factor.ts';

export interface MfaStatus {
  enabled: boolean;
  pending: boolean;
  enforced: boolean;
  recovery_codes_remaining: number;
  has_password: boolean;
}

/** The caller's MFA state. */
export async function mfaStatus(deps: AccountDeps, principal: Principal): Promise<MfaStatus> {
  const user = await mustUser(deps, principal.userId);
  return {
    enabled: user.totp_enabled_at !== null,
    pending: user.totp_pending_secret !== null,
    enforced: (await getOrganization(deps.store, principal.baseOrgId))?.mfa_enforced === 1,
    recovery_codes_remaining: user.totp_enabled_at ? await remainingRecoveryCodes(deps.store, user.id) : 0,
    has_password: user.password_hash !== null,
  };
}

/** Checks a code (TOTP or recovery) plus the password when the user has one; SSO-only users need only the code. */
async function proveFactors(deps: AccountDeps, user: UserRow, input: { code: string; password?: string | undefined }, client: ClientInfo): Promise<void> {
  if (!user.totp_enabled_at) throw new MfaNotEnabled();
  if (user.password_hash && !input.password) throw fieldRequired('password', 'Password required for accounts with a password');
  await throttledAttempt(deps, user.id, client, async () => {
    if (user.password_hash && !(await verifyPassword(input.password ?? '', user.password_hash))) throw new SecondFactorRejected('password');
    if (!(await consumeSecondFactor(deps, user, input.code))) throw new SecondFactorRejected('code');
  });
}

/** Turns MFA off after proving the factors. */
export async function disableMfa(deps: AccountDeps, principal: Principal, input: { code: string; password?: string | undefined }, client: ClientInfo): Promise<void> {
  assertInteractive(principal);
  const user = await mustUser(deps, principal.userId);
  await proveFactors(deps, user, input, client);
  await wipeMfa(deps, user.id, { audit: { action: 'mfa_disabled', userId: user.id, orgId: principal.orgId, ip: client.ip } });
}

/** Replaces the recovery codes after proving the factors; returns the new set once. */
export async function regenerateRecoveryCodes(deps: AccountDeps, principal: Principal, input: { code: string; password?: string | undefined }, client: ClientInfo): Promise<string[]> {
  assertInteractive(principal);
  const user = await mustUser(deps, principal.userId);
  await proveFactors(deps, user, input, client);
  return replaceRecoveryCodes(deps, user.id, { action: 'mfa_recovery_codes_regenerated', userId: user.id, orgId: principal.orgId, ip: client.ip });
}

/**
 * An admin removes a member's MFA, ends their sessions and clears their access tokens (API, CLI, MCP,
 * OAuth grants) in one batch; 404 when the target is not in the admin's organization.
 */
export async function adminResetMfa(deps: AccountDeps, admin: Principal, targetUserId: string, client?: ClientInfo): Promise<AccessCleared> {
  const target = await getUser(deps.store, targetUserId);
  if (!target || !(await getMembership(deps.store, target.id, admin.orgId))) throw new NotFound('User not found', 'USER_NOT_FOUND');
  const now = deps.clock.now();
  const audit = { action: 'mfa_admin_reset', userId: target.id, orgId: admin.orgId, actorId: admin.userId, ip: client?.ip, data: ACCESS_CLEARED_AUDIT };
  const done = await deps.store.batch([...resetMfaQueries(deps.store, target.id, now), auditEntryQuery(deps.store, audit, now)]);
  return resetMfaCount(done.ok ? done.results : [], 0);
}

async function mustUser(deps: AccountDeps, id: string): Promise<UserRow> {
  const user = await getUser(deps.store, id);
  if (!user) throw new NotFound();
  return user;
}
