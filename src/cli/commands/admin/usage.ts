// `sextant admin usage`: questions, queries, tokens and credits per user and day (admins), and the
// monthly credit limits.
import { CliError } from '../../errors.ts';
import { objectTable } from '../../output.ts';
import type { CommandContext } from '../../context.ts';

type Day = { day: string; user_id: string; questions: number; queries: number; input_tokens: number; output_tokens: number; credits: number };
type Limit = { user_id: string | null; monthly_credits: number; used_this_month: number };

/** The usage report for a date range (default: the last 30 days). */
export async function adminUsage(ctx: CommandContext, o: { from?: string; to?: string; user?: string }): Promise<void> {
  const res = await ctx.client.json<{ from: string; to: string; days: Day[] }>('GET', '/api/admin/usage', { query: { from: o.from, to: o.to, user_id: o.user } });
  if (ctx.out.json) return ctx.out.out(JSON.stringify(res));
  const sum = (k: keyof Omit<Day, 'day' | 'user_id'>) => res.days.reduce((a, d) => a + d[k], 0);
  const totals = `Total: ${sum('questions')} questions, ${sum('queries')} queries, ${sum('input_tokens') + sum('output_tokens')} tokens, ${Math.round(sum('credits') * 10_000) / 10_000} credits`;
  ctx.out.out(res.days.length === 0 ? `No usage from ${res.from} to ${res.to}.` : `${objectTable(res.days, ['day', 'user_id', 'questions', 'queries', 'input_tokens', 'output_tokens', 'credits'])}\n${totals}`);
}

/** The organization's and users' monthly credit limits with this month's use. */
export async function adminLimits(ctx: CommandContext): Promise<void> {
  const res = await ctx.client.json<{ limits: Limit[] }>('GET', '/api/admin/credit-limits');
  if (ctx.out.json) return ctx.out.out(JSON.stringify(res));
  const rows = res.limits.map((l) => ({ ...l, applies_to: l.user_id ?? 'organization' }));
  ctx.out.out(rows.length === 0 ? 'No credit limits set.' : objectTable(rows, ['applies_to', 'monthly_credits', 'used_this_month']));
}

/** Sets a monthly credit limit (a number) or removes it (`none`), for the organization or a member (--member). */
export async function adminSetLimit(ctx: CommandContext, value: string, o: { user?: string }): Promise<void> {
  const credits = value === 'none' ? null : Number(value);
  if (credits !== null && (!Number.isFinite(credits) || credits < 0)) throw new CliError('The limit is a number of credits (0 or more) or "none"', 2);
  const path = o.user ? `/api/admin/credit-limits/users/${encodeURIComponent(o.user)}` : '/api/admin/credit-limits/organization';
  await ctx.client.json('PUT', path, { body: { monthly_credits: credits } });
  const who = o.user ? `user ${o.user}` : 'the organization';
  ctx.out.out(ctx.out.json ? JSON.stringify({ user_id: o.user ?? null, monthly_credits: credits }) : credits === null ? `Removed the monthly credit limit of ${who}.` : `Monthly credit limit of ${who}: ${credits}.`);
}
