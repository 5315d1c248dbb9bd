// Whether a member's access to an organization was interrupted since a moment: their membership
// there began after it (they were taken out, of the organization or of a workspace, and let in
// again: a new membership), or an admin deactivated or removed them there (or in its base
// organization) after it, as the audit log says (a deactivated membership keeps its row). Standing
// grants a person made (a dashboard's share link runs as its sharer) end with such an interruption,
// as their tokens do, even when the person is let in again later; the audit entry is written in the
// same batch as the change.
import { sql } from 'kysely';
import type { Executor } from '../../store/index.ts';

const INTERRUPTIONS = ['member_deactivated', 'member_removed'];

/** True when `userId`'s membership of `orgId` began after `since` (ms), or they were deactivated or removed in `orgId` (or its base organization) at or after it. */
export async function accessInterruptedSince(x: Executor, orgId: string, userId: string, since: number): Promise<boolean> {
  const row = await x.one(sql<{ n: number }>`SELECT 1 AS n FROM memberships WHERE user_id = ${userId} AND org_id = ${orgId} AND created_at > ${since}
    UNION ALL
    SELECT 1 AS n FROM audit_log
    WHERE user_id = ${userId} AND created_at >= ${since} AND outcome = 'success' AND action IN (${sql.join(INTERRUPTIONS)})
      AND (org_id = ${orgId} OR org_id = (SELECT base_org_id FROM organizations WHERE id = ${orgId}))
    LIMIT 1`);
  return row !== undefined;
}
