// The evaluations store gives the same answers on SQLite and PostgreSQL: a run created with its
// pending questions, the one-active-run and idempotency conflicts, attempts and results recorded,
// cancel and regrade as batches, the pending count, the gate and the pages of the run list.
import type { ExecutionContext } from 'ava';
import { sql } from 'kysely';
import { FakeClock } from '../../src/clock.ts';
import { cancelRun } from '../../src/evaluations/cancel-run.ts';
import type { EvaluationDeps } from '../../src/evaluations/deps.ts';
import { listEvaluationRuns } from '../../src/evaluations/read-runs.ts';
import { regradeRun } from '../../src/evaluations/regrade-run.ts';
import type { EvaluationRunner } from '../../src/evaluations/runner.ts';
import { createRun, type NewRunInput } from '../../src/evaluations/start-run.ts';
import { countPendingQuestions } from '../../src/evaluations/store/pending-questions.ts';
import { finishResult, pendingResults, resultsOf, startAttempt, type ResultWrite } from '../../src/evaluations/store/results-store.ts';
import { activeRun, endRun, findRun, reusableRun } from '../../src/evaluations/store/runs-store.ts';
import { gateOf, setGate } from '../../src/evaluations/store/settings-store.ts';
import type { EvalStore } from '../../src/evaluations/store/tables.ts';
import { createLogger } from '../../src/log.ts';
import { dialectTest } from '../helpers/executors.ts';
import { COMMIT, modeler, questionsOf } from '../helpers/evaluation-fakes.ts';

