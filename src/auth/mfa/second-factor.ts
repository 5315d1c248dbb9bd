import type { AccountDeps } from '../account/account-deps.ts';
import { getUser, type UserRow } from '../directory.ts';
import { consumeRecoveryCode } from './recovery-codes.ts';
import { consumeTotp } from './totp.ts';
import type { Query } from '../../store/index.ts';
import { invalidateSessionsQueries } from '../credentials/invalidate-sessions.ts';
import { revokeAccessQueries, revokedAccess } from '../credentials/revoke-access.ts';
import type { AuthStore } from '../single-use-tables.ts';
import { auditEntryQuery, type AuditEntry } from '../audit-log/write-audit.ts';

/** Spends a TOTP code (six digits) or a recovery code of a user with MFA enabled; false if neither is valid and unused. */
export async function consumeSecondFactor(deps: AccountDeps, user: UserRow, code: string): Promise<boolean> {
  const fresh = await getUser(deps.store, user.id);
  if (!fresh?.totp_enabled_at) return false;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) return consumeTotp(deps, fresh, trimmed);
  return consumeRecoveryCode(deps, fresh.id, trimmed);
}

/** The statements wiping every MFA field and recovery code of a user (for a batch). */
export function wipeMfaQueries(x: AuthStore, userId: string): Query[] {
  return [
    x.db.updateTable('users').set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null }).where('id', '=', userId),
    x.db.deleteFrom('mfa_recovery_codes').where('user_id', '=', userId),
  ];
}

/**
 * Wipes every MFA field and recovery code of a user, with `endSessions` ends their sessions too, and
 * writes the `audit` entry, in one batch.
 */
export async function wipeMfa(deps: Pick<AccountDeps, 'store' | 'clock'>, userId: string, { endSessions = false, audit }: { endSessions?: boolean; audit?: AuditEntry } = {}): Promise<void> {
  const x = deps.store;
  const now = deps.clock.now();
  await x.batch([...wipeMfaQueries(x, userId), ...(endSessions ? invalidateSessionsQueries(userId, now) : []), ...(audit ? [auditEntryQuery(x, audit, now)] : [])]);
}

/** What an MFA reset or recovery ended besides MFA (said in its answer and its audit entry). */
export interface AccessCleared {
  sessions_ended: true;
  access_tokens_cleared: true;
  /** API, CLI and MCP tokens revoked. */
  tokens_revoked: number;
  /** OAuth grants (connected MCP clients) deleted with their tokens. */
  oauth_grants_revoked: number;
}

/** Said in the audit entry of an MFA reset or recovery. */
export const ACCESS_CLEARED_AUDIT = { sessions_ended: true, access_tokens_cleared: true } as const;

/**
 * The statements of an MFA reset (for a batch; `resetMfaCount` reads what they did): MFA wiped, every
 * session ended (token_version bumped), every API, CLI and MCP token revoked and every OAuth grant
 * deleted, as the interface's "access tokens cleared" says: a thief holding any of them is out too.
 */
export function resetMfaQueries(x: AuthStore, userId: string, now: number): Query[] {
  return [...wipeMfaQueries(x, userId), ...invalidateSessionsQueries(userId, now), ...revokeAccessQueries(x, { userId, now })];
}

/** Where revokeAccessQueries begin within resetMfaQueries: after the wipe (2) and the session statements (2). */
const REVOKE_OFFSET = 4;

/** What the resetMfaQueries placed at `first` in a batch cleared. */
export function resetMfaCount(results: { rows: unknown[]; changes: number }[], first: number): AccessCleared {
  const { tokens, grants } = revokedAccess(results, first + REVOKE_OFFSET);
  return { ...ACCESS_CLEARED_AUDIT, tokens_revoked: tokens, oauth_grants_revoked: grants };
}
