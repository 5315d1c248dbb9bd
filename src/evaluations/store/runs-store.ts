// SQL of evaluation runs (migration 0090). A run and its pending results are written in one
// transaction; the partial unique index on running runs keeps one active run per evaluation and target.
import { statement, transact, type Db } from '../../store/index.ts';
import type { SuiteQuestion } from '../../shared/evaluation-suite.ts';

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

export type NewRun = Omit<RunRow, 'seq' | 'status' | 'finished_at' | 'regraded_at' | 'regrade_commit'>;

/** The questions a run asks, as snapshotted at its start (or its last regrade). */
export const questionsOf = (run: RunRow): SuiteQuestion[] => JSON.parse(run.questions) as SuiteQuestion[];

/** Stores a new running run and one pending result per question; throws SQLite's unique-constraint error on a clash. */
export function insertRun(db: Db, run: NewRun, questions: SuiteQuestion[]): void {
  transact(db, () => {
    statement(
      db,
      `INSERT INTO evaluation_runs (id, org_id, evaluation_id, evaluation_name, source_env_id, evaluation_commit, definition_hash, target_kind,
         target_env_id, target_key, target_commit, status, trigger, metadata, idempotency_key, user_id, questions, warnings, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      run.id, run.org_id, run.evaluation_id, run.evaluation_name, run.source_env_id, run.evaluation_commit, run.definition_hash, run.target_kind,
      run.target_env_id, run.target_key, run.target_commit, run.trigger, run.metadata, run.idempotency_key, run.user_id, run.questions, run.warnings, run.created_at,
    );
    const insert = statement(db, `INSERT INTO evaluation_results (run_id, question_id, position, result) VALUES (?, ?, ?, 'pending')`);
    questions.forEach((q, i) => insert.run(run.id, q.id, i));
  });
}

export function findRun(db: Db, orgId: string, id: string): RunRow | undefined {
  return statement(db, 'SELECT * FROM evaluation_runs WHERE org_id = ? AND id = ?').get(orgId, id) as RunRow | undefined;
}

export function runByIdempotencyKey(db: Db, orgId: string, key: string): RunRow | undefined {
  return statement(db, 'SELECT * FROM evaluation_runs WHERE org_id = ? AND idempotency_key = ?').get(orgId, key) as RunRow | undefined;
}

export function activeRun(db: Db, orgId: string, evaluationId: string, targetKey: string): RunRow | undefined {
  return statement(db, `SELECT * FROM evaluation_runs WHERE org_id = ? AND evaluation_id = ? AND target_key = ? AND status = 'running'`).get(orgId, evaluationId, targetKey) as
    | RunRow
    | undefined;
}

/** A finished run by the same user of the same questions at the same target commit (the merge gate reuses it). */
export function reusableRun(db: Db, a: { orgId: string; evaluationId: string; targetKey: string; targetCommit: string | null; definitionHash: string; userId: string }): RunRow | undefined {
  return statement(
    db,
    `SELECT * FROM evaluation_runs WHERE org_id = ? AND evaluation_id = ? AND target_key = ? AND target_commit IS ? AND definition_hash = ?
       AND status = 'completed' AND user_id = ? AND regraded_at IS NULL ORDER BY seq DESC LIMIT 1`,
  ).get(a.orgId, a.evaluationId, a.targetKey, a.targetCommit, a.definitionHash, a.userId) as RunRow | undefined;
}

/** Runs of an evaluation, newest first, after the keyset `beforeSeq`. */
export function listRuns(db: Db, orgId: string, evaluationId: string, beforeSeq: number, limit: number): RunRow[] {
  return statement(db, 'SELECT * FROM evaluation_runs WHERE org_id = ? AND evaluation_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?').all(
    orgId,
    evaluationId,
    beforeSeq,
    limit,
  ) as RunRow[];
}

/** Runs a restart interrupted, oldest first. */
export function unfinishedRuns(db: Db): RunRow[] {
  return statement(db, `SELECT * FROM evaluation_runs WHERE status = 'running' ORDER BY seq`).all() as RunRow[];
}

/** Ends a running run; false when it had already ended (cancelled meanwhile). */
export function endRun(db: Db, id: string, status: Exclude<RunStatus, 'running'>, at: number): boolean {
  return statement(db, `UPDATE evaluation_runs SET status = ?, finished_at = ? WHERE id = ? AND status = 'running'`).run(status, at, id).changes === 1;
}

export function markRegraded(db: Db, id: string, questions: SuiteQuestion[], commit: string, at: number): void {
  statement(db, 'UPDATE evaluation_runs SET questions = ?, regraded_at = ?, regrade_commit = ? WHERE id = ?').run(JSON.stringify(questions), at, commit, id);
}

/** The newest run of an evaluation, on any target. */
export function latestRun(db: Db, orgId: string, evaluationId: string): RunRow | undefined {
  return statement(db, 'SELECT * FROM evaluation_runs WHERE org_id = ? AND evaluation_id = ? ORDER BY seq DESC LIMIT 1').get(orgId, evaluationId) as RunRow | undefined;
}
