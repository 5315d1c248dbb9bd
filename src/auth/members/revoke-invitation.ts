import { sql } from 'kysely';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { InvitationNotFound } from './errors.ts';
import { adminAuditQuery, type RequestClient } from './member-audit.ts';

/** Revokes a pending invitation of the admin's organization; its link stops working. */
export async function revokeInvitation(deps: MembersDeps, admin: Principal, client: RequestClient, invitationId: string): Promise<void> {
  const done = await deps.x.batch(
    [
      sql`UPDATE invitations SET revoked_at = ${deps.clock.now()} WHERE org_id = ${admin.orgId} AND id = ${invitationId} AND accepted_at IS NULL AND revoked_at IS NULL`,
      adminAuditQuery(deps, admin, client, { action: 'invitation_revoked', target: { type: 'invitation', id: invitationId }, data: { invitation_id: invitationId } }),
    ],
    { require: [0] },
  );
  if (!done.ok) throw new InvitationNotFound();
}
