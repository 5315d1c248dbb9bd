// The agent's tables (migrations 0060, 0081, 0096) as the query builder sees them, so the store's
// queries are checked against their columns; and the executor typed with them.
import type { Executor } from '../../store/index.ts';
import type { RunRow, UsageRow } from './event-log.ts';

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
