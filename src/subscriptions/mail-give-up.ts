// A report mail the relay refused for good is reported to its subscription's owner, as a webhook given
// up is (webhook-queue.ts): the mail queue's give-up hook stages the notice, stored in the batch that
// marks the mail failed, so it is written once. Only mails of subscription runs are reported (found by
// their outbox id in subscription_deliveries): a notice that fails in turn is no run's mail, so a notice
// never causes another. Nor is the owner told through the very address that is failing.
import { sql } from 'kysely';
import type { GivenUpMail, GiveUpHook } from '../mail/index.ts';
import type { SubscriptionDeps } from './deps.ts';

/** The give-up hook the subscriptions add to the mail queue. */
export function reportGivenUpMail(deps: SubscriptionDeps): GiveUpHook {
  return async (mail: GivenUpMail) => {
    const sub = await deps.store.one(sql<{ id: string; owner_id: string }>`SELECT s.id, s.owner_id FROM subscription_deliveries d
      JOIN subscription_runs r ON r.id = d.run_id JOIN subscriptions s ON s.id = r.subscription_id WHERE d.outbox_id = ${mail.id}`);
    if (!sub) return undefined;
    const address = await deps.ports.emailOf(sub.owner_id);
    if (!address || address.toLowerCase() === mail.to.toLowerCase()) return undefined;
    const tries = `${mail.attempts} attempt${mail.attempts === 1 ? '' : 's'}`;
    return [
      deps.mail.stage({
        to: address,
        subject: 'A Sextant subscription of yours could not deliver a mail',
        text: `Your subscription ${sub.id} could not mail its report to ${mail.to} after ${tries} and gave up.\n\nLast error: ${mail.error}\n\nThe run log is at ${deps.baseUrl}/subscriptions`,
      }),
    ];
  };
}
