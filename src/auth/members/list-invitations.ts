import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { pendingInvitations } from './invitation-rows.ts';
import { invitationView, type InvitationView } from './invitation-view.ts';

/** The organization's pending invitations, newest first. */
export function listInvitations(deps: MembersDeps, admin: Principal): InvitationView[] {
  return pendingInvitations(deps.db, deps.clock, admin.orgId).map(invitationView);
}
