// Subscriptions and alerts: list (mine, or an admin's whole organization), create, read, edit (pause
// and resume too), delete, send a test now, the run log, and the one-click unsubscribe of a mail link.
import { z } from 'zod';
import {
  Alert,
  Channel,
  createSubscription,
  editSubscription,
  presetCron,
  readSubscription,
  removeSubscription,
  sendNow,
  Subscription,
  SubscriptionRun,
  subscriptionRuns,
  subscriptionsOf,
  unsubscribe,
} from '../../subscriptions/index.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const Id = z.object({ id: z.string().min(1).max(100) });
const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM');

const ScheduleIn = z
  .object({
    cron: z.string().min(1).max(100).optional().describe('Five fields: minute hour day-of-month month day-of-week; or a preset with every/at/day'),
    every: z.enum(['day', 'week', 'month']).optional().describe('A preset instead of cron: every day, week or month'),
    at: Time.optional().describe('Preset: the time of day, HH:MM'),
    day: z.number().int().min(0).max(31).optional().describe('Preset: day of the week (0 Sunday to 6) or of the month (1 to 31)'),
    timezone: z.string().min(1).max(64).describe('IANA time zone, e.g. Europe/Paris'),
  })
  // Both would leave one silently unused: refused, on the schedule as a whole, before the other checks.
  .refine((s) => s.cron === undefined || (s.every === undefined && s.at === undefined && s.day === undefined), { message: 'Either cron or a preset (every, at, day), not both', path: [] })
  .refine((s) => s.cron !== undefined || (s.every !== undefined && s.at !== undefined), { message: 'Field required', path: ['cron'] })
  .refine((s) => s.every !== 'week' || (s.day !== undefined && s.day <= 6), { message: 'A weekly preset needs day 0 (Sunday) to 6', path: ['day'] })
  .refine((s) => s.every !== 'month' || (s.day !== undefined && s.day >= 1), { message: 'A monthly preset needs day 1 to 31', path: ['day'] })
  .transform((s) => ({
    timezone: s.timezone,
    cron: s.cron ?? presetCron(s.every === 'day' ? { every: 'day', at: s.at! } : { every: s.every!, day: s.day!, at: s.at! }),
  }));

const Channels = z.array(Channel).min(1).max(10);

const CreateBody = z
  .object({
    saved_question_id: z.string().min(1).max(100).optional(),
    dashboard_id: z.string().min(1).max(100).optional(),
    schedule: ScheduleIn,
    channels: Channels,
    alert: Alert.nullable().optional().describe('Send only when the first row\'s value of the column crosses the threshold, once per crossing (saved questions only)'),
  })
  .refine((b) => (b.saved_question_id === undefined) !== (b.dashboard_id === undefined), { message: 'Exactly one of saved_question_id and dashboard_id', path: ['saved_question_id'] });

