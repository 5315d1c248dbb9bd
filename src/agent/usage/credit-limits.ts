// Monthly credit limits per organization and per user, set by admins. A new answer is refused once
// the calendar month's (UTC) credits reach a limit; a running answer is never cut, so a month may
// end slightly above its limit.
import { sql } from 'kysely';
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import { RateLimited } from '../../errors.ts';
import { byteOrder } from '../../store/index.ts';
import { roundCredits, usageOf } from '../runs/event-log.ts';
import type { AgentStore } from '../runs/tables.ts';

/** What the admin's usage and credit-limit functions need (the service store and the clock), built once in compose. */
export interface UsageDeps {
  store: AgentStore;
  clock: Clock;
}

/** 429 CREDIT_LIMIT_REACHED: the month's credits are spent; Retry-After points at the next month. */
export class CreditLimitReached extends RateLimited {
  constructor(retryAfterSeconds: number, scope: 'organization' | 'user') {
    super(retryAfterSeconds, `The monthly credit limit of ${scope === 'user' ? 'your account' : 'your organization'} is reached; ask an admin to raise it`, 'CREDIT_LIMIT_REACHED');
  }
}

export interface CreditLimit {
  /** Null for the organization's own limit. */
  user_id: string | null;
  monthly_credits: number;
  used_this_month: number;
}

/** Start of the UTC calendar month of `now`, and of the next one. */
export function monthBounds(now: number): { start: number; next: number } {
  const d = new Date(now);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), next: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

async function creditsSince(x: AgentStore, orgId: string, userId: string | null, since: number): Promise<number> {
  const row = await x.one(usageOf(x, orgId, userId, since).select(sql<number>`COALESCE(SUM(credits), 0)`.as('credits')));
  return roundCredits(row!.credits);
}

/** Sets (a number) or removes (null) the organization's limit or a user's. */
export async function setCreditLimit({ store: x, clock }: UsageDeps, p: { orgId: string; userId: string | null; monthlyCredits: number | null; by: string }): Promise<void> {
  if (p.monthlyCredits === null) {
    await x.run(x.db.deleteFrom('credit_limits').where('org_id', '=', p.orgId).where('user_id', '=', p.userId ?? ''));
    return;
  }
  const limit = { monthly_credits: p.monthlyCredits, updated_by: p.by, updated_at: clock.now() };
  await x.run(
    x.db
      .insertInto('credit_limits')
      .values({ org_id: p.orgId, user_id: p.userId ?? '', ...limit })
      .onConflict((oc) => oc.columns(['org_id', 'user_id']).doUpdateSet(limit)),
  );
}

/** Every limit of the organization with this month's use. */
export async function creditLimits({ store: x, clock }: UsageDeps, orgId: string): Promise<CreditLimit[]> {
  const { start } = monthBounds(clock.now());
  const rows = await x.all(x.db.selectFrom('credit_limits').select(['user_id', 'monthly_credits']).where('org_id', '=', orgId).orderBy(byteOrder(x, 'user_id')));
  return Promise.all(
    rows.map(async (r) => {
      const userId = r.user_id === '' ? null : r.user_id;
      return { user_id: userId, monthly_credits: r.monthly_credits, used_this_month: await creditsSince(x, orgId, userId, start) };
    }),
  );
}

/** Refuses a new answer when the organization's or the user's monthly limit is reached. */
export async function checkCreditLimit(x: AgentStore, principal: Principal, now: number): Promise<void> {
  // On every run's start: a template, not the builder, whose immutable nodes cost ~5 µs warm and
  // several times that in a burst's profile.
  const limits = await x.all(sql<{ user_id: string; monthly_credits: number }>`SELECT user_id, monthly_credits FROM credit_limits WHERE org_id = ${principal.orgId} AND user_id IN ('', ${principal.userId})`);
  if (limits.length === 0) return;
  const { start, next } = monthBounds(now);
  const retryAfter = Math.max(1, Math.ceil((next - now) / 1000));
  for (const l of limits) {
    const scope = l.user_id === '' ? 'organization' : 'user';
    if ((await creditsSince(x, principal.orgId, scope === 'user' ? principal.userId : null, start)) >= l.monthly_credits) throw new CreditLimitReached(retryAfter, scope);
  }
}
