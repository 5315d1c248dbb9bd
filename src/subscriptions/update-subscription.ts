// Changing a subscription: its owner rewrites it; the owner or an admin pauses and resumes it; the
// owner deletes it (with its run log).
import { hasRole, type Principal } from '../auth/index.ts';
import { ownSubscription, visibleSubscription } from './access.ts';
import { checkFields } from './check-fields.ts';
import type { SubscriptionDeps } from './deps.ts';
import { SubscriptionForbidden } from './errors.ts';
import { readSubscription } from './read-subscriptions.ts';
import { openChannels } from './sealed-channels.ts';
import { nextSlot } from './schedule.ts';
import type { Alert, Channel, Subscription } from './schemas.ts';
import { deleteSubscription, setStatusQuery, updateSubscription, type SubscriptionFields, type SubscriptionRow } from './subscriptions-store.ts';

/** What an edit may change; absent fields keep their value. */
export interface SubscriptionEdit {
  schedule?: { cron: string; timezone: string } | undefined;
  channels?: Channel[] | undefined;
  alert?: Alert | null | undefined;
  /** `paused` or `active` (resume): the owner or an admin. */
  status?: 'active' | 'paused' | undefined;
}

const fieldsOf = (deps: SubscriptionDeps, s: SubscriptionRow): SubscriptionFields => ({
  saved_question_id: s.saved_question_id,
  dashboard_id: s.dashboard_id,
  cron: s.cron,
  timezone: s.timezone,
  channels: openChannels(deps.secretBox, s.channels),
  alert: s.alert === null ? null : (JSON.parse(s.alert) as Alert),
});

/** Applies an edit; an admin who does not own the subscription may only pause or resume it. */
export async function editSubscription(deps: SubscriptionDeps, p: Principal, id: string, edit: SubscriptionEdit): Promise<Subscription> {
  const { status, ...rest } = edit;
  const changes = Object.values(rest).some((v) => v !== undefined);
  const s = changes ? await ownSubscription(deps, p, id) : await visibleSubscription(deps, p, id);
  if (status && s.owner_id !== p.userId && !hasRole(p, 'admin')) throw new SubscriptionForbidden();
  if (changes) await rewrite(deps, p, s, rest);
  if (status) await setStatus(deps, s, status);
  return readSubscription(deps, p, id);
}

async function rewrite(deps: SubscriptionDeps, p: Principal, s: SubscriptionRow, edit: SubscriptionEdit): Promise<void> {
  const before = fieldsOf(deps, s);
  const f: SubscriptionFields = {
    ...before,
    cron: edit.schedule?.cron ?? before.cron,
    timezone: edit.schedule?.timezone ?? before.timezone,
    channels: edit.channels ?? before.channels,
    alert: edit.alert === undefined ? before.alert : edit.alert,
  };
  await checkFields(deps, p, f);
  const at = deps.clock.now();
  const rescheduled = f.cron !== before.cron || f.timezone !== before.timezone;
  const nextSlotAt = rescheduled ? nextSlot(f.cron, f.timezone, at)! : Number(s.next_slot_at);
  await updateSubscription(deps.store, deps.secretBox, { id: s.id, fields: f, nextSlotAt, resetAlert: JSON.stringify(f.alert) !== JSON.stringify(before.alert), at });
}

/** Pauses, or resumes from the next slot after now; a stopped subscription resumes only when its owner asks. */
async function setStatus(deps: SubscriptionDeps, s: SubscriptionRow, status: 'active' | 'paused'): Promise<void> {
  if (status === s.status) return;
  const at = deps.clock.now();
  const nextSlotAt = status === 'active' ? nextSlot(s.cron, s.timezone, at) : undefined;
  await deps.store.run(setStatusQuery(s.id, { status, reason: null, nextSlotAt, at }));
}

/** Deletes a subscription the caller owns, with its run log. */
export async function removeSubscription(deps: SubscriptionDeps, p: Principal, id: string): Promise<void> {
  await ownSubscription(deps, p, id);
  await deleteSubscription(deps.store, id);
}