/** Subscription routes. */
export function subscriptionRoutes(s: Services) {
  const tags = ['subscriptions'];
  const deps = s.subscriptions;
  return [
    route({
      method: 'GET',
      path: '/api/subscriptions',
      operationId: 'list_subscriptions',
      summary: "The caller's subscriptions, newest first; with all=true, an admin gets every subscription of the organization",
      tags,
      auth: 'user',
      query: z.object({ all: z.enum(['true', 'false']).optional() }),
      response: z.object({ subscriptions: z.array(Subscription) }),
      handler: async ({ principal, query }) => ({ subscriptions: await subscriptionsOf(deps, principal, { all: query.all === 'true' }) }),
    }),
    route({
      method: 'POST',
      path: '/api/subscriptions',
      operationId: 'create_subscription',
      summary: 'Subscribes to a saved question or a dashboard on a schedule (cron or a preset, in a time zone), by mail and webhook, optionally as an alert',
      description:
        'Runs execute as the owner with their permissions at the time of the run. Mail goes to members of the organization unless an admin allowed other addresses (403 EXTERNAL_RECIPIENT_REFUSED); webhooks go through the outbound rules (an address they refuse: 422).',
      tags,
      auth: 'user',
      body: CreateBody,
      status: 201,
      response: Subscription,
      errors: { 403: 'A recipient outside the organization, not allowed by an admin', 404: 'Saved question or dashboard not found' },
      handler: ({ principal, body }) =>
        createSubscription(deps, principal, {
          saved_question_id: body.saved_question_id ?? null,
          dashboard_id: body.dashboard_id ?? null,
          cron: body.schedule.cron,
          timezone: body.schedule.timezone,
          channels: body.channels,
          alert: body.alert ?? null,
        }),
    }),
    route({
      method: 'GET',
      path: '/api/subscriptions/{id}',
      operationId: 'get_subscription',
      summary: 'One subscription (its owner, or an admin)',
      tags,
      auth: 'user',
      params: Id,
      response: Subscription,
      errors: { 404: 'Subscription not found' },
      handler: ({ principal, params }) => readSubscription(deps, principal, params.id),
    }),
    route({
      method: 'PATCH',
      path: '/api/subscriptions/{id}',
      operationId: 'update_subscription',
      summary: 'Changes the schedule, channels or alert (the owner), or pauses and resumes (the owner or an admin)',
      description: 'A resumed subscription starts at its next slot; slots that passed while paused are not sent.',
      tags,
      auth: 'user',
      params: Id,
      body: z.object({ schedule: ScheduleIn.optional(), channels: Channels.optional(), alert: Alert.nullable().optional(), status: z.enum(['active', 'paused']).optional() }),
      response: Subscription,
      errors: { 403: 'Not the owner (an admin may only pause and resume), or a recipient outside the organization', 404: 'Subscription not found' },
      handler: ({ principal, params, body }) => editSubscription(deps, principal, params.id, body),
    }),
    route({
      method: 'DELETE',
      path: '/api/subscriptions/{id}',
      operationId: 'delete_subscription',
      summary: 'Deletes a subscription and its run log (the owner)',
      tags,
      auth: 'user',
      params: Id,
      response: z.object({ deleted: z.literal(true) }),
      errors: { 403: 'Not the owner', 404: 'Subscription not found' },
      handler: async ({ principal, params }) => {
        await removeSubscription(deps, principal, params.id);
        return { deleted: true as const };
      },
    }),
    route({
      method: 'POST',
      path: '/api/subscriptions/{id}/send_now',
      operationId: 'send_subscription_now',
      summary: 'Sends once at once, for a test (the owner or an admin), as the owner; answers the run',
      description: 'An alert is sent whatever its condition, and its state is left alone. Mail and webhooks are delivered after the answer: the run\'s deliveries say pending until then.',
      tags,
      auth: 'user',
      params: Id,
      response: SubscriptionRun,
      errors: { 404: 'Subscription not found' },
      handler: ({ principal, params }) => sendNow(deps, principal, params.id),
    }),
    route({
      method: 'GET',
      path: '/api/subscriptions/{id}/runs',
      operationId: 'list_subscription_runs',
      summary: 'The run log: when, to whom, how long, what failed (the owner or an admin), newest first',
      tags,
      auth: 'user',
      params: Id,
      query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
      response: z.object({ runs: z.array(SubscriptionRun) }),
      errors: { 404: 'Subscription not found' },
      handler: async ({ principal, params, query }) => ({ runs: await subscriptionRuns(deps, principal, params.id, query.limit) }),
    }),
    route({
      method: 'POST',
      path: '/api/subscriptions/unsubscribe',
      operationId: 'unsubscribe',
      summary: "Stops mailing the address of an unsubscribe link (one click, no sign-in: the link's token is signed)",
      description: "The target of the mails' List-Unsubscribe header (RFC 8058 one-click: the token in the query, a form body) and of the web client's unsubscribe page (the token in the query or a JSON body).",
      tags,
      auth: 'none',
      query: z.object({ token: z.string().min(1).max(1000).optional() }),
      bodyType: 'json_or_form',
      body: z.object({ token: z.string().min(1).max(1000).optional(), 'List-Unsubscribe': z.string().max(100).optional() }).optional(),
      response: z.object({ unsubscribed: z.literal(true), address: z.string() }),
      errors: { 400: 'The link is not valid' },
      handler: async ({ query, body }) => ({ unsubscribed: true as const, ...(await unsubscribe(deps, query.token ?? body?.token ?? '')) }),
    }),
  ];
}
