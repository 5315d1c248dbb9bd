import { sql } from 'kysely';
import type { MemberStoreDeps } from '../members/deps.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import type { Principal } from '../principal.ts';
import { workspaceOf } from './workspace-rows.ts';

/**
 * Removes a workspace: its memberships and everything keyed to it go with it, so its sessions and
 * tokens stop working at once, and those who started there start in the base organization again.
 */
export async function deleteWorkspace(deps: MemberStoreDeps, admin: Principal, workspaceId: string): Promise<void> {
  await assertBaseOrg(deps.x, admin);
  const members = await workspaceMemberIds(deps, admin.orgId, workspaceId);
  await deps.x.batch([
    sql`UPDATE api_tokens SET revoked_at = ${deps.clock.now()} WHERE org_id = ${workspaceId} AND revoked_at IS NULL`,
    sql`DELETE FROM organizations WHERE id = ${workspaceId} AND base_org_id = ${admin.orgId}`,
  ]);
  for (const userId of members) await deps.facts.forget(workspaceId, userId);
}

async function workspaceMemberIds(deps: MemberStoreDeps, baseOrgId: string, workspaceId: string): Promise<string[]> {
  await workspaceOf(deps.x, baseOrgId, workspaceId);
  return (await deps.x.all(sql<{ user_id: string }>`SELECT user_id FROM memberships WHERE org_id = ${workspaceId}`)).map((r) => r.user_id);
}
