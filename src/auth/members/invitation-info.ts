import { sql } from 'kysely';
import type { Clock } from '../../clock.ts';
import { byteOrder, type Executor } from '../../store/index.ts';
import type { Role } from '../principal.ts';
import { InvalidInvitation } from './errors.ts';
import { pendingInvitationByToken } from './invitation-rows.ts';
import { orgRow } from './org-rows.ts';

export interface InvitationInfo {
  email: string;
  org_name: string;
  role: Role;
  expires_at: string;
  /** Whether the organization offers single sign-on to accept with. */
  sso_available: boolean;
}

/** The sign-in path of the organization's first enabled SSO provider (of its base organization), if it has one. */
export async function ssoLoginPath(x: Executor, orgId: string): Promise<string | undefined> {
  const org = await orgRow(x, orgId);
  const base = org?.base_org_id ?? orgId;
  const sso = await x.one(sql<{ type: string }>`SELECT type FROM sso_configs WHERE org_id = ${base} AND enabled = 1 ORDER BY ${byteOrder(x, 'type')} LIMIT 1`);
  return sso && `/api/auth/${encodeURIComponent(base)}/${encodeURIComponent(sso.type)}/login`;
}

/** What the accept page shows to whoever holds a live invitation link (the mailbox owner). */
export async function invitationInfo({ x, clock }: { x: Executor; clock: Clock }, token: string): Promise<InvitationInfo> {
  const row = await pendingInvitationByToken(x, clock.now(), token);
  if (!row) throw new InvalidInvitation();
  const org = (await orgRow(x, row.org_id))!;
  const sso = await ssoLoginPath(x, row.org_id);
  return { email: row.email, org_name: org.name, role: row.role, expires_at: new Date(row.expires_at).toISOString(), sso_available: sso !== undefined };
}
