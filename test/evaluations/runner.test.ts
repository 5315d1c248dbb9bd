// Runs executed by the evaluations domain over a real SQLite file, with in-memory ports: bounded
// parallelism, the one follow-up, timeouts, cancel, restart, users who lost access, regrade.
import test from 'ava';
import { FOLLOW_UP } from '../../src/evaluations/index.ts';
import { COMMIT, evaluationFixture, latch, modeler, questionsOf, rightAnswers } from '../helpers/evaluation-fakes.ts';

const start = (f: ReturnType<typeof evaluationFixture>, extra: Record<string, unknown> = {}) =>
  f.evaluations.start(modeler, { evaluationId: 'core', sourceEnvironmentId: undefined, target: { kind: 'production' }, trigger: 'api', ...extra });
const finished = async (f: ReturnType<typeof evaluationFixture>, id: string) => {
  await f.evaluations.settled(id);
  return f.evaluations.get(modeler, id);
};

test('a run asks every question, pinned to the target commit, and passes when every answer is right', async (t) => {
  const f = evaluationFixture(t);
  const { id } = await start(f);
  t.regex(id, /^evr_[\w-]{20}$/);
  const run = await finished(f, id);
  t.like(run, { status: 'completed', finished: true, verdict: 'pass', target_commit: COMMIT, evaluation_commit: COMMIT, summary: { total: 3, pass: 3, fail: 0, error: 0, pending: 0 } });
  t.deepEqual(run.questions!.map((q) => [q.id, q.result, q.observed, q.observed_source, q.followed_up, q.attempts]), [
    ['q1', 'pass', 10, 'text', false, 1],
    ['q2', 'pass', 20, 'text', false, 1],
    ['q3', 'pass', 30, 'text', false, 1],
  ]);
  t.is(run.questions![0]!.chat_id, `${id}:q1:1`);
});

test('at most SEXTANT_EVAL_CONCURRENCY questions are asked at once', async (t) => {
  const f = evaluationFixture(t, {
    questions: questionsOf(12),
    concurrency: 3,
    script: async (message, ctx) => {
      // Let the other questions start before this one answers.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      return rightAnswers(message, ctx);
    },
  });
  const run = await finished(f, (await start(f)).id);
  t.is(run.verdict, 'pass');
  t.is(f.maxInFlight(), 3);
});

test('a reply that asks for clarification gets exactly one follow-up, and its answer is scored', async (t) => {
  const f = evaluationFixture(t, {
    questions: questionsOf(2),
    script: (message) => (message === FOLLOW_UP ? 'Taking all kinds: there are 10 of them.' : message.includes('kind 1') ? 'Which kind of things do you mean?' : 'Do you mean active ones?'),
  });
  const run = await finished(f, (await start(f)).id);
  t.deepEqual(run.questions!.map((q) => [q.result, q.followed_up, q.error]), [
    ['pass', true, null],
    ['fail', true, null],
  ]);
  t.is(f.calls.length, 4, 'one follow-up per question, never two');
  t.is(run.questions![1]!.answer, 'Taking all kinds: there are 10 of them.');
});

test('a usable first reply gets no follow-up; a reply that stays unusable ends in error', async (t) => {
  const f = evaluationFixture(t, { questions: questionsOf(2), script: (message) => (message.includes('kind 1') ? 'There are 10.' : "I can't answer that.") });
  const run = await finished(f, (await start(f)).id);
  t.deepEqual(run.questions!.map((q) => [q.result, q.error, q.followed_up]), [
    ['pass', null, false],
    ['error', 'refused', true],
  ]);
  t.like(run, { verdict: 'error', summary: { pass: 1, error: 1 } });
});

test('a question still unanswered at its timeout ends in error timeout and the run goes on', async (t) => {
  const f = evaluationFixture(t, {
    questionTimeoutMs: 50,
    script: async (message, { signal }) => {
      if (!message.includes('kind 2')) return rightAnswers(message, { chatId: '', signal });
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return 'Stopped as asked.';
    },
  });
  const run = await finished(f, (await start(f)).id);
  t.deepEqual(run.questions!.map((q) => [q.result, q.error]), [
    ['pass', null],
    ['error', 'timeout'],
    ['pass', null],
  ]);
});

test('cancel ends the run at once: scored answers stay, the rest close as cancelled, late answers are dropped', async (t) => {
  const asked = latch();
  const f = evaluationFixture(t, {
    concurrency: 1,
    script: async (message, { signal }) => {
      if (!message.includes('kind 2')) return rightAnswers(message, { chatId: '', signal });
      asked.open();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return 'There are 20 of them.';
    },
  });
  const { id } = await start(f);
  await asked.wait();
  const cancelled = await f.evaluations.cancel(modeler, id);
  t.like(cancelled, { status: 'cancelled', finished: true, verdict: 'error', summary: { pass: 1, error: 2, pending: 0 } });
  const run = await finished(f, id);
  t.deepEqual(run.questions!.map((q) => [q.result, q.error]), [
    ['pass', null],
    ['error', 'cancelled'],
    ['error', 'cancelled'],
  ]);
  t.false(f.calls.some((c) => c.includes('kind 3')), 'the queued question never started');
  await t.throwsAsync(f.evaluations.cancel(modeler, id), { code: 'EVALUATION_RUN_FINISHED' });
});

