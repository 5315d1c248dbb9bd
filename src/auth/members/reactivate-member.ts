import { transact } from '../../store/index.ts';
import { getOrganization } from '../directory.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { getMember } from './get-member.ts';
import { auditAdmin, type RequestClient } from './member-audit.ts';
import { memberOf } from './member-of.ts';
import type { MemberView } from './member-view.ts';

/** Lets a deactivated member in again; sessions ended at deactivation stay ended (they sign in anew). */
export function reactivateMember(deps: MembersDeps, admin: Principal, client: RequestClient, userId: string): MemberView {
  transact(deps.db, () => {
    memberOf(deps.db, admin, userId);
    deps.db.prepare('UPDATE memberships SET deactivated_at = NULL WHERE user_id = ? AND org_id = ?').run(userId, admin.orgId);
    if (getOrganization(deps.db, admin.orgId)?.base_org_id === null) deps.db.prepare('UPDATE users SET disabled_at = NULL WHERE id = ?').run(userId);
    auditAdmin(deps, admin, client, { action: 'member_reactivated', userId });
  });
  return getMember(deps, admin, userId);
}
