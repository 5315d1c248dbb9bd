// The evaluation tables (migration 0090) as the query builder sees them, so the store's queries are
// checked against their columns; and the executor typed with them.
import type { Generated } from 'kysely';
import type { Executor } from '../../store/index.ts';
import type { ErrorReason } from '../scoring/grade.ts';

export type RunStatus = 'running' | 'completed' | 'cancelled';
export type RunTrigger = 'api' | 'cli' | 'manual' | 'merge_gate';

export interface RunRow {
  seq: number;
  id: string;
  org_id: string;
  evaluation_id: string;
  evaluation_name: string;
  source_env_id: string | null;
  evaluation_commit: string;
  definition_hash: string;
  target_kind: 'production' | 'environment';
  target_env_id: string | null;
  target_key: string;
  target_commit: string | null;
  status: RunStatus;
  trigger: RunTrigger;
  metadata: string;
  idempotency_key: string | null;
  user_id: string;
  questions: string;
  warnings: string;
  created_at: number;
  finished_at: number | null;
  regraded_at: number | null;
  regrade_commit: string | null;
}

export type QuestionResult = 'pending' | 'pass' | 'fail' | 'error';

export interface ResultRow {
  run_id: string;
  question_id: string;
  position: number;
  result: QuestionResult;
  observed: string | null;
  observed_source: 'table' | 'text' | null;
  relative_diff: number | null;
  error: ErrorReason | null;
  replies: string;
  sql: string;
  chat_id: string | null;
  followed_up: number;
  attempts: number;
  started_at: number | null;
  finished_at: number | null;
}

type WithDefaults<T, K extends keyof T> = Omit<T, K> & { [P in K]: Generated<T[P]> };

export interface EvaluationTables {
  evaluation_runs: WithDefaults<RunRow, 'seq'>;
  evaluation_results: WithDefaults<ResultRow, 'replies' | 'sql' | 'followed_up' | 'attempts'>;
  evaluation_settings: { org_id: string; gate: string; updated_by: string | null; updated_at: number };
}

/** The store's executor, its builder typed with the evaluation tables. */
export type EvalStore = Executor<EvaluationTables>;
