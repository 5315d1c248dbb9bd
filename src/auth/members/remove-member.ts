import { transact } from '../../store/index.ts';
import { getOrganization } from '../directory.ts';
import { invalidateSessions } from '../credentials/invalidate-sessions.ts';
import type { Principal } from '../principal.ts';
import type { MembersDeps } from './deps.ts';
import { assertNotLastAdmin } from './last-admin.ts';
import { auditAdmin, auditRefusals, type RequestClient } from './member-audit.ts';
import { memberOf } from './member-of.ts';

/**
 * Removes a member from the organization (from a base organization: also from its workspaces). Their
 * sessions and tokens there stop working; the account row stays, so their chats and
 * knowledge commits keep their author.
 */
export function removeMember(deps: MembersDeps, admin: Principal, client: RequestClient, userId: string): void {
  auditRefusals(deps, admin, client, { action: 'member_removed', userId }, () => transact(deps.db, () => {
    const target = memberOf(deps.db, admin, userId);
    assertNotLastAdmin(deps.db, admin.orgId, target, 'remove');
    const isBase = getOrganization(deps.db, admin.orgId)?.base_org_id === null;
    const orgs = isBase
      ? (deps.db.prepare('SELECT id FROM organizations WHERE id = ? OR base_org_id = ?').pluck().all(admin.orgId, admin.orgId) as string[])
      : [admin.orgId];
    for (const orgId of orgs) {
      deps.db.prepare('DELETE FROM memberships WHERE user_id = ? AND org_id = ?').run(userId, orgId);
      deps.db.prepare('UPDATE api_tokens SET revoked_at = ? WHERE user_id = ? AND org_id = ? AND revoked_at IS NULL').run(deps.clock.now(), userId, orgId);
      deps.facts.forget(orgId, userId);
    }
    // The account now belongs to no organization: no sign-in leads anywhere, and a later invitation may take it in.
    // (From a workspace, the deleted membership alone refuses its sessions; the base organization's live on.)
    if (isBase) {
      deps.db.prepare('UPDATE users SET disabled_at = NULL, default_workspace_id = NULL WHERE id = ?').run(userId);
      invalidateSessions(deps.db, deps.clock, userId);
    }
    auditAdmin(deps, admin, client, { action: 'member_removed', userId, data: { email: target.email } });
  }));
}
