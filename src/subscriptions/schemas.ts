// Subscriptions as the API shows them; the same zod schemas document requests and responses in OpenAPI.
import { z } from 'zod';

/** An address a report is mailed to: one mailbox, no display name, no line break (no header injection). */
export const Address = z.email().max(254);

export const EmailChannel = z.object({ type: z.literal('email'), to: z.array(Address).min(1).max(50) });
export const WebhookFormat = z.enum(['slack', 'teams', 'json']);
export const WebhookChannel = z.object({
  type: z.literal('webhook'),
  url: z.url({ protocol: /^https?$/ }).max(2000).describe('Reached through the outbound rules: internal addresses are refused unless the operator allowed them'),
  format: WebhookFormat.describe("Slack's or Teams' incoming-webhook body, or plain JSON"),
});
export const Channel = z.discriminatedUnion('type', [EmailChannel, WebhookChannel]);
export type Channel = z.infer<typeof Channel>;

export const AlertOp = z.enum(['<', '<=', '>', '>=', '=', '!=']);
/** Sends only when the first row's value of `column` newly satisfies `op threshold`. */
export const Alert = z.object({ column: z.string().min(1).max(200), op: AlertOp, threshold: z.number() });
export type Alert = z.infer<typeof Alert>;

export const Schedule = z.object({ cron: z.string().describe('Five fields: minute hour day-of-month month day-of-week'), timezone: z.string().describe('IANA time zone, e.g. Europe/Paris') });
export type Schedule = z.infer<typeof Schedule>;

export const SubscriptionStatus = z.enum(['active', 'paused', 'stopped']);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

export const Subscription = z.object({
  id: z.string(),
  owner_id: z.string(),
  saved_question_id: z.string().nullable(),
  dashboard_id: z.string().nullable(),
  schedule: Schedule,
  channels: z.array(Channel),
  alert: Alert.nullable(),
  status: SubscriptionStatus,
  stopped_reason: z.string().nullable().describe('Why the subscription stopped (the owner lost access)'),
  next_run_at: z.string().nullable().describe('The next schedule slot (ISO 8601), while active'),
  unsubscribed: z.array(z.string()).describe('Addresses that followed the unsubscribe link: no longer mailed'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Subscription = z.infer<typeof Subscription>;

export const RunStatus = z.enum(['running', 'sent', 'not_crossed', 'failed', 'missed', 'stopped']);
export type RunStatus = z.infer<typeof RunStatus>;

export const Delivery = z.object({
  channel: z.enum(['email', 'webhook']),
  target: z.string().describe('The address, or the webhook host'),
  status: z.enum(['pending', 'sent', 'failed']),
  attempts: z.number().int(),
  error: z.string().nullable(),
});

export const SubscriptionRun = z.object({
  id: z.string(),
  slot_at: z.string().nullable().describe('The schedule slot; null for a test sent by hand'),
  status: RunStatus,
  started_at: z.string(),
  finished_at: z.string().nullable(),
  duration_ms: z.number().nullable(),
  error: z.string().nullable(),
  deliveries: z.array(Delivery),
});
export type SubscriptionRun = z.infer<typeof SubscriptionRun>;
