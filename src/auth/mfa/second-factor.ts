import type { AccountDeps } from '../account/account-deps.ts';
import { getUser, type UserRow } from '../directory.ts';
import { consumeRecoveryCode } from './recovery-codes.ts';
import { consumeTotp } from './totp.ts';
import { transact } from '../../store/index.ts';

/** Spends a TOTP code (six digits) or a recovery code of a user with MFA enabled; false if neither is valid and unused. */
export async function consumeSecondFactor(deps: AccountDeps, user: UserRow, code: string): Promise<boolean> {
  const fresh = getUser(deps.db, user.id);
  if (!fresh?.totp_enabled_at) return false;
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) return consumeTotp(deps, fresh, trimmed);
  return consumeRecoveryCode(deps, fresh.id, trimmed);
}

/** Wipes every MFA field and recovery code of a user. */
export function wipeMfa(deps: Pick<AccountDeps, 'db'>, userId: string): void {
  transact(deps.db, () => {
    deps.db.prepare('UPDATE users SET totp_secret = NULL, totp_pending_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL WHERE id = ?').run(userId);
    deps.db.prepare('DELETE FROM mfa_recovery_codes WHERE user_id = ?').run(userId);
  });
}
