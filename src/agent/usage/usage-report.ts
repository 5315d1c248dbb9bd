// Usage per user and per day (UTC) for admins: questions asked (runs started), warehouse queries,
// model tokens and credits (finished runs). Two indexed GROUP BYs over the organization's range.
import type { Db } from '../../store/index.ts';

export interface UsageDay {
  day: string;
  user_id: string;
  questions: number;
  queries: number;
  input_tokens: number;
  output_tokens: number;
  credits: number;
}

const DAY = "strftime('%Y-%m-%d', created_at / 1000, 'unixepoch')";

/** Usage rows of an organization between `from` (inclusive) and `to` (exclusive), by day then user. */
export function usageByUserAndDay({ db }: { db: Db }, p: { orgId: string; from: number; to: number; userId?: string | undefined }): UsageDay[] {
  const args = [p.orgId, p.from, p.to, p.userId ?? null, p.userId ?? null];
  const questions = db
    .prepare(`SELECT ${DAY} AS day, user_id, COUNT(*) AS questions FROM agent_runs WHERE org_id = ? AND created_at >= ? AND created_at < ? AND (? IS NULL OR user_id = ?) GROUP BY day, user_id`)
    .all(...args) as { day: string; user_id: string; questions: number }[];
  const costs = db
    .prepare(
      `SELECT ${DAY} AS day, user_id, SUM(queries) AS queries, SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(credits) AS credits
       FROM agent_usage WHERE org_id = ? AND created_at >= ? AND created_at < ? AND (? IS NULL OR user_id = ?) GROUP BY day, user_id`,
    )
    .all(...args) as Omit<UsageDay, 'questions'>[];
  const byKey = new Map<string, UsageDay>();
  const row = (day: string, userId: string): UsageDay => {
    const key = `${day}\u0000${userId}`;
    let r = byKey.get(key);
    if (!r) byKey.set(key, (r = { day, user_id: userId, questions: 0, queries: 0, input_tokens: 0, output_tokens: 0, credits: 0 }));
    return r;
  };
  for (const q of questions) row(q.day, q.user_id).questions = q.questions;
  for (const c of costs) Object.assign(row(c.day, c.user_id), { queries: c.queries, input_tokens: c.input_tokens, output_tokens: c.output_tokens, credits: Math.round(c.credits * 10_000) / 10_000 });
  return [...byKey.values()].sort((a, b) => a.day.localeCompare(b.day) || a.user_id.localeCompare(b.user_id));
}
