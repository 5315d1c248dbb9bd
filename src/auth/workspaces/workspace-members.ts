import { sql } from 'kysely';
import { byteOrder } from '../../store/index.ts';
import type { MemberStoreDeps } from '../members/deps.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import type { Principal } from '../principal.ts';
import { workspaceOf, type WorkspaceMemberView } from './workspace-rows.ts';

/** The members of a workspace of the admin's base organization, by email. */
export async function listWorkspaceMembers(deps: Pick<MemberStoreDeps, 'x'>, admin: Principal, workspaceId: string): Promise<WorkspaceMemberView[]> {
  await assertBaseOrg(deps.x, admin);
  await workspaceOf(deps.x, admin.orgId, workspaceId);
  return deps.x.all(
    deps.x.db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id as user_id', 'u.email', 'u.name', 'm.role'])
      .where('m.org_id', '=', workspaceId)
      .orderBy(byteOrder(deps.x, 'u.email')),
  ) as Promise<WorkspaceMemberView[]>;
}

/** Members of workspaces leave with the workspace's tokens revoked; sessions end with the membership. */
export function leaveWorkspaceQueries(userId: string, workspaceId: string, now: number) {
  return [
    sql`DELETE FROM memberships WHERE user_id = ${userId} AND org_id = ${workspaceId}`,
    sql`UPDATE api_tokens SET revoked_at = ${now} WHERE user_id = ${userId} AND org_id = ${workspaceId} AND revoked_at IS NULL`,
    sql`UPDATE users SET default_workspace_id = NULL WHERE id = ${userId} AND default_workspace_id = ${workspaceId}`,
  ];
}
