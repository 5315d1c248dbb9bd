import { transact } from '../../store/index.ts';
import { getOrganization } from '../directory.ts';
import { invalidateSessions } from '../credentials/invalidate-sessions.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { getMember } from './get-member.ts';
import { assertNotLastAdmin } from './last-admin.ts';
import { auditAdmin, auditRefusals, type RequestClient } from './member-audit.ts';
import { memberOf } from './member-of.ts';
import type { MemberView } from './member-view.ts';

/**
 * Deactivates a member: every credential of theirs in the organization (sessions, API, CLI, MCP and
 * OAuth tokens) is refused from the next request on, since authentication checks the membership and
 * the credential cache drops its entries on the write. In a base organization the account itself is
 * disabled and its sessions ended, which also closes its workspaces and every sign-in path. Chats
 * and knowledge commits stay.
 */
export function deactivateMember(deps: MembersDeps, admin: Principal, client: RequestClient, userId: string): MemberView {
  const act = { action: 'member_deactivated', userId };
  auditRefusals(deps, admin, client, act, () => transact(deps.db, () => {
    const target = memberOf(deps.db, admin, userId);
    assertNotLastAdmin(deps.db, admin.orgId, target, 'deactivate');
    const now = deps.clock.now();
    deps.db.prepare('UPDATE memberships SET deactivated_at = COALESCE(deactivated_at, ?) WHERE user_id = ? AND org_id = ?').run(now, userId, admin.orgId);
    if (getOrganization(deps.db, admin.orgId)?.base_org_id === null) {
      deps.db.prepare('UPDATE users SET disabled_at = COALESCE(disabled_at, ?) WHERE id = ?').run(now, userId);
      invalidateSessions(deps.db, deps.clock, userId);
    }
    auditAdmin(deps, admin, client, act);
  }));
  return getMember(deps, admin, userId);
}
