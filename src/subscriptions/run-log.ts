// The run log as owners and admins read it: each run with what became of each delivery. A mail's
// fate is the mail queue's (sent, retried, given up), read from it by outbox id; a webhook's is kept
// on its delivery row.
import { mailOutcomes } from '../mail/index.ts';
import type { Executor } from '../store/index.ts';
import { runRows, toRun, type DeliveryRow } from './runs-store.ts';
import type { SubscriptionRun } from './schemas.ts';

type Delivery = SubscriptionRun['deliveries'][number];

/** A subscription's runs, newest first. */
export async function listRuns(x: Executor, subscriptionId: string, limit: number): Promise<SubscriptionRun[]> {
  const { runs, deliveries } = await runRows(x, subscriptionId, limit);
  const mails = await mailOutcomes(x, deliveries.flatMap((d) => d.outbox_id ?? []));
  const byRun = new Map<string, Delivery[]>();
  for (const d of deliveries) {
    const mail = d.outbox_id === null ? undefined : mails.get(d.outbox_id);
    const list = byRun.get(d.run_id) ?? [];
    list.push(mail ? outcome({ ...d, ...mail }) : outcome(d));
    byRun.set(d.run_id, list);
  }
  return runs.map((r) => toRun(r, byRun.get(r.id) ?? []));
}

function outcome(d: Pick<DeliveryRow, 'channel' | 'target' | 'attempts' | 'sent_at' | 'failed_at' | 'last_error'>): Delivery {
  const status = d.sent_at !== null ? 'sent' : d.failed_at !== null ? 'failed' : 'pending';
  return { channel: d.channel, target: d.target, status, attempts: Number(d.attempts), error: status === 'sent' ? null : d.last_error };
}
