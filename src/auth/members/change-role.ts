import { sql } from 'kysely';
import type { Principal, Role } from '../principal.ts';
import type { MemberStoreDeps } from './deps.ts';
import { getMember } from './get-member.ts';
import { keepsAnAdmin, refusal } from './last-admin.ts';
import { lockOrganization } from './org-rows.ts';
import { adminAuditQuery, auditRefusals, type RequestClient } from './member-audit.ts';
import { memberOf } from './member-of.ts';
import type { MemberView } from './member-view.ts';

/** Changes a member's role (and the modeler's merge permission); the last active admin stays admin. */
export async function changeRole(
  deps: MemberStoreDeps,
  admin: Principal,
  client: RequestClient,
  userId: string,
  { role, canMerge }: { role: Role; canMerge?: boolean | undefined },
): Promise<MemberView> {
  const act = { action: 'member_role_changed', userId, data: { to: role } };
  await auditRefusals(deps, admin, client, act, async () => {
    const target = await memberOf(deps.x, admin, userId);
    const merge = canMerge ?? target.can_merge === 1;
    const guard = role === 'admin' ? sql`1 = 1` : keepsAnAdmin(admin.orgId, userId);
    const done = await deps.x.batch(
      [
        lockOrganization(admin.orgId),
        sql`UPDATE memberships SET role = ${role}, can_merge = ${merge ? 1 : 0} WHERE user_id = ${userId} AND org_id = ${admin.orgId} AND ${guard}`,
        adminAuditQuery(deps, admin, client, { ...act, data: { from: target.role, to: role, can_merge: merge } }),
      ],
      { require: [1] },
    );
    if (!done.ok) await refusal(deps.x, admin.orgId, userId, 'demote');
  });
  return getMember(deps, admin, userId);
}
