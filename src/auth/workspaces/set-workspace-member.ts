import { membershipUpsert } from '../directory.ts';
import type { MemberStoreDeps } from '../members/deps.ts';
import { memberOf } from '../members/member-of.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import type { Principal, Role } from '../principal.ts';
import { listWorkspaceMembers } from './workspace-members.ts';
import { workspaceOf, type WorkspaceMemberView } from './workspace-rows.ts';

/**
 * Adds a member of the base organization to one of its workspaces with a role, or changes their role
 * there. People outside the organization answer 404, as they do on every member route.
 */
export async function setWorkspaceMember(deps: MemberStoreDeps, admin: Principal, workspaceId: string, userId: string, role: Role): Promise<WorkspaceMemberView[]> {
  await assertBaseOrg(deps.x, admin);
  await workspaceOf(deps.x, admin.orgId, workspaceId);
  await memberOf(deps.x, admin, userId);
  await deps.x.run(membershipUpsert(deps.x, deps.clock, { userId, orgId: workspaceId, role }));
  await deps.facts.forget(workspaceId, userId);
  return listWorkspaceMembers(deps, admin, workspaceId);
}
