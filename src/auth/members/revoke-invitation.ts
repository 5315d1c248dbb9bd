import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { InvitationNotFound } from './errors.ts';
import { auditAdmin, type RequestClient } from './member-audit.ts';

/** Revokes a pending invitation of the admin's organization; its link stops working. */
export function revokeInvitation(deps: MembersDeps, admin: Principal, client: RequestClient, invitationId: string): void {
  const changed = deps.db
    .prepare('UPDATE invitations SET revoked_at = ? WHERE org_id = ? AND id = ? AND accepted_at IS NULL AND revoked_at IS NULL')
    .run(deps.clock.now(), admin.orgId, invitationId).changes;
  if (changed !== 1) throw new InvitationNotFound();
  auditAdmin(deps, admin, client, { action: 'invitation_revoked', target: { type: 'invitation', id: invitationId }, data: { invitation_id: invitationId } });
}
