// Subscriptions and alerts: a saved question or a dashboard sent on a schedule (or when an alert's
// threshold is crossed) to members by mail and to channels by webhook, once per slot across replicas.
export { createSubscription } from './create-subscription.ts';
export { editSubscription, removeSubscription, type SubscriptionEdit } from './update-subscription.ts';
export { readSubscription, subscriptionRuns, subscriptionsOf } from './read-subscriptions.ts';
export { sendNow } from './send-now.ts';
export { startScheduler, tick, RUN_CLAIM_MS, MISSED_UNCLAIMED, MISSED_WHILE_BUSY, type TickOptions } from './scheduler.ts';
export { MAX_WEBHOOK_ATTEMPTS, WEBHOOK_TIMEOUT_MS } from './webhook-queue.ts';
export { createWebhookSender, deliverWebhooks, WEBHOOK_CONCURRENCY, type WebhookSender, type WebhookSenderOptions } from './webhook-sender.ts';
export { reportGivenUpMail } from './mail-give-up.ts';
export { unsubscribe, unsubscribeToken } from './unsubscribe.ts';
export { presetCron, type Preset } from './schedule.ts';
export type { SubscriptionFields } from './subscriptions-store.ts';
export type { SubscriptionDeps } from './deps.ts';
export type { SubscriptionPorts, DashboardSource, QuestionSource, Report, ReportTile } from './ports.ts';
export * from './errors.ts';
export * from './schemas.ts';
