import { transact } from '../../store/index.ts';
import { setMembership } from '../directory.ts';
import type { Principal, Role } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { getMember } from './get-member.ts';
import { assertNotLastAdmin } from './last-admin.ts';
import { auditAdmin, auditRefusals, type RequestClient } from './member-audit.ts';
import { memberOf } from './member-of.ts';
import type { MemberView } from './member-view.ts';

/** Changes a member's role (and the modeler's merge permission); the last active admin stays admin. */
export function changeRole(
  deps: MembersDeps,
  admin: Principal,
  client: RequestClient,
  userId: string,
  { role, canMerge }: { role: Role; canMerge?: boolean | undefined },
): MemberView {
  const act = { action: 'member_role_changed', userId, data: { to: role } };
  auditRefusals(deps, admin, client, act, () => transact(deps.db, () => {
    const target = memberOf(deps.db, admin, userId);
    if (role !== 'admin') assertNotLastAdmin(deps.db, admin.orgId, target, 'demote');
    const merge = canMerge ?? target.can_merge === 1;
    setMembership(deps.db, deps.clock, { userId, orgId: admin.orgId, role, permissions: merge ? ['merge_to_production'] : [] });
    auditAdmin(deps, admin, client, { ...act, data: { from: target.role, to: role, can_merge: merge } });
  }));
  return getMember(deps, admin, userId);
}
