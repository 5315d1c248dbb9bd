// Webhook deliveries: claimed one by one with a conditional UPDATE (as the mail queue claims mail),
// posted through the guarded outbound client within a deadline of their own (by webhook-sender.ts,
// never by the scheduler's tick), retried with doubling waits, and given up after
// MAX_WEBHOOK_ATTEMPTS or at once when the outbound rules refuse the address; a delivery given up is
// reported in the run log, in the log and by a mail to the subscription's owner (staged in the batch
// that marks it failed, so a replica killed in between neither loses nor doubles the notice).
import { sql } from 'kysely';
import { OutboundFailed } from '../outbound/index.ts';
import type { SubscriptionDeps } from './deps.ts';

export const MAX_WEBHOOK_ATTEMPTS = 5;
/** Waits between attempts: 30 s, 1, 2, 4 minutes. */
export const webhookRetryMs = (attempts: number) => 30_000 * 2 ** (attempts - 1);
/** The deadline of one attempt, answer included: a chat webhook answers in a second; one that does not, fails and is retried. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Longer than an attempt may take (its deadline, and the outbound client's 30 s): a sender that died leaves it to another after. */
const CLAIM_MS = 2 * 60_000;

/** A delivery claimed by this replica: its URL sealed, its body as stored. */
export interface DueHook {
  id: string;
  run_id: string;
  target: string;
  url: string;
  payload: string;
  attempts: number;
}

/** Claims the delivery due first, or answers undefined when none is due (or another replica took it). */
export async function claimNextHook(deps: SubscriptionDeps, now: number): Promise<DueHook | undefined> {
  return deps.store.one(sql<DueHook>`UPDATE subscription_deliveries SET next_attempt_at = ${now + CLAIM_MS}
    WHERE id = (SELECT id FROM subscription_deliveries WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ${now} ORDER BY next_attempt_at, id LIMIT 1)
      AND next_attempt_at <= ${now}
    RETURNING id, run_id, target, url, payload, attempts`);
}

async function post(deps: SubscriptionDeps, hook: DueHook, timeoutMs: number): Promise<string | undefined> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const res = await deps.fetch(deps.secretBox.open(hook.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: hook.payload, redirect: 'manual', signal: deadline });
    await res.body?.cancel();
    return res.ok ? undefined : `HTTP ${res.status}`;
  } catch (err) {
    if (err instanceof OutboundFailed && err.reason === 'refused') return 'refused';
    return deadline.aborted ? `No answer within ${timeoutMs / 1000} s` : 'unreachable';
  }
}

/** Posts one claimed delivery and records the outcome: sent, retried later, or given up. */
export async function deliverOne(deps: SubscriptionDeps, hook: DueHook, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<void> {
  const error = await post(deps, hook, timeoutMs);
  const now = deps.clock.now();
  const attempts = Number(hook.attempts) + 1;
  if (error === undefined) {
    await deps.store.run(sql`UPDATE subscription_deliveries SET sent_at = ${now}, next_attempt_at = NULL, payload = NULL, attempts = ${attempts} WHERE id = ${hook.id}`);
    return;
  }
  const message = error === 'refused' ? 'The outbound rules refuse this address' : error;
  if (error === 'refused' || attempts >= MAX_WEBHOOK_ATTEMPTS) return giveUp(deps, hook, { attempts, message, now });
  await deps.store.run(sql`UPDATE subscription_deliveries SET next_attempt_at = ${now + webhookRetryMs(attempts)}, attempts = ${attempts}, last_error = ${message} WHERE id = ${hook.id}`);
}

/** Marks a delivery failed for good and mails its subscription's owner, in one batch. */
async function giveUp(deps: SubscriptionDeps, hook: DueHook, { attempts, message, now }: { attempts: number; message: string; now: number }): Promise<void> {
  const sub = await deps.store.one(sql<{ id: string; owner_id: string }>`SELECT s.id, s.owner_id FROM subscription_runs r JOIN subscriptions s ON s.id = r.subscription_id WHERE r.id = ${hook.run_id}`);
  const address = sub ? await deps.ports.emailOf(sub.owner_id) : undefined;
  const notice = sub && address
    ? deps.mail.stage({
        to: address,
        subject: 'A Sextant subscription of yours could not deliver to a webhook',
        text: `Your subscription ${sub.id} could not post its report to ${hook.target} after ${attempts} attempt${attempts === 1 ? '' : 's'} and gave up.\n\nLast error: ${message}.\n\nThe run log is at ${deps.baseUrl}/subscriptions`,
      })
    : undefined;
  const res = await deps.store.batch(
    [sql`UPDATE subscription_deliveries SET failed_at = ${now}, next_attempt_at = NULL, payload = NULL, attempts = ${attempts}, last_error = ${message} WHERE id = ${hook.id} AND failed_at IS NULL`, ...(notice ? [notice.query] : [])],
    { require: [0] },
  );
  if (res.ok) notice?.committed();
  deps.log.error({ delivery_id: hook.id, subscription_id: sub?.id, attempts, err: message }, 'subscription webhook failed for good; shown in the run log and mailed to the owner');
}
