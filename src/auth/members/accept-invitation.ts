import { consumeOnce, hashPassword, hashSecret } from '../../security/index.ts';
import { transact } from '../../store/index.ts';
import type { AccountDeps } from '../account/account-deps.ts';
import { writeAudit } from '../audit.ts';
import { baseOrgOf, createUser, findUserByEmail, getMembership, getOrganization, setMembership, type UserRow } from '../directory.ts';
import { fieldRequired } from '../errors.ts';
import { assertPasswordStrength } from '../credentials/password-policy.ts';
import { completeFirstFactor, type SignInResult } from '../credentials/sign-in.ts';
import { AccountDeactivated, AccountInOtherOrganization, AlreadyMember, InvalidInvitation, SsoNotConfigured } from './errors.ts';
import { pendingInvitationByToken, type InvitationRow } from './invitation-rows.ts';
import { isRefusal, type RequestClient } from './member-audit.ts';

export type AcceptMethod = 'password' | 'magic_link' | 'sso';

export type AcceptResult =
  | { kind: 'signed_in'; orgId: string; result: SignInResult }
  /** The account signs in through the organization's identity provider next. */
  | { kind: 'sso'; orgId: string; loginPath: string }
  /** An existing SSO-only account joined; it signs in with SSO as before. */
  | { kind: 'joined'; orgId: string };

export interface AcceptInput {
  token: string;
  method: AcceptMethod;
  password?: string | undefined;
  name?: string | undefined;
}

/** The sign-in path of the organization's first enabled SSO provider, if it has one. */
function ssoLoginPath(deps: AccountDeps, orgId: string): string | undefined {
  const type = deps.db.prepare('SELECT type FROM sso_configs WHERE org_id = ? AND enabled = 1 ORDER BY type LIMIT 1').pluck().get(orgId) as string | undefined;
  return type && `/api/auth/${encodeURIComponent(orgId)}/${encodeURIComponent(type)}/login`;
}

/** Claims the invitation (exactly one concurrent caller wins) and puts the account into its organization. */
function join(deps: AccountDeps, input: AcceptInput, client: RequestClient, passwordHash: string | null): { user: UserRow; row: InvitationRow; created: boolean } {
  return transact(deps.db, () => {
    const now = deps.clock.now();
    const won = consumeOnce(deps.db, { table: 'invitations', usedColumn: 'accepted_at', where: 'token_hash = ? AND revoked_at IS NULL AND expires_at > ?', params: [hashSecret(input.token), now], now });
    if (!won) throw new InvalidInvitation();
    const row = deps.db.prepare('SELECT * FROM invitations WHERE token_hash = ?').get(hashSecret(input.token)) as InvitationRow;
    const org = getOrganization(deps.db, row.org_id)!;
    const baseId = org.base_org_id ?? org.id;
    let user = findUserByEmail(deps.db, row.email);
    // A thrown error rolls the claim back: the link keeps working once the conflict is resolved.
    if (user && getMembership(deps.db, user.id, row.org_id)) throw new AlreadyMember();
    if (user && user.disabled_at !== null) throw new AccountDeactivated();
    const home = user && baseOrgOf(deps.db, user.id);
    if (home && home.id !== baseId) throw new AccountInOtherOrganization();
    const created = !user;
    if (!user) {
      const identityKind = input.method === 'password' ? 'password' : input.method;
      user = createUser(deps.db, deps.clock, { email: row.email, name: input.name ?? row.email.split('@')[0] ?? '', passwordHash, identityKind, emailVerified: true });
    }
    if (!home && baseId !== org.id) setMembership(deps.db, deps.clock, { userId: user.id, orgId: baseId, role: 'user' });
    setMembership(deps.db, deps.clock, { userId: user.id, orgId: row.org_id, role: row.role });
    deps.db.prepare('UPDATE invitations SET accepted_user_id = ? WHERE id = ?').run(user.id, row.id);
    writeAudit(deps, {
      action: 'invitation_accepted', userId: user.id, orgId: row.org_id, actorId: user.id, target: { type: 'invitation', id: row.id }, ip: client.ip,
      data: { invitation_id: row.id, role: row.role, method: input.method, new_account: created },
    });
    return { user, row, created };
  });
}

/**
 * Accepts an invitation with its link token. A new account is created in the invitation's organization
 * with a password, as a sign-in-link account, or for SSO; holding the link proves the mailbox, so the
 * address counts as verified and the person is signed in (MFA rules apply as at any sign-in).
 */
export async function acceptInvitation(deps: AccountDeps, input: AcceptInput, client: RequestClient): Promise<AcceptResult> {
  try {
    return await accept(deps, input, client);
  } catch (err) {
    if (isRefusal(err)) auditRefusedAccept(deps, input, client, err.code);
    throw err;
  }
}

/**
 * A refused accept (a used, revoked, expired or unknown link, an address that cannot join) is audited
 * as a failure, in the invitation's organization when the link still names one.
 */
function auditRefusedAccept(deps: AccountDeps, input: AcceptInput, client: RequestClient, code: string): void {
  const row = deps.db.prepare('SELECT id, org_id FROM invitations WHERE token_hash = ?').get(hashSecret(input.token)) as { id: string; org_id: string } | undefined;
  writeAudit(deps, {
    action: 'invitation_accepted', orgId: row?.org_id ?? null, target: row && { type: 'invitation', id: row.id }, ip: client.ip,
    outcome: 'failure', data: { method: input.method, error: code },
  });
}

async function accept(deps: AccountDeps, input: AcceptInput, client: RequestClient): Promise<AcceptResult> {
  const pending = pendingInvitationByToken(deps.db, deps.clock, input.token);
  if (!pending) throw new InvalidInvitation();
  const sso = ssoLoginPath(deps, getOrganization(deps.db, pending.org_id)?.base_org_id ?? pending.org_id);
  if (input.method === 'sso' && !sso) throw new SsoNotConfigured();
  let passwordHash: string | null = null;
  if (input.method === 'password' && !findUserByEmail(deps.db, pending.email)) {
    if (!input.password) throw fieldRequired('password');
    assertPasswordStrength(input.password, pending.email);
    passwordHash = await hashPassword(input.password);
  }
  const { user, row } = join(deps, input, client, passwordHash);
  if (input.method === 'sso') return { kind: 'sso', orgId: row.org_id, loginPath: sso! };
  if (user.identity_kind === 'sso') return { kind: 'joined', orgId: row.org_id };
  const factor = passwordHash ? 'password' : 'magic_link';
  return { kind: 'signed_in', orgId: row.org_id, result: completeFirstFactor(deps, user, factor, row.org_id) };
}
