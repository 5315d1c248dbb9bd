import { sql } from 'kysely';
import type { Principal, Role } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { AlreadyMember, InvitationPending } from './errors.ts';
import { stageInvitationMail } from './invitation-mail.ts';
import { consumeInvitationQuota } from './invitation-quota.ts';
import { insertInvitationQuery, invitationRow, pendingInvitationFor } from './invitation-rows.ts';
import { lockOrganization } from './org-rows.ts';
import { invitationView, type InvitationView } from './invitation-view.ts';
import { adminAuditQuery, auditRefusals, type RequestClient } from './member-audit.ts';

/**
 * Invites an address into the admin's organization with a role and mails a single-use link. The
 * answer is the same whether or not the address has an account elsewhere: the admin learns only what
 * they may know (who is already a member here, what is already pending here).
 */
export function inviteMember(deps: MembersDeps, admin: Principal, client: RequestClient, input: { email: string; role: Role }): Promise<InvitationView> {
  const email = input.email.trim().toLowerCase();
  const act = { action: 'invitation_created', data: { email, role: input.role } };
  return auditRefusals(deps, admin, client, act, () => invite(deps, admin, client, { email, role: input.role }));
}

async function invite(deps: MembersDeps, admin: Principal, client: RequestClient, { email, role }: { email: string; role: Role }): Promise<InvitationView> {
  const member = await deps.x.one(sql`SELECT 1 AS one FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = ${email} AND m.org_id = ${admin.orgId}`);
  if (member) throw new AlreadyMember();
  if (await pendingInvitationFor(deps.x, deps.clock.now(), admin.orgId, email)) throw new InvitationPending();
  await consumeInvitationQuota(deps.store, deps.clock, { orgId: admin.orgId, email, perAddressPerHour: deps.mailLimits.perAddressPerHour, perOrgPerDay: deps.invitationsPerDay });
  const stored = await storeInvitation(deps, admin, client, { email, role });
  if (!stored) throw new InvitationPending();
  return invitationView((await invitationRow(deps.x, admin.orgId, stored.id))!);
}

/**
 * Stores the invitation, its audit entry and its mail unless the address has a pending invitation to
 * the organization (undefined then, and nothing is mailed). The organization's row lock makes
 * concurrent invitations of one address (on any replica) run one after the other, so the second one's
 * check sees the first.
 */
export async function storeInvitation(
  deps: Pick<MembersDeps, 'x' | 'clock' | 'mailer' | 'baseUrl'>,
  admin: Principal,
  client: RequestClient,
  { email, role }: { email: string; role: Role },
): Promise<{ id: string } | undefined> {
  const { id, token, query } = insertInvitationQuery({ orgId: admin.orgId, email, role, invitedBy: admin.userId, now: deps.clock.now() });
  const mail = await stageInvitationMail(deps, admin, email, token);
  const act = { action: 'invitation_created', target: { type: 'invitation', id }, data: { invitation_id: id, email, role } };
  const done = await deps.x.batch([lockOrganization(admin.orgId), query, adminAuditQuery(deps, admin, client, act), mail.query], { require: [0, 1] });
  if (!done.ok) return undefined;
  mail.committed();
  return { id };
}
