// One run of a subscription, as its owner: the owner's permissions at the time of the run render the
// report; an owner who lost access stops the subscription with a notice to them. Everything the run
// sends (mail into the outbox, webhooks into their queue) is stored in the one batch that ends the
// run, and only if this replica still holds it: a run ended twice (a replica presumed dead, and taken
// over, that comes back) sends nothing the second time, and a crash before that batch sends nothing.
import { AppError } from '../errors.ts';
import type { StagedMail } from '../mail/index.ts';
import type { Query } from '../store/index.ts';
import { sql } from 'kysely';
import { checkAlert } from './alert.ts';
import { drawCharts } from './draw-charts.ts';
import type { SubscriptionDeps } from './deps.ts';
import type { Report } from './ports.ts';
import { reportMail } from './report-mail.ts';
import { emailDeliveryQuery, finishRunQuery, webhookDeliveryQuery } from './runs-store.ts';
import type { Alert, Channel } from './schemas.ts';
import { setStatusQuery, subscriptionById, unsubscribedOf, type SubscriptionRow } from './subscriptions-store.ts';
import { oneClickUrl, unsubscribeToken, unsubscribeUrl } from './unsubscribe.ts';
import { webhookBody } from './webhook-payload.ts';
import { openChannels } from './sealed-channels.ts';

/** A claimed run: its row, the slot (null for a test sent by hand). */
export interface ClaimedRun {
  id: string;
  subscriptionId: string;
  slotAt: number | null;
}

/** Runs a claimed run to its end; resolves once its batch committed (or another replica had it). */
export async function executeRun(deps: SubscriptionDeps, run: ClaimedRun): Promise<void> {
  const s = await subscriptionById(deps.store, run.subscriptionId);
  if (!s) return;
  deps.log.info({ subscription_id: s.id, run_id: run.id, slot_at: run.slotAt, replica: deps.replicaId }, 'subscription run started');
  const owner = await deps.ports.principalOf(s.org_id, s.owner_id);
  if (!owner) return stop(deps, s, run, 'The owner is no longer an active member of the organization');
  let report: Report;
  try {
    report = s.saved_question_id ? await deps.ports.questions.render(owner, s.saved_question_id) : await deps.ports.dashboards.render(owner, s.dashboard_id!);
  } catch (err) {
    if (err instanceof AppError && (err.kind === 'not_found' || err.kind === 'forbidden')) return stop(deps, s, run, `The owner can no longer read what it sends: ${err.message}`);
    return fail(deps, s, run, err instanceof AppError ? err.message : 'The report could not be made', err);
  }
  await send(deps, s, run, report);
}

/** Sends the report, or (an alert that did not newly cross) records that it was not sent. */
async function send(deps: SubscriptionDeps, s: SubscriptionRow, run: ClaimedRun, report: Report): Promise<void> {
  const alert = s.alert === null ? null : (JSON.parse(s.alert) as Alert);
  const check = alert ? checkAlert(alert, report) : undefined;
  // Failed like a query that failed (a test sent by hand too: it is where an owner checks an alert),
  // and the alert's state is left as it was.
  if (check?.problem !== undefined) return fail(deps, s, run, check.problem);
  const state = check ? [sql`UPDATE subscriptions SET alert_crossed = ${check.holds ? 1 : 0} WHERE id = ${s.id}`] : [];
  // A test sent by hand always sends and leaves the alert's state alone.
  if (check && run.slotAt !== null && (!check.holds || Number(s.alert_crossed) === 1)) {
    await deps.store.batch([finishRunQuery({ run: run.id, replica: deps.replicaId, status: 'not_crossed', now: deps.clock.now() }), ...state], { require: [0] });
    return;
  }
  const pngs = await drawCharts(deps.log, report);
  const out = await deliveries(deps, s, run, report, pngs, check?.line);
  const now = deps.clock.now();
  const res = await deps.store.batch(
    [finishRunQuery({ run: run.id, replica: deps.replicaId, status: 'sent', now, recipients: out.recipients }), ...out.queries, ...(run.slotAt === null ? [] : state)],
    { require: [0] },
  );
  if (res.ok) for (const m of out.mails) m.committed();
}

