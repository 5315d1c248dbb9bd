import type { MemberStoreDeps } from '../members/deps.ts';
import { MemberNotFound } from '../members/errors.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import type { Principal } from '../principal.ts';
import { leaveWorkspaceQueries } from './workspace-members.ts';
import { workspaceOf } from './workspace-rows.ts';

/** Takes a member out of a workspace: their sessions and tokens there stop working; the base organization's stay. */
export async function removeWorkspaceMember(deps: MemberStoreDeps, admin: Principal, workspaceId: string, userId: string): Promise<void> {
  await assertBaseOrg(deps.x, admin);
  await workspaceOf(deps.x, admin.orgId, workspaceId);
  const done = await deps.x.batch(leaveWorkspaceQueries(userId, workspaceId, deps.clock.now()), { require: [0] });
  if (!done.ok) throw new MemberNotFound();
  await deps.facts.forget(workspaceId, userId);
}
