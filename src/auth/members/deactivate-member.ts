import { sql } from 'kysely';
import { invalidateSessionsQueries } from '../credentials/invalidate-sessions.ts';
import { revokeAccessQueries } from '../credentials/revoke-access.ts';
import type { Principal } from '../principal.ts';
import type { MemberStoreDeps } from './deps.ts';
import { getMember } from './get-member.ts';
import { keepsAnAdmin, refusal } from './last-admin.ts';
import { adminAuditQuery, auditRefusals, type RequestClient } from './member-audit.ts';
import { memberOf } from './member-of.ts';
import type { MemberView } from './member-view.ts';
import { isBaseOrg, lockOrganization } from './org-rows.ts';

/**
 * Deactivates a member: every credential of theirs in the organization (sessions, API, CLI, MCP and
 * OAuth tokens) is refused from the next request on, since authentication checks the membership and
 * the credential cache drops its entries on the write. They are also ended for good (sessions in the
 * organization ended, tokens revoked, OAuth grants deleted), so that a reactivation never brings a
 * leaked one back. In a base organization the account itself is disabled, its sessions everywhere
 * ended and all its tokens and grants revoked, which also closes its workspaces and every sign-in
 * path. Chats and knowledge commits stay.
 */
export async function deactivateMember(deps: MemberStoreDeps, admin: Principal, client: RequestClient, userId: string): Promise<MemberView> {
  const act = { action: 'member_deactivated', userId };
  await auditRefusals(deps, admin, client, act, async () => {
    await memberOf(deps.x, admin, userId);
    const now = deps.clock.now();
    const account = (await isBaseOrg(deps.x, admin.orgId))
      ? [sql`UPDATE users SET disabled_at = COALESCE(disabled_at, ${now}) WHERE id = ${userId}`, ...invalidateSessionsQueries(userId, now), ...revokeAccessQueries(deps.x, { userId, now })]
      : [sql`UPDATE sessions SET ended_at = ${now} WHERE user_id = ${userId} AND org_id = ${admin.orgId} AND ended_at IS NULL`, ...revokeAccessQueries(deps.x, { userId, orgId: admin.orgId, now })];
    const done = await deps.x.batch(
      [
        lockOrganization(admin.orgId),
        sql`UPDATE memberships SET deactivated_at = COALESCE(deactivated_at, ${now})
            WHERE user_id = ${userId} AND org_id = ${admin.orgId} AND ${keepsAnAdmin(admin.orgId, userId)}`,
        ...account,
        adminAuditQuery(deps, admin, client, act),
      ],
      { require: [1] },
    );
    if (!done.ok) await refusal(deps.x, admin.orgId, userId, 'deactivate');
  });
  return getMember(deps, admin, userId);
}
