// The rules a subscription's fields must keep beyond their schema: a schedule croner reads, a source
// the owner may read, an alert only on a saved question, recipients inside the organization unless an
// admin allowed others, and webhooks the outbound rules let through.
import type { Principal } from '../auth/index.ts';
import { OutboundFailed } from '../outbound/index.ts';
import type { SubscriptionDeps } from './deps.ts';
import { ExternalRecipientRefused, invalidField } from './errors.ts';
import { scheduleProblem } from './schedule.ts';
import type { SubscriptionFields } from './subscriptions-store.ts';

/** Throws the first rule the fields break (422, 403 or the source's 404). */
export async function checkFields(deps: SubscriptionDeps, p: Principal, f: SubscriptionFields): Promise<void> {
  const problem = scheduleProblem(f.cron, f.timezone);
  if (problem) throw invalidField(['schedule', problem === 'Unknown time zone' ? 'timezone' : 'cron'], problem);
  if (f.alert && !f.saved_question_id) throw invalidField(['alert'], 'Alerts watch a saved question, not a dashboard');
  if (f.saved_question_id) await deps.ports.questions.check(p, f.saved_question_id);
  else await deps.ports.dashboards.check(p, f.dashboard_id!);
  await checkRecipients(deps, p.orgId, f);
  await checkWebhooks(deps, f);
}

async function checkRecipients(deps: SubscriptionDeps, orgId: string, f: SubscriptionFields): Promise<void> {
  const addresses = [...new Set(f.channels.flatMap((c) => (c.type === 'email' ? c.to.map((a) => a.toLowerCase()) : [])))];
  if (addresses.length === 0) return;
  const members = await deps.ports.memberAddresses(orgId, addresses);
  if (addresses.every((a) => members.has(a))) return;
  if (!(await deps.ports.externalRecipientsAllowed(orgId))) throw new ExternalRecipientRefused();
}

async function checkWebhooks(deps: SubscriptionDeps, f: SubscriptionFields): Promise<void> {
  for (const [i, c] of f.channels.entries()) {
    if (c.type !== 'webhook') continue;
    try {
      await deps.checkHost(new URL(c.url).hostname);
    } catch (err) {
      // A name that does not resolve today may tomorrow; an address the rules refuse never will.
      if (err instanceof OutboundFailed && err.reason === 'refused') throw invalidField(['channels', i, 'url'], 'The outbound rules refuse this address');
    }
  }
}
