// A test sent by hand (owner or admin): one run at once, outside the schedule, to every channel; it
// leaves the schedule and an alert's state alone. It answers once the run is stored, with its log line.
import type { Principal } from '../auth/index.ts';
import { visibleSubscription } from './access.ts';
import type { SubscriptionDeps } from './deps.ts';
import { listRuns } from './run-log.ts';
import { executeRun } from './run-subscription.ts';
import { insertTestRunQuery, logId } from './runs-store.ts';
import { RUN_CLAIM_MS } from './scheduler.ts';
import type { SubscriptionRun } from './schemas.ts';
import { deliverWebhooks } from './webhook-sender.ts';

/** Runs the subscription now as its owner and answers the run. */
export async function sendNow(deps: SubscriptionDeps, p: Principal, id: string): Promise<SubscriptionRun> {
  await visibleSubscription(deps, p, id);
  const now = deps.clock.now();
  const run = logId(now);
  await deps.store.run(insertTestRunQuery({ run, subscriptionId: id, replica: deps.replicaId, now, claimMs: RUN_CLAIM_MS }));
  await executeRun(deps, { id: run, subscriptionId: id, slotAt: null });
  // Webhooks go out after the answer, like mail.
  setImmediate(() => void deliverWebhooks(deps).catch((err: unknown) => deps.log.warn({ err }, 'subscription webhooks: delivery failed; the next round retries')));
  const runs = await listRuns(deps.store, id, 20);
  return runs.find((r) => r.id === run)!;
}
