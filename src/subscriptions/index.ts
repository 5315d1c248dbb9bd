// Subscriptions and alerts: a saved question or a dashboard sent on a schedule (or when an alert's
// threshold is crossed) to members by mail and to channels by webhook, once per slot across replicas.
export { createSubscription } from './create-subscription.ts';
export { editSubscription, removeSubscription, type SubscriptionEdit } from './update-subscription.ts';
export { readSubscription, subscriptionRuns, subscriptionsOf } from './read-subscriptions.ts';
export { sendNow } from './send-now.ts';
export { startScheduler, tick, RUN_CLAIM_MS } from './scheduler.ts';
export { deliverWebhooks, MAX_WEBHOOK_ATTEMPTS } from './webhook-queue.ts';
export { reportGivenUpMail } from './mail-give-up.ts';
export { unsubscribe, unsubscribeToken } from './unsubscribe.ts';
export { presetCron, type Preset } from './schedule.ts';
export type { SubscriptionFields } from './subscriptions-store.ts';
export type { SubscriptionDeps } from './deps.ts';
export type { SubscriptionPorts, DashboardSource, QuestionSource, Report, ReportTile } from './ports.ts';
export * from './errors.ts';
export * from './schemas.ts';
