import { transact } from '../../store/index.ts';
import { findUserByEmail, getMembership, getOrganization, getUser } from '../directory.ts';
import type { Principal, Role } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { AlreadyMember, InvitationPending } from './errors.ts';
import { invitationMail } from './invitation-mail.ts';
import { consumeInvitationQuota } from './invitation-quota.ts';
import { insertInvitation, pendingInvitationFor } from './invitation-rows.ts';
import { invitationView, type InvitationView } from './invitation-view.ts';
import { auditAdmin, auditRefusals, type RequestClient } from './member-audit.ts';

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
  const existing = findUserByEmail(deps.db, email);
  if (existing && getMembership(deps.db, existing.id, admin.orgId)) throw new AlreadyMember();
  if (pendingInvitationFor(deps.db, deps.clock, admin.orgId, email)) throw new InvitationPending();
  await consumeInvitationQuota(deps.db, deps.clock, { orgId: admin.orgId, email, perAddressPerHour: deps.mailLimits.perAddressPerHour });
  return transact(deps.db, () => {
    // Checked again: another invitation may have been made while the quota was counted.
    if (pendingInvitationFor(deps.db, deps.clock, admin.orgId, email)) throw new InvitationPending();
    const { row, token } = insertInvitation(deps.db, deps.clock, { orgId: admin.orgId, email, role, invitedBy: admin.userId });
    const org = getOrganization(deps.db, admin.orgId)!;
    deps.mailer.enqueue(invitationMail(deps.baseUrl, email, token, org.name, getUser(deps.db, admin.userId)?.name || admin.email));
    auditAdmin(deps, admin, client, { action: 'invitation_created', target: { type: 'invitation', id: row.id }, data: { invitation_id: row.id, email, role } });
    return invitationView(row);
  });
}
