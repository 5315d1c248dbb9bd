// Webhook deliveries: claimed one by one with a conditional UPDATE (as the mail queue claims mail),
// posted through the guarded outbound client, retried with doubling waits, and given up after
// MAX_WEBHOOK_ATTEMPTS or at once when the outbound rules refuse the address; a delivery given up is
// reported in the run log and in the log.
import { sql } from 'kysely';
import { OutboundFailed } from '../outbound/index.ts';
import type { SubscriptionDeps } from './deps.ts';

export const MAX_WEBHOOK_ATTEMPTS = 5;
/** Waits between attempts: 30 s, 1, 2, 4 minutes. */
export const webhookRetryMs = (attempts: number) => 30_000 * 2 ** (attempts - 1);
/** Longer than a request may take (the outbound client's deadline is 30 s): a sender that died leaves it to another after. */
const CLAIM_MS = 2 * 60_000;

interface DueHook {
  id: string;
  url: string;
  payload: string;
  attempts: number;
}

async function claimNext(deps: SubscriptionDeps, now: number): Promise<DueHook | undefined> {
  return deps.store.one(sql<DueHook>`UPDATE subscription_deliveries SET next_attempt_at = ${now + CLAIM_MS}
    WHERE id = (SELECT id FROM subscription_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ${now} ORDER BY next_attempt_at, id LIMIT 1)
      AND next_attempt_at <= ${now}
    RETURNING id, url, payload, attempts`);
}

/** Posts every webhook due now; resolves when none is left (or one was lost to another replica). */
export async function deliverWebhooks(deps: SubscriptionDeps): Promise<void> {
  for (;;) {
    const hook = await claimNext(deps, deps.clock.now());
    if (!hook) return;
    await deliverOne(deps, hook);
  }
}

async function post(deps: SubscriptionDeps, hook: DueHook): Promise<string | undefined> {
  try {
    const res = await deps.fetch(deps.secretBox.open(hook.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: hook.payload, redirect: 'manual' });
    await res.body?.cancel();
    return res.ok ? undefined : `HTTP ${res.status}`;
  } catch (err) {
    return err instanceof OutboundFailed && err.reason === 'refused' ? 'refused' : 'unreachable';
  }
}

async function deliverOne(deps: SubscriptionDeps, hook: DueHook): Promise<void> {
  const error = await post(deps, hook);
  const now = deps.clock.now();
  const attempts = Number(hook.attempts) + 1;
  if (error === undefined) {
    await deps.store.run(sql`UPDATE subscription_deliveries SET sent_at = ${now}, next_attempt_at = NULL, payload = NULL, attempts = ${attempts} WHERE id = ${hook.id}`);
    return;
  }
  const message = error === 'refused' ? 'The outbound rules refuse this address' : error;
  if (error === 'refused' || attempts >= MAX_WEBHOOK_ATTEMPTS) {
    await deps.store.run(sql`UPDATE subscription_deliveries SET failed_at = ${now}, next_attempt_at = NULL, payload = NULL, attempts = ${attempts}, last_error = ${message} WHERE id = ${hook.id}`);
    deps.log.error({ delivery_id: hook.id, attempts, err: message }, 'subscription webhook failed for good; shown in the run log');
    return;
  }
  await deps.store.run(sql`UPDATE subscription_deliveries SET next_attempt_at = ${now + webhookRetryMs(attempts)}, attempts = ${attempts}, last_error = ${message} WHERE id = ${hook.id}`);
}
