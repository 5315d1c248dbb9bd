// Password sign-in and the hand-over every first factor (password, magic link, SSO) shares: a
// session, or a pending MFA token when MFA is on, or an enrollment token when the organization
// enforces MFA and the user has none.
import { AppError } from '../../errors.ts';
import { dummyPasswordHash, hashPassword, needsRehash, verifyPassword } from '../../security/index.ts';
import type { AccountDeps, ClientInfo } from '../account/account-deps.ts';
import { writeAudit } from '../audit.ts';
import { baseOrgOf, findUserByEmail, getMembership, getOrganization, getUser, type UserRow } from '../directory.ts';
import { EmailNotVerified, InvalidCredentials, InvalidMfaCode, InvalidMfaToken } from '../errors.ts';
import { accessRemoved } from './access-removed.ts';
import { signJwt, verifyJwt } from './jwt.ts';
import { consumeSecondFactor } from '../mfa/second-factor.ts';
import { throttledAttempt } from './throttled-attempt.ts';
import { startSession, type StartedSession } from './sessions.ts';

export type FirstFactor = 'password' | 'magic_link' | 'sso';

export const MFA_PENDING_TTL_SECONDS = 5 * 60;
export const ENROLLMENT_TTL_SECONDS = 15 * 60;

export type SignInResult =
  | { kind: 'session'; session: StartedSession; user: UserRow; orgId: string }
  | { kind: 'mfa_required'; mfaToken: string; expiresIn: number }
  | { kind: 'enrollment_required'; enrollmentToken: string; expiresIn: number };

/** The organization a fresh sign-in acts in: the default workspace if still a member, else the base organization. */
export async function signInOrg(deps: Pick<AccountDeps, 'store'>, user: UserRow): Promise<string> {
  const workspace = user.default_workspace_id ? await getMembership(deps.store, user.id, user.default_workspace_id) : undefined;
  if (workspace && workspace.deactivated_at === null) return workspace.org_id;
  const base = await baseOrgOf(deps.store, user.id);
  if (!base) throw new InvalidCredentials();
  return base.id;
}

/** Continues after a verified first factor; `inOrg` pins the organization (SSO signs into its own); `ip` goes to the audit log. */
export async function completeFirstFactor(deps: AccountDeps, user: UserRow, factor: FirstFactor, inOrg?: string, ip?: string): Promise<SignInResult> {
  const orgId = inOrg ?? (await signInOrg(deps, user));
  const claims = { sub: user.id, org: orgId, tv: user.token_version, amr: factor };
  if (user.totp_enabled_at) {
    return { kind: 'mfa_required', mfaToken: signJwt(deps.jwtKey, deps.clock, 'mfa_pending', claims, MFA_PENDING_TTL_SECONDS), expiresIn: MFA_PENDING_TTL_SECONDS };
  }
  const base = await getOrganization(deps.store, (await getOrganization(deps.store, orgId))?.base_org_id ?? orgId);
  if (base?.mfa_enforced) {
    return { kind: 'enrollment_required', enrollmentToken: signJwt(deps.jwtKey, deps.clock, 'enrollment', claims, ENROLLMENT_TTL_SECONDS), expiresIn: ENROLLMENT_TTL_SECONDS };
  }
  await writeAudit(deps, { action: 'sign_in', userId: user.id, orgId, ip, data: { factor } });
  return { kind: 'session', session: await startSession(deps, user, orgId), user, orgId };
}

/**
 * Checks email and password (same answer and similar time for unknown accounts and wrong passwords),
 * then continues the sign-in; a deactivated account with the right password is told whom to ask.
 */
export async function passwordSignIn(deps: AccountDeps, { email, password }: { email: string; password: string }, client: ClientInfo): Promise<SignInResult> {
  const user = await findUserByEmail(deps.store, email);
  const account = user?.id ?? email.trim().toLowerCase();
  const verified = await auditFailure(deps, user, client, 'password', () =>
    throttledAttempt(deps, account, client, async () => {
      const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash(deps.bcryptCost)));
      if (!user || !user.password_hash || !ok) throw new InvalidCredentials();
      // Only the password's owner learns that an admin removed the access, and whom to ask. Still a
      // failure to the throttle, as before: the lockout rules do not change for deactivated accounts.
      if (user.disabled_at !== null) throw await accessRemoved(deps.store, user.id);
      return user;
    }),
  );
  await rehashIfOld(deps, verified, password);
  if (verified.email_verified_at === null) throw new EmailNotVerified();
  return completeFirstFactor(deps, verified, 'password', undefined, client.ip);
}

/**
 * Stores a hash of the current format when the password verified against an older one. Only if the
 * hash is still the one checked: a password changed meanwhile is never overwritten.
 */
async function rehashIfOld(deps: AccountDeps, user: UserRow, password: string): Promise<void> {
  const old = user.password_hash;
  if (!old || !needsRehash(old, deps.bcryptCost)) return;
  const hash = await hashPassword(password, deps.bcryptCost);
  await deps.store.run(deps.store.db.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).where('password_hash', '=', old));
}

/** The user behind a live pending-MFA token, or InvalidMfaToken. */
export async function userOfMfaToken(deps: AccountDeps, mfaToken: string): Promise<{ user: UserRow; orgId: string; factor: FirstFactor }> {
  const claims = verifyJwt(deps.jwtKey, deps.clock, 'mfa_pending', mfaToken);
  const user = claims && (await getUser(deps.store, claims.sub));
  if (!claims || !user || user.token_version !== claims.tv || user.disabled_at !== null) throw new InvalidMfaToken();
  return { user, orgId: claims.org, factor: (claims['amr'] as FirstFactor | undefined) ?? 'password' };
}

/** The second sign-in step: a pending MFA token plus a TOTP or recovery code gives a session. */
export async function mfaSignIn(deps: AccountDeps, { mfaToken, code }: { mfaToken: string; code: string }, client: ClientInfo): Promise<StartedSession & { user: UserRow; orgId: string }> {
  const { user, orgId, factor } = await userOfMfaToken(deps, mfaToken);
  return auditFailure(deps, user, client, 'mfa', () =>
    throttledAttempt(deps, user.id, client, async () => {
      if (!(await consumeSecondFactor(deps, user, code))) throw new InvalidMfaCode();
      await writeAudit(deps, { action: 'sign_in', userId: user.id, orgId, ip: client.ip, data: { factor, mfa: true } });
      return { ...(await startSession(deps, user, orgId)), user, orgId };
    }),
  );
}

/** Audits a failed sign-in step (wrong password or code, locked) in the account's organization, then rethrows. */
async function auditFailure<T>(deps: AccountDeps, user: UserRow | undefined, client: ClientInfo, step: 'password' | 'mfa', attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (err) {
    // An unknown address has no organization to file it under; its attempts stay in the rate limiter.
    if (user && err instanceof AppError) {
      await writeAudit(deps, { action: 'sign_in_failed', userId: user.id, orgId: (await baseOrgOf(deps.store, user.id))?.id ?? null, ip: client.ip, outcome: 'failure', data: { step, code: err.code } });
    }
    throw err;
  }
}
