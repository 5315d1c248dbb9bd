// The last-admin rule on both dialects, without interactive transactions. A batch that could take the
// organization's last active admin away opens with `lockOrganization` (org-rows.ts), so two admins
// demoting each other run one after the other on PostgreSQL, and the second batch's guarded statement
// sees the first one's change and changes no row.
import { sql, type RawBuilder } from 'kysely';
import type { Executor } from '../../store/index.ts';
import { LastAdmin, MemberNotFound } from './errors.ts';
import { memberRow } from './member-rows.ts';

/**
 * A condition on the membership row `m` being changed (org `orgId`, user `userId`): true unless it is
 * an active admin's and no other active admin remains.
 */
export function keepsAnAdmin(orgId: string, userId: string): RawBuilder<unknown> {
  return sql`(memberships.role <> 'admin' OR memberships.deactivated_at IS NOT NULL
    OR EXISTS (SELECT 1 FROM users u WHERE u.id = ${userId} AND u.disabled_at IS NOT NULL)
    OR EXISTS (SELECT 1 FROM memberships o JOIN users ou ON ou.id = o.user_id
      WHERE o.org_id = ${orgId} AND o.user_id <> ${userId} AND o.role = 'admin' AND o.deactivated_at IS NULL AND ou.disabled_at IS NULL))`;
}

/** Why a guarded batch changed nothing: the member is gone (404) or was the last active admin (409). */
export async function refusal(x: Executor, orgId: string, userId: string, action: 'demote' | 'deactivate' | 'remove'): Promise<never> {
  throw (await memberRow(x, orgId, userId)) ? new LastAdmin(action) : new MemberNotFound();
}
