// Reading subscriptions: the caller's own, or (admins) the organization's; one; its run log.
import { hasRole, type Principal } from '../auth/index.ts';
import { visibleSubscription } from './access.ts';
import type { SubscriptionDeps } from './deps.ts';
import { listRuns } from './run-log.ts';
import type { Subscription, SubscriptionRun } from './schemas.ts';
import { listSubscriptions, toSubscription, unsubscribedOf } from './subscriptions-store.ts';

/** The caller's subscriptions; with `all`, an admin gets every subscription of the organization. */
export async function subscriptionsOf(deps: SubscriptionDeps, p: Principal, opts: { all: boolean }): Promise<Subscription[]> {
  const rows = await listSubscriptions(deps.store, p.orgId, opts.all && hasRole(p, 'admin') ? undefined : p.userId);
  const unsubscribed = await unsubscribedOf(deps.store, rows.map((r) => r.id));
  return rows.map((r) => toSubscription(r, unsubscribed.get(r.id) ?? []));
}

/** One subscription the caller may see. */
export async function readSubscription(deps: SubscriptionDeps, p: Principal, id: string): Promise<Subscription> {
  const row = await visibleSubscription(deps, p, id);
  return toSubscription(row, (await unsubscribedOf(deps.store, [id])).get(id) ?? []);
}

/** The run log of a subscription the caller may see, newest first. */
export async function subscriptionRuns(deps: SubscriptionDeps, p: Principal, id: string, limit = 100): Promise<SubscriptionRun[]> {
  await visibleSubscription(deps, p, id);
  return listRuns(deps.store, id, limit);
}
