// Monthly credit limits per organization and per user, set by admins. A new answer is refused once
// the calendar month's (UTC) credits reach a limit; a running answer is never cut, so a month may
// end slightly above its limit.
import type { Principal } from '../../auth/index.ts';
import type { Clock } from '../../clock.ts';
import { RateLimited } from '../../errors.ts';
import type { Db } from '../../store/index.ts';

/** What the admin's usage and credit-limit functions need (the database and the clock), built once in compose. */
export interface UsageDeps {
  db: Db;
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

function creditsSince(db: Db, orgId: string, userId: string | null, since: number): number {
  const sum = db
    .prepare('SELECT COALESCE(SUM(credits), 0) FROM agent_usage WHERE org_id = ? AND (? IS NULL OR user_id = ?) AND created_at >= ?')
    .pluck()
    .get(orgId, userId, userId, since) as number;
  return Math.round(sum * 10_000) / 10_000;
}

/** Sets (a number) or removes (null) the organization's limit or a user's. */
export function setCreditLimit({ db, clock }: UsageDeps, p: { orgId: string; userId: string | null; monthlyCredits: number | null; by: string }): void {
  if (p.monthlyCredits === null) {
    db.prepare('DELETE FROM credit_limits WHERE org_id = ? AND user_id = ?').run(p.orgId, p.userId ?? '');
    return;
  }
  db.prepare(
    `INSERT INTO credit_limits (org_id, user_id, monthly_credits, updated_by, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (org_id, user_id) DO UPDATE SET monthly_credits = excluded.monthly_credits, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
  ).run(p.orgId, p.userId ?? '', p.monthlyCredits, p.by, clock.now());
}

/** Every limit of the organization with this month's use. */
export function creditLimits({ db, clock }: UsageDeps, orgId: string): CreditLimit[] {
  const { start } = monthBounds(clock.now());
  const rows = db.prepare('SELECT user_id, monthly_credits FROM credit_limits WHERE org_id = ? ORDER BY user_id').all(orgId) as { user_id: string; monthly_credits: number }[];
  return rows.map((r) => {
    const userId = r.user_id === '' ? null : r.user_id;
    return { user_id: userId, monthly_credits: r.monthly_credits, used_this_month: creditsSince(db, orgId, userId, start) };
  });
}

/** Refuses a new answer when the organization's or the user's monthly limit is reached. */
export function checkCreditLimit(db: Db, principal: Principal, now: number): void {
  const limits = db.prepare("SELECT user_id, monthly_credits FROM credit_limits WHERE org_id = ? AND user_id IN ('', ?)").all(principal.orgId, principal.userId) as { user_id: string; monthly_credits: number }[];
  if (limits.length === 0) return;
  const { start, next } = monthBounds(now);
  const retryAfter = Math.max(1, Math.ceil((next - now) / 1000));
  for (const l of limits) {
    const scope = l.user_id === '' ? 'organization' : 'user';
    if (creditsSince(db, principal.orgId, scope === 'user' ? principal.userId : null, start) >= l.monthly_credits) throw new CreditLimitReached(retryAfter, scope);
  }
}