/** The statements that store what a run sends, per channel target. */
async function deliveries(deps: SubscriptionDeps, s: SubscriptionRow, run: ClaimedRun, report: Report, pngs: (string | undefined)[], alertLine: string | undefined) {
  const channels = openChannels(deps.secretBox, s.channels);
  const now = deps.clock.now();
  const to = await recipients(deps, s, channels);
  const mails: StagedMail[] = [];
  const queries: Query[] = [];
  for (const address of to) {
    const token = unsubscribeToken(deps.linkKey, s.id, address);
    const m = deps.mail.stage(reportMail({ to: address, report, pngs, timeZone: s.timezone, unsubscribeUrl: unsubscribeUrl(deps.baseUrl, token), oneClickUrl: oneClickUrl(deps.baseUrl, token), alertLine }));
    mails.push(m);
    queries.push(m.query, emailDeliveryQuery(run.id, address, m.id, now));
  }
  const link = s.saved_question_id ? `${deps.baseUrl}/saved/${encodeURIComponent(s.saved_question_id)}` : `${deps.baseUrl}/subscriptions`;
  const hooks = channels.flatMap((c) => (c.type === 'webhook' ? [c] : []));
  for (const h of hooks) queries.push(webhookDeliveryQuery(run.id, { host: new URL(h.url).host, sealedUrl: deps.secretBox.seal(h.url) }, webhookBody(h.format, { subscriptionId: s.id, report, link, slotAt: run.slotAt, alertLine }), now));
  const recipientsLog = [...to.map((target) => ({ channel: 'email', target })), ...hooks.map((h) => ({ channel: 'webhook', target: new URL(h.url).host }))];
  return { mails, queries, recipients: recipientsLog };
}

/** The addresses mailed now: not unsubscribed, and members unless an admin allows others (checked again at each run). */
async function recipients(deps: SubscriptionDeps, s: SubscriptionRow, channels: Channel[]): Promise<string[]> {
  const all = [...new Set(channels.flatMap((c) => (c.type === 'email' ? c.to.map((a) => a.toLowerCase()) : [])))];
  const gone = new Set((await unsubscribedOf(deps.store, [s.id])).get(s.id));
  const wanted = all.filter((a) => !gone.has(a));
  if (wanted.length === 0 || (await deps.ports.externalRecipientsAllowed(s.org_id))) return wanted;
  const members = await deps.ports.memberAddresses(s.org_id, wanted);
  return wanted.filter((a) => members.has(a));
}

/** Ends the run as failed with its error; the next slot runs as usual. */
async function fail(deps: SubscriptionDeps, s: SubscriptionRow, run: ClaimedRun, error: string, err?: unknown): Promise<void> {
  deps.log.warn({ subscription_id: s.id, run_id: run.id, err: err ?? error }, 'subscription run failed');
  await deps.store.batch([finishRunQuery({ run: run.id, replica: deps.replicaId, status: 'failed', now: deps.clock.now(), error })]);
}

/** Stops the subscription and tells its owner, in the batch that ends the run. */
async function stop(deps: SubscriptionDeps, s: SubscriptionRow, run: ClaimedRun, reason: string): Promise<void> {
  const now = deps.clock.now();
  const address = await deps.ports.emailOf(s.owner_id);
  const notice = address
    ? deps.mail.stage({
        to: address,
        subject: 'A Sextant subscription of yours stopped',
        text: `Your subscription ${s.id} stopped and sends nothing more.\n\n${reason}.\n\nYou can see it at ${deps.baseUrl}/subscriptions`,
      })
    : undefined;
  const res = await deps.store.batch(
    [finishRunQuery({ run: run.id, replica: deps.replicaId, status: 'stopped', now, error: reason }), setStatusQuery(s.id, { status: 'stopped', reason, at: now }), ...(notice ? [notice.query] : [])],
    { require: [0] },
  );
  if (res.ok) notice?.committed();
  deps.log.info({ subscription_id: s.id }, 'subscription stopped: its owner lost access');
}

