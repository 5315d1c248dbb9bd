// SQL of evaluation runs (migration 0090). A run and its pending results are written in one batch;
// the partial unique index on running runs keeps one active run per evaluation and target.
import type { Kysely } from 'kysely';
import type { SuiteQuestion } from '../../shared/evaluation-suite.ts';
import type { EvalStore, EvaluationTables, RunRow, RunStatus } from './tables.ts';

export type { RunRow, RunStatus, RunTrigger } from './tables.ts';

export type NewRun = Omit<RunRow, 'seq' | 'status' | 'finished_at' | 'regraded_at' | 'regrade_commit'>;

type Db = Kysely<EvaluationTables>;

/** The questions a run asks, as snapshotted at its start (or its last regrade). */
export const questionsOf = (run: RunRow): SuiteQuestion[] => JSON.parse(run.questions) as SuiteQuestion[];

/**
 * Stores a new running run and one pending result per question; false, with nothing written, when a
 * unique index refused the run (its idempotency key, or another running run of the same evaluation and target).
 */
export async function insertRun(x: EvalStore, run: NewRun, questions: SuiteQuestion[]): Promise<boolean> {
  const results = questions.map((q, i) => x.db.insertInto('evaluation_results').values({ run_id: run.id, question_id: q.id, position: i, result: 'pending' }));
  const stored = await x.batch([x.db.insertInto('evaluation_runs').values({ ...run, status: 'running' }).onConflict((oc) => oc.doNothing()), ...results], { require: [0] });
  return stored.ok;
}

const runs = (x: EvalStore, orgId: string) => x.db.selectFrom('evaluation_runs').selectAll().where('org_id', '=', orgId);

export const findRun = (x: EvalStore, orgId: string, id: string) => x.one(runs(x, orgId).where('id', '=', id));

export const runByIdempotencyKey = (x: EvalStore, orgId: string, key: string) => x.one(runs(x, orgId).where('idempotency_key', '=', key));

export const activeRun = (x: EvalStore, orgId: string, evaluationId: string, targetKey: string) =>
  x.one(runs(x, orgId).where('evaluation_id', '=', evaluationId).where('target_key', '=', targetKey).where('status', '=', 'running'));

/** A finished run by the same user of the same questions at the same target commit (the merge gate reuses it). */
export function reusableRun(x: EvalStore, a: { orgId: string; evaluationId: string; targetKey: string; targetCommit: string | null; definitionHash: string; userId: string }) {
  return x.one(
    runs(x, a.orgId)
      .where('evaluation_id', '=', a.evaluationId)
      .where('target_key', '=', a.targetKey)
      .where('target_commit', 'is not distinct from', a.targetCommit)
      .where('definition_hash', '=', a.definitionHash)
      .where('status', '=', 'completed')
      .where('user_id', '=', a.userId)
      .where('regraded_at', 'is', null)
      .orderBy('seq', 'desc')
      .limit(1),
  );
}

/** Runs of an evaluation, newest first, after the keyset `beforeSeq`. */
export const listRuns = (x: EvalStore, orgId: string, evaluationId: string, beforeSeq: number, limit: number) =>
  x.all(runs(x, orgId).where('evaluation_id', '=', evaluationId).where('seq', '<', beforeSeq).orderBy('seq', 'desc').limit(limit));

/** Runs a restart interrupted, oldest first. */
export const unfinishedRuns = (x: EvalStore) => x.all(x.db.selectFrom('evaluation_runs').selectAll().where('status', '=', 'running').orderBy('seq'));

/** The newest run of an evaluation, on any target. */
export const latestRun = (x: EvalStore, orgId: string, evaluationId: string) => x.one(runs(x, orgId).where('evaluation_id', '=', evaluationId).orderBy('seq', 'desc').limit(1));

/** Ends a running run; changes no row when it had already ended (cancelled meanwhile). */
export const endRunQuery = (db: Db, id: string, status: Exclude<RunStatus, 'running'>, at: number) =>
  db.updateTable('evaluation_runs').set({ status, finished_at: at }).where('id', '=', id).where('status', '=', 'running');

/** Ends a running run; false when it had already ended. */
export const endRun = async (x: EvalStore, id: string, status: Exclude<RunStatus, 'running'>, at: number) => (await x.run(endRunQuery(x.db, id, status, at))).changes === 1;

/** Records a regrade of a finished run; changes no row while the run is running. */
export const markRegradedQuery = (db: Db, id: string, questions: SuiteQuestion[], commit: string, at: number) =>
  db.updateTable('evaluation_runs').set({ questions: JSON.stringify(questions), regraded_at: at, regrade_commit: commit }).where('id', '=', id).where('status', '!=', 'running');
