// Subscribing: a saved question or a dashboard, a schedule in a time zone, channels and an optional alert.
import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/index.ts';
import { checkFields } from './check-fields.ts';
import type { SubscriptionDeps } from './deps.ts';
import { readSubscription } from './read-subscriptions.ts';
import { nextSlot } from './schedule.ts';
import type { Subscription } from './schemas.ts';
import { insertSubscription, type SubscriptionFields } from './subscriptions-store.ts';

/** Saves a subscription owned by the caller; its first slot is the schedule's next after now. */
export async function createSubscription(deps: SubscriptionDeps, p: Principal, f: SubscriptionFields): Promise<Subscription> {
  await checkFields(deps, p, f);
  const at = deps.clock.now();
  const id = `sub_${randomBytes(9).toString('base64url')}`;
  await insertSubscription(deps.store, deps.secretBox, { id, orgId: p.orgId, ownerId: p.userId, fields: f, nextSlotAt: nextSlot(f.cron, f.timezone, at)!, at });
  return readSubscription(deps, p, id);
}
