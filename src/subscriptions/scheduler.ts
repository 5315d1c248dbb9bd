// The scheduler, run by every replica: each tick claims the slots that have come (one run per slot
// across replicas, decided in the store), takes over runs whose replica died before ending them, and
// runs them. Webhooks are posted by a loop of their own (webhook-sender.ts): a tick never waits on a
// receiver, which anyone who may subscribe chooses. A slot that passed unclaimed is not sent late,
// except the latest one: a restart after a day sends today's report once, and logs yesterday's as
// missed, saying why as far as this replica knows it.
import type { SubscriptionDeps } from './deps.ts';
import { executeRun } from './run-subscription.ts';
import { claimSlots, dueSubscriptions, logId, takeOverStale, type DueSubscription } from './runs-store.ts';
import { nextSlot } from './schedule.ts';
import { createWebhookSender, type WebhookSenderOptions } from './webhook-sender.ts';

/** How long a replica holds a run before another may take it over: longer than rendering a report. */
export const RUN_CLAIM_MS = 10 * 60_000;
/** Slots looked at per subscription and tick: a schedule every minute down for a week logs the rest on later ticks. */
const MAX_SLOTS = 1000;

/**
 * Why a slot passed unclaimed. Only this replica's own history is known here: a slot that came while its
 * scheduler was running passed because that replica was busy (a long tick); an earlier one, because
 * none was running or every one was busy. Never "no replica was running" while this one was.
 */
export const MISSED_WHILE_BUSY = 'A replica was running but still busy with earlier runs when this slot came; only the latest slot that passed is sent';
export const MISSED_UNCLAIMED = 'No replica claimed this slot in time (none was running, or every one was busy); only the latest slot that passed is sent';

/** The slots of a subscription from `from` up to `now`, and the slot after them. */
function slotsUpTo(cron: string, timezone: string, from: number, now: number): { slots: number[]; next: number | undefined } {
  const slots = [from];
  let next = nextSlot(cron, timezone, from);
  while (next !== undefined && next <= now && slots.length < MAX_SLOTS) {
    slots.push(next);
    next = nextSlot(cron, timezone, next);
  }
  return { slots, next };
}

/** Options of a tick: the claim's length, and since when this replica's scheduler has been ticking. */
export interface TickOptions {
  claimMs?: number;
  runningSince?: number | undefined;
}

/**
 * Due subscriptions a tick works on at once. Everyone picks Monday 9:00: one after another, the last
 * report of a hundred waited for every query, chart and mail server before it, and its slot was late.
 * Each worker still claims a slot only when it is about to run it, so other replicas take the rest.
 */
const AT_ONCE = 4;

/** Claims a due subscription's slots (the latest to run, the others as missed) and runs the latest. */
async function claimAndRun(deps: SubscriptionDeps & TickOptions, s: DueSubscription, claimMs: number): Promise<void> {
  const now = deps.clock.now();
  const { slots, next } = slotsUpTo(s.cron, s.timezone, s.next_slot_at, now);
  // More slots passed than one tick looks at: these are all missed, and a later tick reaches the latest.
  const slot = next !== undefined && next <= now ? undefined : slots.pop()!;
  const missed = slots.map((at) => ({ slot: at, reason: deps.runningSince !== undefined && at >= deps.runningSince ? MISSED_WHILE_BUSY : MISSED_UNCLAIMED }));
  // A schedule that never fires again parks far away (cron with no later date).
  const run = logId(now);
  const claimed = await claimSlots(deps.store, { id: s.id, from: s.next_slot_at, next: next ?? Number.MAX_SAFE_INTEGER, run, slot, missed, replica: deps.replicaId, now, claimMs });
  if (claimed && slot !== undefined) await executeRun(deps, { id: run, subscriptionId: s.id, slotAt: slot });
}

/** One pass: claims and runs what is due; it posts no webhook. Tests call it with a fake clock. */
export async function tick(deps: SubscriptionDeps & TickOptions): Promise<void> {
  const claimMs = deps.claimMs ?? RUN_CLAIM_MS;
  for (;;) {
    const stale = await takeOverStale(deps.store, deps.replicaId, deps.clock.now(), claimMs);
    if (!stale) break;
    await executeRun(deps, { id: stale.id, subscriptionId: stale.subscription_id, slotAt: stale.slot_at });
  }
  const due = await dueSubscriptions(deps.store, deps.clock.now(), 100);
  let taken = 0;
  let failed: { err: unknown } | undefined;
  // A failure (the store gone) stops every worker after its run, and fails the tick as before.
  const worker = async () => {
    while (taken < due.length && !failed) await claimAndRun(deps, due[taken++]!, claimMs).catch((err: unknown) => (failed ??= { err }));
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, due.length) }, worker));
  if (failed) throw failed.err;
}

/**
 * Ticks every `tickMs` until stopped (never with 0), and beside the ticks posts due webhooks, at every
 * interval and after each tick; a failing tick is logged and the next one tries again.
 */
export function startScheduler(deps: SubscriptionDeps, tickMs: number, webhookOptions: WebhookSenderOptions = {}): { stop(): Promise<void> } {
  if (tickMs === 0) return { stop: async () => {} };
  const webhooks = createWebhookSender(deps, webhookOptions);
  let running: Promise<void> | undefined;
  let since: number | undefined;
  const ticked = async () => {
    since ??= deps.clock.now();
    await tick({ ...deps, runningSince: since });
  };
  const once = () => {
    webhooks.pump();
    running ??= ticked()
      .catch((err: unknown) => deps.log.error({ err }, 'subscription scheduler tick failed'))
      .finally(() => {
        running = undefined;
        webhooks.pump();
      });
  };
  const timer = setInterval(once, tickMs);
  timer.unref();
  setImmediate(once);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await webhooks.stop();
    },
  };
}
