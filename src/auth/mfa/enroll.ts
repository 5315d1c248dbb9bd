// MFA enrollment: setup stores a pending secret; confirm promotes it with the first valid code and
// returns the recovery codes once (part 3 of the interface).
import { NotFound } from '../../errors.ts';
import type { AccountDeps, ClientInfo } from '../account/account-deps.ts';
import { writeAudit } from '../audit.ts';
import { getUser } from '../directory.ts';
import { InteractiveSessionRequired, MfaAlreadyEnabled, MfaSetupNotStarted, SecondFactorRejected } from '../errors.ts';
import type { Principal } from '../principal.ts';
import { startSession, type StartedSession } from '../credentials/sessions.ts';
import { replaceRecoveryCodes } from './recovery-codes.ts';
import { newTotpSecret, totpStep, totpUri } from './totp.ts';

/** Starts (or restarts) enrollment: a new pending secret and its provisioning URI. Refused when MFA is on. */
export function setupMfa(deps: AccountDeps, principal: Principal): { provisioning_uri: string; secret: string } {
  assertInteractive(principal);
  const user = getUser(deps.db, principal.userId);
  if (!user) throw new NotFound();
  if (user.totp_enabled_at) throw new MfaAlreadyEnabled();
  const secret = newTotpSecret();
  const info = deps.db.prepare('UPDATE users SET totp_pending_secret = ? WHERE id = ? AND totp_enabled_at IS NULL').run(deps.secretBox.seal(secret), user.id);
  if (info.changes !== 1) throw new MfaAlreadyEnabled();
  return { provisioning_uri: totpUri(user.email, secret), secret };
}

export interface ConfirmedMfa {
  recoveryCodes: string[];
  /** Minted only when the caller held an enrollment token. */
  session?: StartedSession;
}

/** Activates the pending secret with a valid code; with an enrollment token also starts the session. */
export async function confirmMfa(deps: AccountDeps, principal: Principal, code: string, client?: ClientInfo): Promise<ConfirmedMfa> {
  assertInteractive(principal);
  const user = getUser(deps.db, principal.userId);
  if (!user) throw new NotFound();
  if (user.totp_enabled_at) throw new MfaAlreadyEnabled();
  if (!user.totp_pending_secret) throw new MfaSetupNotStarted();
  const step = totpStep(deps.secretBox.open(user.totp_pending_secret), code.trim(), deps.clock);
  if (step === undefined) throw new SecondFactorRejected('code');
  // Promote exactly the secret that was checked; a concurrent confirm or a new setup loses here.
  const info = deps.db
    .prepare(
      `UPDATE users SET totp_secret = totp_pending_secret, totp_pending_secret = NULL, totp_enabled_at = ?, totp_last_step = ?
       WHERE id = ? AND totp_pending_secret = ? AND totp_enabled_at IS NULL`,
    )
    .run(deps.clock.now(), step, user.id, user.totp_pending_secret);
  if (info.changes !== 1) throw new SecondFactorRejected('code');
  const recoveryCodes = await replaceRecoveryCodes(deps, user.id);
  writeAudit(deps, { action: 'mfa_enabled', userId: user.id, orgId: principal.orgId, ip: client?.ip });
  if (principal.credential !== 'enrollment') return { recoveryCodes };
  writeAudit(deps, { action: 'sign_in', userId: user.id, orgId: principal.orgId, ip: client?.ip, data: { factor: 'enrollment', mfa: true } });
  return { recoveryCodes, session: startSession(deps, user, principal.orgId) };
}

/** Throws unless the caller holds a session or an enrollment token. */
export function assertInteractive(principal: Principal): void {
  if (principal.credential !== 'session' && principal.credential !== 'enrollment') throw new InteractiveSessionRequired();
}
