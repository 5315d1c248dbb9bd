// The agent's tables (migrations 0060, 0081, 0096) as the query builder sees them, so the store's
// queries are checked against their columns; and the executor typed with them.
import type { Executor } from '../../store/index.ts';

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

export interface AgentTables {
  agent_runs: RunRow;
  agent_events: { id: number; run_id: string; type: string; data: string; created_at: number };
  agent_event_ids: { id: number; reserved_through: number };
  agent_feedback: { id: string; run_id: string; user_id: string; text: string; created_at: number; applied_at: number | null };
  agent_usage: UsageRow;
  /** `user_id` is '' for the organization's own limit. */
  credit_limits: { org_id: string; user_id: string; monthly_credits: number; updated_by: string; updated_at: number };
}

/** The service store as the agent's statements see it. */
export type AgentStore = Executor<AgentTables>;
