import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { InvitationNotFound } from './errors.ts';
import { stageInvitationMail } from './invitation-mail.ts';
import { consumeInvitationQuota } from './invitation-quota.ts';
import { invitationRow, renewInvitationQuery } from './invitation-rows.ts';
import { invitationView, type InvitationView } from './invitation-view.ts';
import { adminAuditQuery, type RequestClient } from './member-audit.ts';

/** Mails a pending invitation again with a new link (valid 7 days from now); the previous link stops working. */
export async function resendInvitation(deps: MembersDeps, admin: Principal, client: RequestClient, invitationId: string): Promise<InvitationView> {
  const row = await invitationRow(deps.x, admin.orgId, invitationId);
  if (!row || row.accepted_at !== null || row.revoked_at !== null) throw new InvitationNotFound();
  await consumeInvitationQuota(deps.store, deps.clock, { orgId: admin.orgId, email: row.email, perAddressPerHour: deps.mailLimits.perAddressPerHour, perOrgPerDay: deps.invitationsPerDay });
  const { token, query } = renewInvitationQuery(row.id, deps.clock.now());
  const mail = await stageInvitationMail(deps, admin, row.email, token);
  const act = { action: 'invitation_resent', target: { type: 'invitation', id: row.id }, data: { invitation_id: row.id, email: row.email } };
  // The new link, its audit entry and its mail together: an invitation accepted or revoked meanwhile gets none of them.
  const done = await deps.x.batch([query, adminAuditQuery(deps, admin, client, act), mail.query], { require: [0] });
  if (!done.ok) throw new InvitationNotFound();
  mail.committed();
  return invitationView((await invitationRow(deps.x, admin.orgId, row.id))!);
}
