import type { AccountDeps } from '../account/account-deps.ts';
import { getUser, type UserRow } from '../directory.ts';
import { consumeRecoveryCode } from './recovery-codes.ts';
import { consumeTotp } from './totp.ts';
import type { Query } from '../../store/index.ts';
import { invalidateSessionsQueries } from '../credentials/invalidate-sessions.ts';
import type { AuthStore } from '../single-use-tables.ts';

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

/** Wipes every MFA field and recovery code of a user, and with `endSessions` ends their sessions too, in one batch. */
export async function wipeMfa(deps: Pick<AccountDeps, 'store' | 'clock'>, userId: string, { endSessions = false } = {}): Promise<void> {
  const x = deps.store;
  await x.batch([...wipeMfaQueries(x, userId), ...(endSessions ? invalidateSessionsQueries(userId, deps.clock.now()) : [])]);
}
