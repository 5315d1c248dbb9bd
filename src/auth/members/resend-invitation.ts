import { transact } from '../../store/index.ts';
import { getOrganization, getUser } from '../directory.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { InvitationNotFound } from './errors.ts';
import { invitationMail } from './invitation-mail.ts';
import { consumeInvitationQuota } from './invitation-quota.ts';
import { invitationRow, renewInvitationToken } from './invitation-rows.ts';
import { invitationView, type InvitationView } from './invitation-view.ts';
import { auditAdmin, type RequestClient } from './member-audit.ts';

/** Mails a pending invitation again with a new link (valid 7 days from now); the previous link stops working. */
export async function resendInvitation(deps: MembersDeps, admin: Principal, client: RequestClient, invitationId: string): Promise<InvitationView> {
  const row = invitationRow(deps.db, admin.orgId, invitationId);
  if (!row || row.accepted_at !== null || row.revoked_at !== null) throw new InvitationNotFound();
  await consumeInvitationQuota(deps.db, deps.clock, { orgId: admin.orgId, email: row.email, perAddressPerHour: deps.mailLimits.perAddressPerHour });
  return transact(deps.db, () => {
    const token = renewInvitationToken(deps.db, deps.clock, row);
    if (!token) throw new InvitationNotFound();
    const org = getOrganization(deps.db, admin.orgId)!;
    deps.mailer.enqueue(invitationMail(deps.baseUrl, row.email, token, org.name, getUser(deps.db, admin.userId)?.name || admin.email));
    auditAdmin(deps, admin, client, { action: 'invitation_resent', target: { type: 'invitation', id: row.id }, data: { invitation_id: row.id, email: row.email } });
    return invitationView(invitationRow(deps.db, admin.orgId, row.id)!);
  });
}