test('a restart resumes the pending questions of an unfinished run and keeps every result written', async (t) => {
  const third = latch();
  const a = evaluationFixture(t, {
    questions: questionsOf(5),
    concurrency: 1,
    script: async (message, { signal }) => {
      if (!message.includes('kind 3')) return rightAnswers(message, { chatId: '', signal });
      third.open();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return 'Interrupted.';
    },
  });
  const { id } = await start(a);
  await third.wait();
  const before = a.store.db.prepare('SELECT * FROM evaluation_results WHERE run_id = ? ORDER BY position').all(id) as Record<string, unknown>[];
  // The process goes away mid-question: nothing more is written by it.
  a.shutdown.abort();
  await a.evaluations.settled(id);
  a.store.close();

  const b = evaluationFixture(t, { questions: questionsOf(5), file: a.file });
  t.is(await b.evaluations.resume(), 1);
  const run = await finished(b, id);
  t.like(run, { status: 'completed', verdict: 'pass', summary: { pass: 5 } });
  const after = b.store.db.prepare('SELECT * FROM evaluation_results WHERE run_id = ? ORDER BY position').all(id) as Record<string, unknown>[];
  t.deepEqual(after.slice(0, 2), before.slice(0, 2), 'results written before the restart are untouched');
  t.like(after[2], { attempts: 2, chat_id: `${id}:q3:2`, result: 'pass' });
  t.deepEqual(b.calls, ['How many things of kind 3?', 'How many things of kind 4?', 'How many things of kind 5?']);
});

test('a resumed run whose user lost access closes its questions as access_lost', async (t) => {
  const asked = latch();
  const a = evaluationFixture(t, {
    concurrency: 1,
    script: async (_message, { signal }) => {
      asked.open();
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return '';
    },
  });
  const { id } = await start(a);
  await asked.wait();
  a.shutdown.abort();
  await a.evaluations.settled(id);
  a.store.close();
  const b = evaluationFixture(t, { file: a.file });
  b.principal.current = undefined;
  await b.evaluations.resume();
  const run = await finished(b, id);
  t.like(run, { status: 'completed', verdict: 'error', summary: { error: 3 } });
  t.true(run.questions!.every((q) => q.error === 'access_lost'));
  t.is(b.calls.length, 0);
});

test('one active run per evaluation and target; an idempotency key returns its run', async (t) => {
  const release = latch();
  const f = evaluationFixture(t, { script: async (m, ctx) => (await release.wait(), rightAnswers(m, ctx)) });
  const first = await start(f, { idempotencyKey: 'ci-42' });
  t.deepEqual(await start(f, { idempotencyKey: 'ci-42' }), first);
  const busy = await t.throwsAsync(start(f), { code: 'EVALUATION_RUN_ACTIVE' });
  t.deepEqual((busy as unknown as { data: unknown }).data, { active_run_id: first.id });
  await t.throwsAsync(start(f, { idempotencyKey: 'ci-42', target: { kind: 'environment', environment_id: 'env_1' } }), { code: 'IDEMPOTENCY_KEY_REUSED' });
  // Another target is another run.
  const other = await start(f, { target: { kind: 'environment', environment_id: 'env_1' } });
  t.not(other.id, first.id);
  await t.throwsAsync(start(f, { expectedTargetCommit: 'd'.repeat(40), target: { kind: 'environment', environment_id: 'env_2' } }), { code: 'TARGET_MOVED' });
  release.open();
  await finished(f, first.id);
  t.deepEqual(await start(f, { idempotencyKey: 'ci-42' }), first, 'also once finished');
  t.not((await start(f)).id, first.id, 'a new run once the first ended');
});

test('regrade scores the stored replies again with corrected expected answers, without asking again', async (t) => {
  const f = evaluationFixture(t, { script: (message) => (message.includes('kind 2') ? 'There are 25 of them.' : rightAnswers(message, { chatId: '', signal: new AbortController().signal })) });
  const { id } = await start(f);
  const run = await finished(f, id);
  t.like(run, { verdict: 'fail', summary: { pass: 2, fail: 1 } });
  await t.throwsAsync(f.evaluations.get({ ...modeler, orgId: 'globex' }, id), { code: 'EVALUATION_RUN_NOT_FOUND' });
  const asked = f.calls.length;
  f.definition.questions = f.definition.questions.map((q) => (q.id === 'q2' ? { ...q, expected_answer: 25 } : q));
  const regraded = await f.evaluations.regrade(modeler, id, undefined);
  t.like(regraded, { verdict: 'pass', summary: { pass: 3, fail: 0 }, regrade_commit: COMMIT });
  t.truthy(regraded.regraded_at);
  t.is(regraded.questions![1]!.expected_answer, 25);
  t.is(f.calls.length, asked, 'nothing was asked again');
});
