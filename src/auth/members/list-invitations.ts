import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { pendingInvitations } from './invitation-rows.ts';
import { invitationView, type InvitationView } from './invitation-view.ts';

/** The organization's pending invitations, newest first. */
export async function listInvitations(deps: MembersDeps, admin: Principal): Promise<InvitationView[]> {
  return (await pendingInvitations(deps.x, deps.clock.now(), admin.orgId)).map(invitationView);
}
