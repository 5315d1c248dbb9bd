import type { Principal } from '../principal.ts';
import type { MemberStoreDeps } from './deps.ts';
import { memberOf } from './member-of.ts';
import { memberView, type MemberView } from './member-view.ts';

/** One member of the admin's organization (404 for anyone else). */
export async function getMember(deps: MemberStoreDeps, admin: Principal, userId: string): Promise<MemberView> {
  const row = await memberOf(deps.x, admin, userId);
  return memberView(row, (await deps.facts.factsOf(admin.orgId, [userId])).get(userId));
}
