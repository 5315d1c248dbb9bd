import type { Principal } from '../principal.ts';
import { clearAllAccountFailures } from '../credentials/rate-limit.ts';
import type { MembersDeps } from './deps.ts';
import { auditAdmin, type RequestClient } from './member-audit.ts';
import { memberOf } from './member-of.ts';

/** Clears every failed sign-in counted against a member, from every address, so nobody waits any longer. */
export async function unlockMember(deps: MembersDeps, admin: Principal, client: RequestClient, userId: string): Promise<{ cleared: number }> {
  await memberOf(deps.x, admin, userId);
  const cleared = await clearAllAccountFailures(deps.store, deps.clock, userId);
  await auditAdmin(deps, admin, client, { action: 'member_unlocked', userId, data: { cleared } });
  return { cleared };
}
