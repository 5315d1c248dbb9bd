// Usage and monthly credit limits for admins (issue 23). A reached limit refuses NEW answers with
// 429 CREDIT_LIMIT_REACHED and Retry-After set to the start of the next month (UTC); see
// src/agent/usage/credit-limits.ts. A user's limit is only set for a member of the organization.
import { z } from 'zod';
import { creditLimits, setCreditLimit, usageByUserAndDay } from '../../agent/index.ts';
import { setMemberCreditLimit } from '../../compose/member-credit-limit.ts';
import { ValidationFailed } from '../../errors.ts';
import { dateMs, DateParam } from '../admin-dates.ts';
import { route } from '../route.ts';
import type { Services } from '../../compose/services.ts';

const MAX_RANGE_DAYS = 366;
const UsageDay = z.object({
  day: z.string().describe('YYYY-MM-DD (UTC)'), user_id: z.string(), questions: z.number().int(), queries: z.number().int(),
  input_tokens: z.number().int(), output_tokens: z.number().int(), credits: z.number(),
});
const Limit = z.object({ user_id: z.string().nullable().describe("null: the organization's limit"), monthly_credits: z.number(), used_this_month: z.number() });
const LimitBody = z.object({ monthly_credits: z.number().min(0).max(1e12).nullable().describe('null removes the limit') }).strict();

/** Usage and credit-limit routes for admins. */
export function adminUsageRoutes(s: Services) {
  const common = { tags: ['admin'], auth: 'user' as const, role: 'admin' as const };
  return [
    route({
      ...common, method: 'GET', path: '/api/admin/usage', operationId: 'admin_usage',
      query: z.object({ from: DateParam.optional().describe('Inclusive; default 30 days before `to`'), to: DateParam.optional().describe('A date includes that whole day (UTC); a date-time is the exclusive end; default now (exclusive)'), user_id: z.string().min(1).max(200).optional() }),
      response: z.object({ from: z.string().describe('Inclusive start'), to: z.string().describe('Exclusive end (the day after a `to` date)'), days: z.array(UsageDay) }),
      summary: 'Admin: questions, queries, model tokens and credits per user and per day (UTC) over a range of at most 366 days',
      handler: async ({ principal, query }) => {
        const to = dateMs(query.to, 'to', true) ?? s.clock.now();
        const from = dateMs(query.from, 'from', false) ?? to - 30 * 86_400_000;
        if (from > to || to - from > MAX_RANGE_DAYS * 86_400_000) {
          throw new ValidationFailed([{ loc: ['query', 'from'], msg: `from must be before to, at most ${MAX_RANGE_DAYS} days apart`, type: 'value_error' }]);
        }
        const days = await usageByUserAndDay(s.usage, { orgId: principal.orgId, from, to, userId: query.user_id });
        return { from: new Date(from).toISOString(), to: new Date(to).toISOString(), days };
      },
    }),
    route({
      ...common, method: 'GET', path: '/api/admin/credit-limits', operationId: 'admin_list_credit_limits',
      response: z.object({ limits: z.array(Limit) }),
      summary: "Admin: the organization's and its users' monthly credit limits with this month's use",
      handler: async ({ principal }) => ({ limits: await creditLimits(s.usage, principal.orgId) }),
    }),
    route({
      ...common, method: 'PUT', path: '/api/admin/credit-limits/organization', operationId: 'admin_set_org_credit_limit', body: LimitBody,
      summary: "Admin: sets or removes the organization's monthly credit limit",
      handler: ({ principal, body }) => setCreditLimit(s.usage, { orgId: principal.orgId, userId: null, monthlyCredits: body.monthly_credits, by: principal.userId }),
    }),
    route({
      ...common, method: 'PUT', path: '/api/admin/credit-limits/users/{user_id}', operationId: 'admin_set_user_credit_limit',
      params: z.object({ user_id: z.string().min(1).max(100) }), body: LimitBody,
      summary: "Admin: sets or removes a member's monthly credit limit (404 outside the organization)",
      handler: ({ principal, params, body }) => setMemberCreditLimit(s.usage, s.executor, principal, params.user_id, body.monthly_credits),
    }),
  ];
}
