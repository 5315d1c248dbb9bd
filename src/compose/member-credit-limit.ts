// A member's monthly credit limit: the limit is the agent's (src/agent/usage), membership is auth's, so
// the check that the user belongs to the admin's organization is made here, between the two.
import { setCreditLimit, type UsageDeps } from '../agent/index.ts';
import { getMembership, type Principal } from '../auth/index.ts';
import { NotFound } from '../errors.ts';
import type { Executor } from '../store/index.ts';

/** Sets (or, with null, removes) a member's monthly credit limit; 404 when the user is not in the admin's organization. */
export async function setMemberCreditLimit(deps: UsageDeps, store: Executor, admin: Principal, userId: string, monthlyCredits: number | null): Promise<void> {
  if (!(await getMembership(store, userId, admin.orgId))) throw new NotFound('User not found', 'USER_NOT_FOUND');
  await setCreditLimit(deps, { orgId: admin.orgId, userId, monthlyCredits, by: admin.userId });
}
