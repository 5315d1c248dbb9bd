// The SQL of the agent's tables: runs, their event log, feedback and usage.
import { statement as stmt, type Db } from '../../store/index.ts';
import { RunInProgress } from './run-errors.ts';

export type RunStatus = 'running' | 'completed' | 'stopped' | 'failed';

export interface RunRow {
  id: string;
  org_id: string;
  user_id: string;
  chat_id: string;
  message_uuid: string;
  answer_uuid: string;
  environment_id: string | null;
  provider: string;
  model: string;
  question: string;
  status: RunStatus;
  answer: string | null;
  created_at: number;
  finished_at: number | null;
  /** The replica that runs it (run-owners.ts); null for runs from before replicas had ids. */
  replica_id: string | null;
  /** When its replica last said it still runs it. */
  heartbeat_at: number;
}

export type NewRunRow = Omit<RunRow, 'status' | 'answer' | 'finished_at' | 'replica_id' | 'heartbeat_at'>;

/**
 * Inserts a run in state running, owned by a replica (its first heartbeat is its start);
 * RunInProgress when the chat has a running run already (another replica's start won).
 */
export function insertRun(db: Db, row: NewRunRow, replicaId: string | null = null): void {
  try {
    insertRunRow(db, row, replicaId);
  } catch (err) {
    if ((err as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new RunInProgress();
    throw err;
  }
}

function insertRunRow(db: Db, row: NewRunRow, replicaId: string | null): void {
  stmt(db,
    `INSERT INTO agent_runs (id, org_id, user_id, chat_id, message_uuid, answer_uuid, environment_id, provider, model, question, status, created_at, replica_id, heartbeat_at)
     VALUES (@id, @org_id, @user_id, @chat_id, @message_uuid, @answer_uuid, @environment_id, @provider, @model, @question, 'running', @created_at, @replica_id, @created_at)`,
  ).run({ ...row, replica_id: replicaId });
}

/**
 * Ends a run still running; false when it had already ended (another replica failed it as lost,
 * see lost-runs.ts): its end stays as recorded.
 */
export function finishRun(db: Db, id: string, status: RunStatus, answer: string, at: number): boolean {
  return stmt(db, "UPDATE agent_runs SET status = ?, answer = ?, finished_at = ? WHERE id = ? AND status = 'running'").run(status, answer, at, id).changes === 1;
}

export function getRun(db: Db, id: string): RunRow | undefined {
  return stmt(db, 'SELECT * FROM agent_runs WHERE id = ?').get(id) as RunRow | undefined;
}

/** The latest run of a chat in an organization. */
export function latestRun(db: Db, orgId: string, chatId: string): RunRow | undefined {
  return stmt(db, 'SELECT * FROM agent_runs WHERE org_id = ? AND chat_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1').get(orgId, chatId) as RunRow | undefined;
}

/** The user's run in a chat that produced an answer, by the answer's or the question's uuid. */
export function userRunOfMessage(db: Db, run: Pick<RunRow, 'org_id' | 'chat_id' | 'user_id'>, messageUuid: string): RunRow | undefined {
  return stmt(db, 'SELECT * FROM agent_runs WHERE org_id = ? AND chat_id = ? AND user_id = ? AND (answer_uuid = ? OR message_uuid = ?)')
    .get(run.org_id, run.chat_id, run.user_id, messageUuid, messageUuid) as RunRow | undefined;
}

export function insertFeedback(db: Db, f: { id: string; runId: string; userId: string; text: string; at: number }): void {
  stmt(db, 'INSERT INTO agent_feedback (id, run_id, user_id, text, created_at) VALUES (?, ?, ?, ?, ?)').run(f.id, f.runId, f.userId, f.text, f.at);
}

export function markFeedbackApplied(db: Db, id: string, at: number): void {
  stmt(db, 'UPDATE agent_feedback SET applied_at = ? WHERE id = ? AND applied_at IS NULL').run(at, id);
}

export interface UsageRow {
  run_id: string;
  org_id: string;
  user_id: string;
  provider: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
  queries: number;
  credits: number;
  created_at: number;
}

export function insertUsage(db: Db, u: UsageRow): void {
  stmt(db,
    `INSERT INTO agent_usage (run_id, org_id, user_id, provider, model, input_tokens, output_tokens, queries, credits, created_at)
     VALUES (@run_id, @org_id, @user_id, @provider, @model, @input_tokens, @output_tokens, @queries, @credits, @created_at)`,
  ).run(u);
}

export interface UsageTotals {
  runs: number;
  input_tokens: number;
  output_tokens: number;
  queries: number;
  credits: number;
}

/** Usage of an organization, or of one user in it, since a time (ms). */
export function usageTotals(db: Db, { orgId, userId, since = 0 }: { orgId: string; userId?: string; since?: number }): UsageTotals {
  const row = db
    .prepare(
      `SELECT COUNT(*) AS runs, COALESCE(SUM(input_tokens), 0) AS input_tokens, COALESCE(SUM(output_tokens), 0) AS output_tokens,
              COALESCE(SUM(queries), 0) AS queries, COALESCE(SUM(credits), 0) AS credits
       FROM agent_usage WHERE org_id = ? AND (? IS NULL OR user_id = ?) AND created_at >= ?`,
    )
    .get(orgId, userId ?? null, userId ?? null, since) as UsageTotals;
  return { ...row, credits: Math.round(row.credits * 10_000) / 10_000 };
}
