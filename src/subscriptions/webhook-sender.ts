// The webhook loop: deliveries are posted by a few workers of their own, beside the scheduler and never
// inside its tick, so a receiver that never answers holds one worker until its attempt's deadline and
// holds no slot of any subscription (anyone who may subscribe names the receivers). Each worker claims
// a due delivery in the store (one conditional UPDATE: no two replicas or workers post the same one),
// posts it and records the outcome, and goes on until none is due.
import type { SubscriptionDeps } from './deps.ts';
import { claimNextHook, deliverOne, WEBHOOK_TIMEOUT_MS } from './webhook-queue.ts';

/** Deliveries in flight at once per replica: enough that a few hanging receivers leave the others going. */
export const WEBHOOK_CONCURRENCY = 4;

export interface WebhookSenderOptions {
  concurrency?: number;
  /** The deadline of one attempt (tests of a hanging receiver set their own). */
  timeoutMs?: number;
}

export interface WebhookSender {
  /** Starts workers up to the bound if deliveries may be due; returns at once. */
  pump(): void;
  /** Resolves once every worker found nothing more due. */
  idle(): Promise<void>;
  /** Starts no more attempts and waits for those in flight (each ends by its deadline). */
  stop(): Promise<void>;
}

/** A bounded pool of delivery workers for this replica. */
export function createWebhookSender(deps: SubscriptionDeps, { concurrency = WEBHOOK_CONCURRENCY, timeoutMs = WEBHOOK_TIMEOUT_MS }: WebhookSenderOptions = {}): WebhookSender {
  const workers = new Set<Promise<void>>();
  let stopped = false;
  const work = async () => {
    while (!stopped) {
      const hook = await claimNextHook(deps, deps.clock.now());
      if (!hook) return;
      await deliverOne(deps, hook, timeoutMs);
    }
  };
  const idle = async () => {
    while (workers.size > 0) await Promise.all(workers);
  };
  return {
    pump() {
      while (!stopped && workers.size < concurrency) {
        const worker: Promise<void> = work()
          .catch((err: unknown) => deps.log.warn({ err }, 'subscription webhooks: delivery failed; the next round retries'))
          .finally(() => workers.delete(worker));
        workers.add(worker);
      }
    },
    idle,
    async stop() {
      stopped = true;
      await idle();
    },
  };
}

/** Posts every webhook due now, a few at a time; resolves when none is left. Tests and send-now call it. */
export async function deliverWebhooks(deps: SubscriptionDeps, options: WebhookSenderOptions = {}): Promise<void> {
  const sender = createWebhookSender(deps, options);
  sender.pump();
  await sender.idle();
}
