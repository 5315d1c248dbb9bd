// The SQL of the agent's tables: runs, their feedback and usage (the event log itself is
// event-journal.ts). Written once for SQLite and PostgreSQL.
import { sql } from 'kysely';
import { RunInProgress } from './run-errors.ts';
import type { AgentStore, NewRunRow, RunRow, RunStatus, UsageRow } from './tables.ts';

export type { NewRunRow, RunRow, RunStatus, UsageRow } from './tables.ts';

/**
 * The insert of a run in state running, owned by a replica (its first heartbeat is its start). It
 * changes no row when the chat has a running run already (the unique index on running runs refused it).
 */
export function insertRunQuery(row: NewRunRow, replicaId: string | null = null) {
  // On every run's start: a template, not the builder (its values and conflict nodes were ~30 µs of a
  // start in a burst's profile).
  return sql`INSERT INTO agent_runs (id, org_id, user_id, chat_id, message_uuid, answer_uuid, environment_id, provider, model, question, status, created_at, replica_id, heartbeat_at)
    VALUES (${row.id}, ${row.org_id}, ${row.user_id}, ${row.chat_id}, ${row.message_uuid}, ${row.answer_uuid}, ${row.environment_id}, ${row.provider}, ${row.model}, ${row.question}, 'running', ${row.created_at}, ${replicaId}, ${row.created_at})
    ON CONFLICT DO NOTHING`;
}

/** Inserts a run (insertRunQuery); RunInProgress when the chat has a running run already (another replica's start won). */
export async function insertRun(x: AgentStore, row: NewRunRow, replicaId: string | null = null): Promise<void> {
  if ((await x.run(insertRunQuery(row, replicaId))).changes === 0) throw new RunInProgress();
}

/** Ends a run still running: no row changes when it had already ended (another replica failed it as lost, see lost-runs.ts). */
export function finishRunQuery(x: AgentStore, id: string, status: RunStatus, answer: string, at: number) {
  return x.db.updateTable('agent_runs').set({ status, answer, finished_at: at }).where('id', '=', id).where('status', '=', 'running');
}

export function getRun(x: AgentStore, id: string): Promise<RunRow | undefined> {
  return x.one(sql<RunRow>`SELECT * FROM agent_runs WHERE id = ${id}`);
}

/**
 * The latest run of a chat in an organization. Runs of one chat follow one another (one runs at a
 * time), so among runs started in the same millisecond the running one, else the one that ended last
 * (on a full tie, the last the store returns), is the latest. Two index lookups and no sort: every start and resume asks.
 */
export async function latestRun(x: AgentStore, orgId: string, chatId: string): Promise<RunRow | undefined> {
  const ties = await x.all(sql<RunRow>`SELECT * FROM agent_runs WHERE org_id = ${orgId} AND chat_id = ${chatId}
    AND created_at = (SELECT MAX(created_at) FROM agent_runs WHERE org_id = ${orgId} AND chat_id = ${chatId})`);
  const rank = (r: RunRow) => r.finished_at ?? Number.MAX_SAFE_INTEGER;
  return ties.reduce<RunRow | undefined>((latest, r) => (latest === undefined || rank(r) >= rank(latest) ? r : latest), undefined);
}

/** The user's run in a chat that produced an answer, by the answer's or the question's uuid. */
export function userRunOfMessage(x: AgentStore, run: Pick<RunRow, 'org_id' | 'chat_id' | 'user_id'>, messageUuid: string): Promise<RunRow | undefined> {
  return x.one(
    x.db
      .selectFrom('agent_runs')
      .selectAll()
      .where('org_id', '=', run.org_id)
      .where('chat_id', '=', run.chat_id)
      .where('user_id', '=', run.user_id)
      .where((w) => w.or([w('answer_uuid', '=', messageUuid), w('message_uuid', '=', messageUuid)])),
  );
}

export async function insertFeedback(x: AgentStore, f: { id: string; runId: string; userId: string; text: string; at: number }): Promise<void> {
  await x.run(x.db.insertInto('agent_feedback').values({ id: f.id, run_id: f.runId, user_id: f.userId, text: f.text, created_at: f.at, applied_at: null }));
}

export async function markFeedbackApplied(x: AgentStore, id: string, at: number): Promise<void> {
  await x.run(x.db.updateTable('agent_feedback').set({ applied_at: at }).where('id', '=', id).where('applied_at', 'is', null));
}

export function insertUsageQuery(x: AgentStore, u: UsageRow) {
  return x.db.insertInto('agent_usage').values(u);
}

export interface UsageTotals {
  runs: number;
  input_tokens: number;
  output_tokens: number;
  queries: number;
  credits: number;
}

/** Rounds a sum of credits to the 4 decimals they are priced in. */
export const roundCredits = (credits: number): number => Math.round(credits * 10_000) / 10_000;

/** The usage rows of an organization, or of one user in it, from a time (ms) on. */
export function usageOf(x: AgentStore, orgId: string, userId: string | null | undefined, since: number) {
  const rows = x.db.selectFrom('agent_usage').where('org_id', '=', orgId).where('created_at', '>=', since);
  return userId ? rows.where('user_id', '=', userId) : rows;
}

/** Usage of an organization, or of one user in it, since a time (ms). */
export async function usageTotals(x: AgentStore, { orgId, userId, since = 0 }: { orgId: string; userId?: string; since?: number }): Promise<UsageTotals> {
  // PostgreSQL sums BIGINT columns as NUMERIC (a string to pg): cast back to what SQLite gives.
  const total = (column: string) => sql<number>`CAST(COALESCE(SUM(${sql.ref(column)}), 0) AS BIGINT)`;
  const row = await x.one(
    usageOf(x, orgId, userId, since).select([
      sql<number>`COUNT(*)`.as('runs'),
      total('input_tokens').as('input_tokens'),
      total('output_tokens').as('output_tokens'),
      total('queries').as('queries'),
      sql<number>`COALESCE(SUM(credits), 0)`.as('credits'),
    ]),
  );
  return { ...row!, credits: roundCredits(row!.credits) };
}
