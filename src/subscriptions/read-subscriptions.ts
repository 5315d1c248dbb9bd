// Reading subscriptions: the caller's own, or (admins) the organization's; one; its run log.
import { hasRole, type Principal } from '../auth/index.ts';
import { visibleSubscription } from './access.ts';
import type { SubscriptionDeps } from './deps.ts';
import { listRuns } from './run-log.ts';
import { maskChannels } from './sealed-channels.ts';
import type { Subscription, SubscriptionRun } from './schemas.ts';
import { listSubscriptions, toSubscription, unsubscribedOf } from './subscriptions-store.ts';

/** A subscription as the caller sees it: webhook URLs whole for its owner only. */
const shown = (p: Principal, s: Subscription): Subscription => (s.owner_id === p.userId ? s : { ...s, channels: maskChannels(s.channels) });

/** The caller's subscriptions; with `all`, an admin gets every subscription of the organization. */
export async function subscriptionsOf(deps: SubscriptionDeps, p: Principal, opts: { all: boolean }): Promise<Subscription[]> {
  const rows = await listSubscriptions(deps.store, p.orgId, opts.all && hasRole(p, 'admin') ? undefined : p.userId);
  const unsubscribed = await unsubscribedOf(deps.store, rows.map((r) => r.id));
  return rows.map((r) => shown(p, toSubscription(deps.secretBox, r, unsubscribed.get(r.id) ?? [])));
}

/** One subscription the caller may see. */
export async function readSubscription(deps: SubscriptionDeps, p: Principal, id: string): Promise<Subscription> {
  const row = await visibleSubscription(deps, p, id);
  return shown(p, toSubscription(deps.secretBox, row, (await unsubscribedOf(deps.store, [id])).get(id) ?? []));
}

/** The run log of a subscription the caller may see, newest first. */
export async function subscriptionRuns(deps: SubscriptionDeps, p: Principal, id: string, limit = 100): Promise<SubscriptionRun[]> {
  await visibleSubscription(deps, p, id);
  return listRuns(deps.store, id, limit);
}
