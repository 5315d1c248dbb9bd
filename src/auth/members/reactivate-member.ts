import { sql } from 'kysely';
import type { Principal } from '../principal.ts';
import type { MemberStoreDeps } from './deps.ts';
import { MemberNotFound } from './errors.ts';
import { getMember } from './get-member.ts';
import { adminAuditQuery, type RequestClient } from './member-audit.ts';
import type { MemberView } from './member-view.ts';
import { isBaseOrg } from './org-rows.ts';

/** Lets a deactivated member in again; sessions ended at deactivation stay ended (they sign in anew). */
export async function reactivateMember(deps: MemberStoreDeps, admin: Principal, client: RequestClient, userId: string): Promise<MemberView> {
  const account = (await isBaseOrg(deps.x, admin.orgId)) ? [sql`UPDATE users SET disabled_at = NULL WHERE id = ${userId}`] : [];
  const done = await deps.x.batch(
    [
      sql`UPDATE memberships SET deactivated_at = NULL WHERE user_id = ${userId} AND org_id = ${admin.orgId}`,
      ...account,
      adminAuditQuery(deps, admin, client, { action: 'member_reactivated', userId }),
    ],
    { require: [0] },
  );
  if (!done.ok) throw new MemberNotFound();
  return getMember(deps, admin, userId);
}
