import { writeAudit } from '../audit.ts';
import type { Principal } from '../principal.ts';
import { clearAllAccountFailures } from '../credentials/rate-limit.ts';
import type { MembersDeps } from './deps.ts';
import { memberOf } from './member-of.ts';

/** Clears every failed sign-in counted against a member, from every address, so nobody waits any longer. */
export async function unlockMember(deps: MembersDeps, admin: Principal, userId: string): Promise<{ cleared: number }> {
  memberOf(deps.db, admin, userId);
  const cleared = await clearAllAccountFailures(deps.db, deps.clock, userId);
  writeAudit(deps.db, deps.clock, { action: 'member_unlocked', userId, orgId: admin.orgId, actorId: admin.userId, data: { cleared } });
  return { cleared };
}
