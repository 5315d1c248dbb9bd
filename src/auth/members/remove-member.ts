import { sql } from 'kysely';
import type { Query } from '../../store/index.ts';
import { invalidateSessionsQueries } from '../credentials/invalidate-sessions.ts';
import { revokeAccessQueries } from '../credentials/revoke-access.ts';
import type { Principal } from '../principal.ts';
import type { MemberStoreDeps } from './deps.ts';
import { keepsAnAdmin, refusal } from './last-admin.ts';
import { adminAuditQuery, auditRefusals, type RequestClient } from './member-audit.ts';
import { memberOf } from './member-of.ts';
import { isBaseOrg, lockOrganization } from './org-rows.ts';

/** The organization and, for a base organization, its workspaces: where a removal takes the member out. */
async function reachOf(deps: MemberStoreDeps, orgId: string): Promise<{ isBase: boolean; workspaces: string[] }> {
  if (!(await isBaseOrg(deps.x, orgId))) return { isBase: false, workspaces: [] };
  const rows = await deps.x.all(sql<{ id: string }>`SELECT id FROM organizations WHERE base_org_id = ${orgId}`);
  return { isBase: true, workspaces: rows.map((r) => r.id) };
}

function leaveQueries(deps: MemberStoreDeps, userId: string, orgId: string, now: number): Query[] {
  return [sql`DELETE FROM memberships WHERE user_id = ${userId} AND org_id = ${orgId}`, ...revokeAccessQueries(deps.x, { userId, orgId, now })];
}

/**
 * Removes a member from the organization (from a base organization: also from its workspaces). Their
 * sessions, tokens and OAuth grants (MCP clients) there end, and a later invitation back brings none
 * of them back; the account row stays, so their chats and knowledge commits keep their author.
 */
export async function removeMember(deps: MemberStoreDeps, admin: Principal, client: RequestClient, userId: string): Promise<void> {
  await auditRefusals(deps, admin, client, { action: 'member_removed', userId }, async () => {
    const target = await memberOf(deps.x, admin, userId);
    const { isBase, workspaces } = await reachOf(deps, admin.orgId);
    const now = deps.clock.now();
    // The account now belongs to no organization: no sign-in leads anywhere, and a later invitation may take it in.
    // (From a workspace, the deleted membership alone refuses its sessions; the base organization's live on.)
    const account = isBase ? [sql`UPDATE users SET disabled_at = NULL, default_workspace_id = NULL WHERE id = ${userId}`, ...invalidateSessionsQueries(userId, now)] : [];
    const done = await deps.x.batch(
      [
        lockOrganization(admin.orgId),
        sql`DELETE FROM memberships WHERE user_id = ${userId} AND org_id = ${admin.orgId} AND ${keepsAnAdmin(admin.orgId, userId)}`,
        ...revokeAccessQueries(deps.x, { userId, orgId: admin.orgId, now }),
        ...workspaces.flatMap((orgId) => leaveQueries(deps, userId, orgId, now)),
        ...account,
        adminAuditQuery(deps, admin, client, { action: 'member_removed', userId, data: { email: target.email } }),
      ],
      { require: [1] },
    );
    if (!done.ok) await refusal(deps.x, admin.orgId, userId, 'remove');
    for (const orgId of [admin.orgId, ...workspaces]) await deps.facts.forget(orgId, userId);
  });
}
