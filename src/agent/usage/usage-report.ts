// Usage per user and per day (UTC) for admins: questions asked (runs started), warehouse queries,
// model tokens and credits (finished runs). Two indexed GROUP BYs over the organization's range.
import { sql } from 'kysely';
import { roundCredits } from '../runs/event-log.ts';
import type { AgentStore } from '../runs/tables.ts';

export interface UsageDay {
  day: string;
  user_id: string;
  questions: number;
  queries: number;
  input_tokens: number;
  output_tokens: number;
  credits: number;
}

const DAY_MS = 86_400_000;
// The UTC day as a number of days since 1970, the same integer division on both dialects (times are
// never negative); it becomes a date in JavaScript.
const DAY = sql<number>`created_at / ${sql.lit(DAY_MS)}`;
// PostgreSQL sums BIGINT columns as NUMERIC (a string to pg): cast back to what SQLite gives.
const sum = (column: string) => sql<number>`CAST(SUM(${sql.ref(column)}) AS BIGINT)`;

/** Usage rows of an organization between `from` (inclusive) and `to` (exclusive), by day then user. */
export async function usageByUserAndDay({ store: x }: { store: AgentStore }, p: { orgId: string; from: number; to: number; userId?: string | undefined }): Promise<UsageDay[]> {
  const range = <T extends 'agent_runs' | 'agent_usage'>(table: T) => {
    const rows = x.db.selectFrom(table as 'agent_usage').where('org_id', '=', p.orgId).where('created_at', '>=', p.from).where('created_at', '<', p.to);
    return (p.userId ? rows.where('user_id', '=', p.userId) : rows).select([DAY.as('day'), 'user_id']).groupBy([DAY, 'user_id']);
  };
  const questions = await x.all(range('agent_runs').select(sql<number>`COUNT(*)`.as('questions')));
  const costs = await x.all(range('agent_usage').select([sum('queries').as('queries'), sum('input_tokens').as('input_tokens'), sum('output_tokens').as('output_tokens'), sql<number>`SUM(credits)`.as('credits')]));
  const byKey = new Map<string, UsageDay>();
  const row = (day: number, userId: string): UsageDay => {
    const key = `${day}\u0000${userId}`;
    let r = byKey.get(key);
    if (!r) byKey.set(key, (r = { day: new Date(day * DAY_MS).toISOString().slice(0, 10), user_id: userId, questions: 0, queries: 0, input_tokens: 0, output_tokens: 0, credits: 0 }));
    return r;
  };
  for (const q of questions) row(q.day, q.user_id).questions = q.questions;
  for (const c of costs) Object.assign(row(c.day, c.user_id), { queries: c.queries, input_tokens: c.input_tokens, output_tokens: c.output_tokens, credits: roundCredits(c.credits) });
  return [...byKey.values()].sort((a, b) => a.day.localeCompare(b.day) || a.user_id.localeCompare(b.user_id));
}
