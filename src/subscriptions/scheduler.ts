// The scheduler, run by every replica: each tick claims the slots that have come (one run per slot
// across replicas, decided in the store), takes over runs whose replica died before ending them, runs
// them, and posts due webhooks. A slot that passed while no replica ran is not sent late, except the
// latest one: a restart after a day sends today's report once, and logs yesterday's as missed.
import type { SubscriptionDeps } from './deps.ts';
import { executeRun } from './run-subscription.ts';
import { claimSlots, dueSubscriptions, logId, takeOverStale } from './runs-store.ts';
import { nextSlot } from './schedule.ts';
import { deliverWebhooks } from './webhook-queue.ts';

/** How long a replica holds a run before another may take it over: longer than rendering a report. */
export const RUN_CLAIM_MS = 10 * 60_000;
/** Slots looked at per subscription and tick: a schedule every minute down for a week logs the rest on later ticks. */
const MAX_SLOTS = 1000;

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

/** One pass: claims and runs what is due, then posts due webhooks. Tests call it with a fake clock. */
export async function tick(deps: SubscriptionDeps & { claimMs?: number }): Promise<void> {
  const claimMs = deps.claimMs ?? RUN_CLAIM_MS;
  for (;;) {
    const stale = await takeOverStale(deps.store, deps.replicaId, deps.clock.now(), claimMs);
    if (!stale) break;
    await executeRun(deps, { id: stale.id, subscriptionId: stale.subscription_id, slotAt: stale.slot_at });
  }
  for (const s of await dueSubscriptions(deps.store, deps.clock.now(), 100)) {
    const now = deps.clock.now();
    const { slots, next } = slotsUpTo(s.cron, s.timezone, s.next_slot_at, now);
    // More slots passed than one tick looks at: these are all missed, and a later tick reaches the latest.
    const slot = next !== undefined && next <= now ? undefined : slots.pop()!;
    // A schedule that never fires again parks far away (cron with no later date).
    const run = logId(now);
    const claimed = await claimSlots(deps.store, { id: s.id, from: s.next_slot_at, next: next ?? Number.MAX_SAFE_INTEGER, run, slot, missed: slots, replica: deps.replicaId, now, claimMs });
    if (claimed && slot !== undefined) await executeRun(deps, { id: run, subscriptionId: s.id, slotAt: slot });
  }
  await deliverWebhooks(deps);
}

/** Ticks every `tickMs` until stopped (never with 0); a failing tick is logged and the next one tries again. */
export function startScheduler(deps: SubscriptionDeps, tickMs: number): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const once = () => {
    running ??= tick(deps)
      .catch((err: unknown) => deps.log.error({ err }, 'subscription scheduler tick failed'))
      .finally(() => (running = undefined));
  };
  if (tickMs === 0) return { stop: async () => {} };
  const timer = setInterval(once, tickMs);
  timer.unref();
  setImmediate(once);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