async function depsOn(x: EvalStore, expected = 20): Promise<EvaluationDeps> {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'Acme', 0)`);
  const definition = { id: 'core', name: 'Core', questions: questionsOf(3).map((q) => ({ ...q, expected_answer: expected })), warnings: [], migrated: false };
  const knowledge = { definition: async () => ({ definition, commit: 'd'.repeat(40) }) };
  return {
    store: x,
    clock: new FakeClock(),
    log: createLogger('silent'),
    ports: { knowledge } as unknown as EvaluationDeps['ports'],
    config: { concurrency: 1, questionTimeoutMs: 1000 },
    shutdown: new AbortController().signal,
  };
}

const input = (target: 'production' | 'env1', idempotencyKey?: string): NewRunInput => ({
  definition: { id: 'core', name: 'Core', questions: questionsOf(3), warnings: [], migrated: false } as unknown as NewRunInput['definition'],
  commit: 'd'.repeat(40),
  sourceEnvironmentId: undefined,
  target: target === 'production' ? { kind: 'production', environment_id: null, commit: COMMIT } : { kind: 'environment', environment_id: target, commit: COMMIT },
  trigger: 'api',
  ...(idempotencyKey ? { idempotencyKey } : {}),
} as NewRunInput);

// Answers 20, 20 and 30: right for q2 and q3 as first defined (10, 20, 30).
const ANSWERS = [20, 20, 30];
const reply = (n: number): ResultWrite => ({
  outcome: { result: 'pass', observed: { kind: 'number', value: n, percent: false, currency: false }, source: 'text', relative_diff: 0 },
  replies: [{ status: 'completed', text: `There are ${n} of them.` }],
  sql: [],
  followedUp: false,
  at: 5,
});

async function answerAll(t: ExecutionContext, deps: EvaluationDeps, runId: string) {
  for (const r of await pendingResults(deps.store, runId)) {
    t.true((await startAttempt(deps.store, runId, r.question_id, `${runId}:${r.question_id}:`, 4)) > 0);
    t.true(await finishResult(deps.store, runId, r.question_id, reply(ANSWERS[r.position]!)));
  }
}

dialectTest('a run is created with its pending questions, and a second active run or a reused idempotency key conflicts', async (t, { x }) => {
  const deps = await depsOn(x);
  const { run, created } = await createRun(deps, modeler, input('production', 'k1'));
  t.true(created);
  t.like(await findRun(x, 'acme', run.id), { status: 'running', target_key: '', target_commit: COMMIT, created_at: deps.clock.now() });
  t.deepEqual((await resultsOf(x, run.id)).map((r) => [r.question_id, r.position, r.result, r.attempts, r.followed_up]), [['q1', 0, 'pending', 0, 0], ['q2', 1, 'pending', 0, 0], ['q3', 2, 'pending', 0, 0]]);
  t.is(await countPendingQuestions(x), 3);
  t.deepEqual(await createRun(deps, modeler, input('production', 'k1')), { run: (await findRun(x, 'acme', run.id))!, created: false }, 'the same key replays the stored run');
  await t.throwsAsync(createRun(deps, modeler, input('production')), { code: 'EVALUATION_RUN_ACTIVE' });
  await t.throwsAsync(createRun(deps, modeler, input('env1', 'k1')), { code: 'IDEMPOTENCY_KEY_REUSED' });
  t.true((await createRun(deps, modeler, input('env1'))).created, 'another target runs alongside');
  t.is((await activeRun(x, 'acme', 'core', ''))!.id, run.id);
});

dialectTest('a start refused by a run that ends before it is looked at starts on the next try instead of failing', async (t, { x }) => {
  const deps = await depsOn(x);
  const { run: first } = await createRun(deps, modeler, input('production'));
  // The store ends the active run right after refusing the second start: the clash is gone when looked up.
  let raced = false;
  const racing: EvalStore = Object.assign(Object.create(x) as EvalStore, {
    batch: async (...args: Parameters<EvalStore['batch']>) => {
      const result = await x.batch(...args);
      if (!result.ok && !raced) {
        raced = true;
        t.true(await endRun(x, first.id, 'completed', 1));
      }
      return result;
    },
  });
  const { run, created } = await createRun({ ...deps, store: racing }, modeler, input('production'));
  t.true(raced, 'the first insert met the running run');
  t.true(created);
  t.not(run.id, first.id);
  t.is((await activeRun(x, 'acme', 'core', ''))!.id, run.id);
});

dialectTest('attempts count up with their chat, a result is written once, and a finished run is reused and listed in pages', async (t, { x }) => {
  const deps = await depsOn(x);
  const { run } = await createRun(deps, modeler, input('production'));
  t.is(await startAttempt(x, run.id, 'q1', 'chat:', 1), 1);
  t.is(await startAttempt(x, run.id, 'q1', 'chat:', 2), 2);
  t.like((await resultsOf(x, run.id))[0], { attempts: 2, chat_id: 'chat:2', started_at: 2 });
  await answerAll(t, deps, run.id);
  t.false(await finishResult(x, run.id, 'q1', reply(9)), 'a finished result is not written again');
  t.is(await startAttempt(x, run.id, 'q1', 'chat:', 3), 0);
  t.like((await resultsOf(x, run.id))[0], { result: 'pass', observed: JSON.stringify({ kind: 'number', value: 20, percent: false, currency: false }), relative_diff: 0, finished_at: 5 });
  t.true(await endRun(x, run.id, 'completed', 6));
  t.false(await endRun(x, run.id, 'completed', 7));
  const reuse = { orgId: 'acme', evaluationId: 'core', targetKey: '', targetCommit: COMMIT, definitionHash: run.definition_hash, userId: modeler.userId };
  t.is((await reusableRun(x, reuse))!.id, run.id);
  t.is(await reusableRun(x, { ...reuse, targetCommit: null }), undefined);
  const second = (await createRun(deps, modeler, input('production'))).run;
  const first = await listEvaluationRuns(deps, modeler, 'core', { limit: 1 });
  t.deepEqual(first.runs.map((r) => r.id), [second.id]);
  const next = await listEvaluationRuns(deps, modeler, 'core', { limit: 1, cursor: first.next_cursor! });
  t.deepEqual([next.runs.map((r) => r.id), next.next_cursor], [[run.id], null]);
});

dialectTest('cancel ends a running run and closes its pending questions at once; a second cancel is refused', async (t, { x }) => {
  const deps = await depsOn(x);
  const { run } = await createRun(deps, modeler, input('production'));
  await startAttempt(x, run.id, 'q1', 'c:', 1);
  await finishResult(x, run.id, 'q1', reply(1));
  const stopped: string[] = [];
  const runner = { cancel: (id: string) => stopped.push(id) } as unknown as EvaluationRunner;
  const view = await cancelRun(deps, runner, modeler, run.id);
  t.like(view, { status: 'cancelled', summary: { pass: 1, error: 2, pending: 0 } });
  t.deepEqual(stopped, [run.id]);
  t.is(await countPendingQuestions(x), 0);
  await t.throwsAsync(cancelRun(deps, runner, modeler, run.id), { code: 'EVALUATION_RUN_FINISHED' });
});

dialectTest('regrade scores the stored replies against corrected answers, and is refused while the run runs', async (t, { x }) => {
  const deps = await depsOn(x);
  const { run } = await createRun(deps, modeler, input('production'));
  await t.throwsAsync(regradeRun(deps, modeler, run.id, undefined), { code: 'EVALUATION_RUN_NOT_FINISHED' });
  await answerAll(t, deps, run.id);
  await endRun(x, run.id, 'completed', 6);
  const view = await regradeRun(deps, modeler, run.id, undefined);
  t.like(view, { summary: { pass: 2, fail: 1 } });
  t.like(await findRun(x, 'acme', run.id), { regraded_at: deps.clock.now(), regrade_commit: 'd'.repeat(40) });
  t.deepEqual((await resultsOf(x, run.id)).map((r) => r.result), ['pass', 'pass', 'fail']);
});

dialectTest('the gate is off until set, and setting it again replaces it', async (t, { x }) => {
  await depsOn(x);
  t.is(await gateOf(x, 'acme'), 'off');
  await setGate(x, 'acme', 'report', 'u1', 1);
  await setGate(x, 'acme', 'required', 'u2', 2);
  t.is(await gateOf(x, 'acme'), 'required');
  t.deepEqual(await x.all(sql`SELECT org_id, gate, updated_by, updated_at FROM evaluation_settings`), [{ org_id: 'acme', gate: 'required', updated_by: 'u2', updated_at: 2 }]);
});
