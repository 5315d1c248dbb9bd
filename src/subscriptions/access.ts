// Who sees and who changes a subscription: its owner; admins see every subscription of the
// organization and may pause or resume one. Everyone else gets NotFound, as for a missing one.
import { hasRole, type Principal } from '../auth/index.ts';
import type { SubscriptionDeps } from './deps.ts';
import { SubscriptionForbidden, SubscriptionNotFound } from './errors.ts';
import { findSubscription, type SubscriptionRow } from './subscriptions-store.ts';

/** The subscription if the caller may see it (owner or admin), else SubscriptionNotFound. */
export async function visibleSubscription(deps: SubscriptionDeps, p: Principal, id: string): Promise<SubscriptionRow> {
  const s = await findSubscription(deps.store, p.orgId, id);
  if (!s || (s.owner_id !== p.userId && !hasRole(p, 'admin'))) throw new SubscriptionNotFound();
  return s;
}

/** The subscription if the caller owns it: only the owner changes what it sends, to whom and when. */
export async function ownSubscription(deps: SubscriptionDeps, p: Principal, id: string): Promise<SubscriptionRow> {
  const s = await visibleSubscription(deps, p, id);
  if (s.owner_id !== p.userId) throw new SubscriptionForbidden();
  return s;
}
