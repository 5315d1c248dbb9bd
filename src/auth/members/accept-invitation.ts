import { sql } from 'kysely';
import { hashPassword, hashSecret } from '../../security/index.ts';
import type { Executor } from '../../store/index.ts';
import type { AccountDeps } from '../account/account-deps.ts';
import { appendAudit } from '../audit-log/write-audit.ts';
import { fieldRequired } from '../errors.ts';
import { assertPasswordStrength } from '../credentials/password-policy.ts';
import { completeFirstFactor, type SignInResult } from '../credentials/sign-in.ts';
import { InvalidInvitation, SsoNotConfigured } from './errors.ts';
import { ssoLoginPath } from './invitation-info.ts';
import { pendingInvitationByToken, type InvitationRow } from './invitation-rows.ts';
import { joinBaseFor, userBy } from './join-eligibility.ts';
import { joinOrganization, type AcceptMethod, type JoinPlan } from './join-organization.ts';
import { isRefusal, type RequestClient } from './member-audit.ts';

export type { AcceptMethod };

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

type AcceptDeps = AccountDeps & { x: Executor };

/**
 * Accepts an invitation with its link token. A new account is created in the invitation's organization
 * with a password, as a sign-in-link account, or for SSO; holding the link proves the mailbox, so the
 * address counts as verified and the person is signed in (MFA rules apply as at any sign-in).
 */
export async function acceptInvitation(deps: AcceptDeps, input: AcceptInput, client: RequestClient): Promise<AcceptResult> {
  try {
    return await accept(deps, input, client, 1);
  } catch (err) {
    if (isRefusal(err)) await auditRefusedAccept(deps, input, client, err.code);
    throw err;
  }
}

/**
 * A refused accept (a used, revoked, expired or unknown link, an address that cannot join) is audited
 * as a failure, in the invitation's organization when the link still names one.
 */
async function auditRefusedAccept(deps: AcceptDeps, input: AcceptInput, client: RequestClient, code: string): Promise<void> {
  const row = await deps.x.one(sql<{ id: string; org_id: string }>`SELECT id, org_id FROM invitations WHERE token_hash = ${hashSecret(input.token)}`);
  await appendAudit(deps.x, deps.clock, {
    action: 'invitation_accepted', orgId: row?.org_id ?? null, target: row && { type: 'invitation', id: row.id }, ip: client.ip,
    outcome: 'failure', data: { method: input.method, error: code },
  });
}

async function plan(deps: AcceptDeps, input: AcceptInput, row: InvitationRow): Promise<JoinPlan> {
  const user = await userBy(deps.x, 'email', row.email);
  const joinBase = await joinBaseFor(deps.x, row, user);
  if (user) return { token: input.token, method: input.method, invitation: row, account: { existing: user }, joinBase };
  let passwordHash: string | null = null;
  if (input.method === 'password') {
    if (!input.password) throw fieldRequired('password');
    assertPasswordStrength(input.password, row.email);
    passwordHash = await hashPassword(input.password, deps.bcryptCost);
  }
  return { token: input.token, method: input.method, invitation: row, account: { name: input.name ?? row.email.split('@')[0] ?? '', passwordHash }, joinBase };
}

async function accept(deps: AcceptDeps, input: AcceptInput, client: RequestClient, retries: number): Promise<AcceptResult> {
  const pending = await pendingInvitationByToken(deps.x, deps.clock.now(), input.token);
  if (!pending) throw new InvalidInvitation();
  const sso = await ssoLoginPath(deps.x, pending.org_id);
  if (input.method === 'sso' && !sso) throw new SsoNotConfigured();
  const p = await plan(deps, input, pending).catch(async (err: unknown) => {
    // Another accept of this link may have won since it was read: its member is then the reason, and the answer is the used link.
    if (isRefusal(err) && !(await pendingInvitationByToken(deps.x, deps.clock.now(), input.token))) throw new InvalidInvitation();
    throw err;
  });
  const joined = await joinOrganization(deps.x, p, client, deps.clock.now());
  if (joined === 'lost') throw new InvalidInvitation();
  // The address got an account while this accept ran: it starts over as an existing account's accept.
  if (joined === 'raced') {
    if (retries > 0) return accept(deps, input, client, retries - 1);
    throw new InvalidInvitation();
  }
  const user = (await userBy(deps.x, 'id', joined.userId))!;
  if (input.method === 'sso') return { kind: 'sso', orgId: pending.org_id, loginPath: sso! };
  if (user.identity_kind === 'sso') return { kind: 'joined', orgId: pending.org_id };
  const factor = 'existing' in p.account || input.method !== 'password' ? 'magic_link' : 'password';
  return { kind: 'signed_in', orgId: pending.org_id, result: await completeFirstFactor(deps, user, factor, pending.org_id) };
}
