import { sql } from 'kysely';
import type { Clock } from '../../clock.ts';
import { byteOrder, type Executor } from '../../store/index.ts';
import { ADDRESS_LIMIT, limited } from '../credentials/rate-limit.ts';
import type { Role } from '../principal.ts';
import { InvalidInvitation } from './errors.ts';
import { invitationByToken, type InvitationRow } from './invitation-rows.ts';
import { invitedAccount, type InvitedAccount } from './join-eligibility.ts';
import type { RequestClient } from './member-audit.ts';
import { orgRow } from './org-rows.ts';

export type InvitationState = 'pending' | 'accepted' | 'revoked' | 'expired';

export interface InvitationInfo {
  state: InvitationState;
  email: string;
  org_name: string;
  role: Role;
  /** Who sent it, as the mail named them (null when that account is gone). */
  invited_by: { name: string; email: string } | null;
  expires_at: string;
  /** Whether the organization offers single sign-on to accept with. */
  sso_available: boolean;
  /** Of a pending invitation: what accepting would do with the invited address's account. */
  account?: InvitedAccount;
}

/** The sign-in path of the organization's first enabled SSO provider (of its base organization), if it has one. */
export async function ssoLoginPath(x: Executor, orgId: string): Promise<string | undefined> {
  const org = await orgRow(x, orgId);
  const base = org?.base_org_id ?? orgId;
  const sso = await x.one(sql<{ type: string }>`SELECT type FROM sso_configs WHERE org_id = ${base} AND enabled = 1 ORDER BY ${byteOrder(x, 'type')} LIMIT 1`);
  return sso && `/api/auth/${encodeURIComponent(base)}/${encodeURIComponent(sso.type)}/login`;
}

const stateOf = (row: InvitationRow, now: number): InvitationState =>
  row.accepted_at !== null ? 'accepted' : row.revoked_at !== null ? 'revoked' : row.expires_at <= now ? 'expired' : 'pending';

/**
 * What the invitation page shows to whoever holds a link (the mailbox owner): what the mail said (who
 * invites, to which organization), the role, whether the link still works and, while it does, whether
 * the address has an account that can join (its owner may know; the inviter is never told). The token
 * stays unused. An unknown token counts against the client address, as a guessed sign-in does.
 */
export async function invitationInfo({ x, clock }: { x: Executor; clock: Clock }, token: string, client: RequestClient): Promise<InvitationInfo> {
  const row = await limited(x, clock, [[`invitation-ip:${client.ip}`, ADDRESS_LIMIT]], async () => {
    const found = await invitationByToken(x, token);
    if (!found) throw new InvalidInvitation();
    return found;
  });
  const state = stateOf(row, clock.now());
  const org = (await orgRow(x, row.org_id))!;
  const sso = await ssoLoginPath(x, row.org_id);
  const inviter = row.inviter_email === null ? null : { name: row.inviter_name ?? '', email: row.inviter_email };
  return {
    state, email: row.email, org_name: org.name, role: row.role, invited_by: inviter, expires_at: new Date(row.expires_at).toISOString(), sso_available: sso !== undefined,
    ...(state === 'pending' ? { account: await invitedAccount(x, row) } : {}),
  };
}
