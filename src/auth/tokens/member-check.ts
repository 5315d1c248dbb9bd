import type { Principal } from '../principal.ts';
import type { TokenDeps } from './deps.ts';
import { TokenUserNotFound } from './errors.ts';
import { requireAdminFor } from './require-admin.ts';

/** Managing `userId`'s tokens: the caller is an admin and `userId` a member of the caller's organization. */
export async function requireAdminOfMember(deps: TokenDeps, principal: Principal, userId: string): Promise<void> {
  requireAdminFor(principal);
  if (!(await deps.store.one(deps.store.db.selectFrom('memberships').select('user_id').where('user_id', '=', userId).where('org_id', '=', principal.orgId)))) throw new TokenUserNotFound();
}
