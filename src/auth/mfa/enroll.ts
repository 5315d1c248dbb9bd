// MFA enrollment: setup stores a pending secret; confirm promotes it with the first valid code and
// returns the recovery codes once (part 3 of the interface). Both are conditional statements on the
// asynchronous store: a concurrent setup or confirm changes nothing and loses.
import { NotFound } from '../../errors.ts';
import type { AccountDeps, ClientInfo } from '../account/account-deps.ts';
import { writeAudit } from '../audit.ts';
import { getUser } from '../directory.ts';
import { InteractiveSessionRequired, MfaAlreadyEnabled, MfaSetupNotStarted, SecondFactorRejected } from '../errors.ts';
import type { Principal } from '../principal.ts';
import { startSession, type StartedSession } from '../credentials/sessions.ts';
import { newRecoveryCodes, recoveryCodeWrites } from './recovery-codes.ts';
import { newTotpSecret, totpStep, totpUri } from './totp.ts';
import type { Query } from '../../store/index.ts';
import type { SingleUseStore } from '../single-use-tables.ts';

/** Starts (or restarts) enrollment: a new pending secret and its provisioning URI. Refused when MFA is on. */
export async function setupMfa(deps: AccountDeps, principal: Principal): Promise<{ provisioning_uri: string; secret: string }> {
  assertInteractive(principal);
  const user = await getUser(deps.store, principal.userId);
  if (!user) throw new NotFound();
  if (user.totp_enabled_at) throw new MfaAlreadyEnabled();
  const secret = newTotpSecret();
  const { store } = deps;
  const { changes } = await store.run(
    store.db.updateTable('users').set({ totp_pending_secret: deps.secretBox.seal(secret) }).where('id', '=', user.id).where('totp_enabled_at', 'is', null),
  );
  if (changes !== 1) throw new MfaAlreadyEnabled();
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
  const user = await getUser(deps.store, principal.userId);
  if (!user) throw new NotFound();
  if (user.totp_enabled_at) throw new MfaAlreadyEnabled();
  if (!user.totp_pending_secret) throw new MfaSetupNotStarted();
  const step = totpStep(deps.secretBox.open(user.totp_pending_secret), code.trim(), deps.clock);
  if (step === undefined) throw new SecondFactorRejected('code');
  const { codes: recoveryCodes, hashes } = await newRecoveryCodes(deps.bcryptCost);
  const now = deps.clock.now();
  const promote = promotePendingSecret(deps.store, user.id, user.totp_pending_secret, step, now);
  // MFA goes on together with its recovery codes, or not at all.
  const done = await deps.store.batch([promote, ...recoveryCodeWrites(deps.store, user.id, hashes, now)], { require: [0] });
  if (!done.ok) throw new SecondFactorRejected('code');
  await writeAudit(deps, { action: 'mfa_enabled', userId: user.id, orgId: principal.orgId, ip: client?.ip });
  if (principal.credential !== 'enrollment') return { recoveryCodes };
  await writeAudit(deps, { action: 'sign_in', userId: user.id, orgId: principal.orgId, ip: client?.ip, data: { factor: 'enrollment', mfa: true } });
  return { recoveryCodes, session: startSession(deps, user, principal.orgId) };
}

/**
 * The statement enabling MFA with exactly the pending secret that was checked (its code was valid at
 * `step`); it changes nothing when a concurrent confirm won or a new setup replaced the secret.
 */
export function promotePendingSecret(store: SingleUseStore, userId: string, pendingSealed: string, step: number, now: number): Query {
  return store.db
    .updateTable('users')
    .set((eb) => ({ totp_secret: eb.ref('totp_pending_secret'), totp_pending_secret: null, totp_enabled_at: now, totp_last_step: step }))
    .where('id', '=', userId)
    .where('totp_pending_secret', '=', pendingSealed)
    .where('totp_enabled_at', 'is', null);
}

/** Throws unless the caller holds a session or an enrollment token. */
export function assertInteractive(principal: Principal): void {
  if (principal.credential !== 'session' && principal.credential !== 'enrollment') throw new InteractiveSessionRequired();
}
