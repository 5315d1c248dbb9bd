import { writeAudit } from '../audit.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { InvitationNotFound } from './errors.ts';

/** Revokes a pending invitation of the admin's organization; its link stops working. */
export function revokeInvitation(deps: MembersDeps, admin: Principal, invitationId: string): void {
  const changed = deps.db
    .prepare('UPDATE invitations SET revoked_at = ? WHERE org_id = ? AND id = ? AND accepted_at IS NULL AND revoked_at IS NULL')
    .run(deps.clock.now(), admin.orgId, invitationId).changes;
  if (changed !== 1) throw new InvitationNotFound();
  writeAudit(deps.db, deps.clock, { action: 'invitation_revoked', orgId: admin.orgId, actorId: admin.userId, data: { invitation_id: invitationId } });
}
