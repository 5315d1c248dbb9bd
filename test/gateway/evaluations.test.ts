// The evaluation routes over a real gateway: runs and their results, pinning to the target commit,
// hidden answer chats, permissions (regular users 403, other organizations 404), 422s, 409s, paging,
// cancel, compare, regrade and the target. The model is scripted: it answers from the knowledge the
// agent retrieved (the note "We have N widgets").
import test from 'ava';
import { FOLLOW_UP } from '../../src/evaluations/index.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedProvider } from '../helpers/scripted-provider.ts';

const model = scriptedProvider((question, system) => {
  if (question === FOLLOW_UP) return 'Still unsure, sorry.';
  if (/widgets/i.test(question)) return `We have ${/We have (\d+) widgets/.exec(system)?.[1] ?? 'no idea how many'} widgets.`;
  if (/gadgets/i.test(question)) return 'There are 42 gadgets.';
  if (/open/i.test(question)) return 'We opened on June 1, 2021.';
  return 'Which ones do you mean?';
});

let t0: TestApp;
let admin: string;
let modeler: string;
let user: string;
let otherAdmin: string;

const suite = (questions: Record<string, unknown>[] = []) => ({
  id: 'core',
  name: 'Core',
  questions: [
    { id: 'gadgets', question: 'How many gadgets are there?', expected_answer: 42, answer_type: 'count' },
    { id: 'widgets', question: 'How many widgets do we have?', expected_answer: 5000, answer_type: 'count' },
    { id: 'opened', question: 'When did we open?', expected_answer: '2021-06-01' },
    ...questions,
  ],
});

test.before(async () => {
  t0 = await startTestApp({ SEXTANT_EVAL_CONCURRENCY: '1' }, { llmProvider: model });
  const org = t0.org('acme');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  user = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: t0.org('globex'), role: 'admin' }));
  const note = await call(t0, 'POST', '/api/knowledge/notes?id=widgets', { token: admin, body: { title: 'Widgets', body: 'We have 5000 widgets in stock.' } });
  if (note.status !== 201) throw new Error(JSON.stringify(note.body));
  const created = await call(t0, 'POST', '/api/knowledge/evaluations', { token: admin, body: suite() });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
});
test.after.always(() => t0.stop());

const startRun = (token = modeler, body: Record<string, unknown> = {}, env?: string) =>
  call(t0, 'POST', '/api/evaluations/core/runs', { token, body: { target: { kind: 'production' }, ...body }, ...(env ? { env } : {}) });
const finishedRun = async (id: string, token = modeler) => {
  await t0.app.services.evaluations.settled(id);
  return (await call(t0, 'GET', `/api/evaluation_runs/${id}`, { token })).body;
};

test.serial('a modeler starts a run, gets its id at once, and reads every question’s result with the commits used', async (t) => {
  const target = await call(t0, 'GET', '/api/evaluations/target', { token: modeler });
  t.like(target.body, { kind: 'production', environment_id: null, name: 'production' });
  const started = await startRun(modeler, { trigger: 'cli', metadata: { job: 'ci-1' } });
  t.is(started.status, 202);
  t.deepEqual(Object.keys(started.body), ['id']);
  const run = await finishedRun(started.body.id);
  t.like(run, { status: 'completed', finished: true, verdict: 'pass', trigger: 'cli', metadata: { job: 'ci-1' }, target: { kind: 'production' }, target_commit: target.body.commit, evaluation_commit: target.body.commit });
  t.deepEqual(run.summary, { total: 3, pass: 3, fail: 0, error: 0, pending: 0 });
  t.deepEqual(run.questions.map((q: { id: string; observed: unknown; expected: unknown; relative_diff: unknown }) => [q.id, q.expected, q.observed, q.relative_diff]), [
    ['gadgets', 42, 42, 0],
    ['widgets', 5000, 5000, 0],
    ['opened', '2021-06-01', '2021-06-01', null],
  ]);
  t.like(run.questions[1], { answer: 'We have 5000 widgets.', observed_source: 'text', sql: [], followed_up: false, tolerance_pct: 3, answer_type: 'count' });
});

test.serial('the answer chats open by id but stay out of the user’s history and search', async (t) => {
  const run = await finishedRun((await startRun()).body.id);
  const chatId = run.questions[1].chat_id as string;
  const chat = await call(t0, 'GET', `/api/c2/${encodeURIComponent(chatId)}`, { token: modeler });
  t.is(chat.status, 200);
  t.true(JSON.stringify(chat.body).includes('We have 5000 widgets.'));
  const history = await call(t0, 'GET', '/api/chat_history', { token: modeler });
  t.false(JSON.stringify(history.body).includes(chatId));
  const found = await call(t0, 'GET', '/api/search_chats?q=widgets', { token: modeler });
  t.deepEqual(found.body.results, []);
});

test.serial('every question of a run reads the knowledge of the target commit, even while production changes', async (t) => {
  const held = model.hold(/gadgets/);
  const started = await startRun();
  await held.reached;
  const edit = await call(t0, 'PUT', '/api/knowledge/notes/widgets', { token: admin, body: { title: 'Widgets', body: 'We have 7000 widgets in stock.' } });
  t.is(edit.status, 200);
  held.release();
  const pinned = await finishedRun(started.body.id);
  t.is(pinned.verdict, 'pass');
  t.is(pinned.questions[1].observed, 5000, 'the question after the edit still read the run’s commit');
  t.not(pinned.target_commit, edit.body.commit);
  const next = await finishedRun((await startRun()).body.id);
  t.like(next, { verdict: 'fail', target_commit: edit.body.commit });
  t.like(next.questions[1], { result: 'fail', observed: 7000, relative_diff: 40 });
  // Put production back for the other tests.
  await call(t0, 'PUT', '/api/knowledge/notes/widgets', { token: admin, body: { title: 'Widgets', body: 'We have 5000 widgets in stock.' } });
});

test.serial('a second run on the same target while one is active is 409 with active_run_id; an idempotency key returns its run', async (t) => {
  const held = model.hold(/gadgets/);
  const first = await startRun(modeler, { idempotency_key: 'ci-run-7' });
  await held.reached;
  const again = await startRun(admin, { idempotency_key: 'ci-run-7' });
  t.is(again.status, 202);
  t.is(again.body.id, first.body.id);
  const busy = await startRun(admin);
  t.is(busy.status, 409);
  t.like(busy.body, { code: 'EVALUATION_RUN_ACTIVE', data: { active_run_id: first.body.id } });
  const reused = await call(t0, 'POST', '/api/evaluations/core/runs', { token: modeler, body: { idempotency_key: 'ci-run-7', target: { kind: 'environment', environment_id: 'env_x' } } });
  t.like(reused, { status: 409, body: { code: 'IDEMPOTENCY_KEY_REUSED' } });
  held.release();
  await finishedRun(first.body.id);
});

test.serial('expected_target_commit answers 409 when the target has moved, and starts when it has not', async (t) => {
  const { commit } = (await call(t0, 'GET', '/api/evaluations/target', { token: modeler })).body;
  const moved = await startRun(modeler, { expected_target_commit: '0'.repeat(40) });
  t.is(moved.status, 409);
  t.like(moved.body, { code: 'TARGET_MOVED', data: { target_commit: commit } });
  const ok = await startRun(modeler, { expected_target_commit: commit });
  t.is(ok.status, 202);
  await finishedRun(ok.body.id);
});

test.serial('cancel ends a running run; compare and regrade work on finished runs', async (t) => {
  const held = model.hold(/gadgets/);
  const running = await startRun();
  await held.reached;
  const notYet = await call(t0, 'POST', `/api/evaluation_runs/${running.body.id}/regrade`, { token: modeler });
  t.like(notYet, { status: 409, body: { code: 'EVALUATION_RUN_NOT_FINISHED' } });
  const cancelled = await call(t0, 'POST', `/api/evaluation_runs/${running.body.id}/cancel`, { token: modeler });
  t.is(cancelled.status, 200);
  t.like(cancelled.body, { status: 'cancelled', verdict: 'error', summary: { error: 3 } });
  held.release();
  await t0.app.services.evaluations.settled(running.body.id);
  t.like(await call(t0, 'POST', `/api/evaluation_runs/${running.body.id}/cancel`, { token: modeler }), { status: 409, body: { code: 'EVALUATION_RUN_FINISHED' } });

  const baseline = await finishedRun((await startRun()).body.id);
  // The expected number of gadgets becomes 40 (42 is 5 % off), and a question is added: one regression and one new question.
  const edited = suite([{ id: 'visitors', question: 'How many visitors came?', expected_answer: 10 }]);
  edited.questions[0] = { ...edited.questions[0]!, expected_answer: 40 };
  t.is((await call(t0, 'PUT', '/api/knowledge/evaluations/core', { token: admin, body: edited })).status, 200);
  const after = await finishedRun((await startRun()).body.id);
  const compared = await call(t0, 'GET', `/api/evaluation_runs/${after.id}/compare?baseline=${baseline.id}`, { token: modeler });
  t.is(compared.status, 200);
  t.deepEqual(
    compared.body.questions.map((q: { id: string; change: string }) => [q.id, q.change]),
    [
      ['gadgets', 'regressed'],
      ['widgets', 'still_passing'],
      ['opened', 'still_passing'],
      ['visitors', 'new'],
    ],
  );
  t.like(compared.body.summary, { regressed: 1, still_passing: 2, new: 1, fixed: 0, removed: 0 });
  const reverse = await call(t0, 'GET', `/api/evaluation_runs/${baseline.id}/compare?baseline=${after.id}`, { token: modeler });
  t.like(reverse.body.summary, { fixed: 1, removed: 1 });

  // Back to 42 and regraded: the run passes its old questions without asking again (the new one stays an error).
  t.is((await call(t0, 'PUT', '/api/knowledge/evaluations/core', { token: admin, body: suite([{ id: 'visitors', question: 'How many visitors came?', expected_answer: 10 }]) })).status, 200);
  const asked = model.asked.length;
  const regraded = await call(t0, 'POST', `/api/evaluation_runs/${after.id}/regrade`, { token: modeler });
  t.is(regraded.status, 200);
  t.like(regraded.body, { summary: { pass: 3, error: 1 }, verdict: 'error' });
  t.truthy(regraded.body.regraded_at);
  t.is(model.asked.length, asked);
  t.is((await call(t0, 'PUT', '/api/knowledge/evaluations/core', { token: admin, body: suite() })).status, 200);
});

test.serial('runs list newest first in keyset pages', async (t) => {
  const all = (await call(t0, 'GET', '/api/evaluations/core/runs?limit=100', { token: modeler })).body.runs as { id: string; created_at: string }[];
  t.true(all.length >= 5);
  const first = await call(t0, 'GET', '/api/evaluations/core/runs?limit=2', { token: modeler });
  t.is(first.body.runs.length, 2);
  t.deepEqual(first.body.runs.map((r: { id: string }) => r.id), all.slice(0, 2).map((r) => r.id));
  t.is(first.body.runs[0].questions, undefined, 'pages carry summaries, not questions');
  const second = await call(t0, 'GET', `/api/evaluations/core/runs?limit=2&cursor=${first.body.next_cursor}`, { token: modeler });
  t.deepEqual(second.body.runs.map((r: { id: string }) => r.id), all.slice(2, 4).map((r) => r.id));
  const listed = await call(t0, 'GET', '/api/evaluations', { token: modeler });
  t.like(listed.body.evaluations[0], { id: 'core', name: 'Core', question_count: 3, last_run: { id: all[0]!.id } });
});

test.serial('regular users get 403 on every evaluation route', async (t) => {
  const { id } = (await startRun()).body;
  await finishedRun(id);
  const routes: [string, string, unknown?][] = [
    ['GET', '/api/evaluations'],
    ['GET', '/api/evaluations/target'],
    ['GET', '/api/evaluations/settings'],
    ['PUT', '/api/evaluations/settings', { evaluation_gate: 'off' }],
    ['GET', '/api/evaluations/core'],
    ['POST', '/api/evaluations/core/runs', { target: { kind: 'production' } }],
    ['GET', '/api/evaluations/core/runs'],
    ['GET', `/api/evaluation_runs/${id}`],
    ['POST', `/api/evaluation_runs/${id}/cancel`],
    ['POST', `/api/evaluation_runs/${id}/regrade`],
    ['GET', `/api/evaluation_runs/${id}/compare?baseline=${id}`],
    ['GET', '/api/environments/env_x/evaluation_diff'],
  ];
  for (const [method, path, body] of routes) {
    const res = await call(t0, method, path, { token: user, ...(body ? { body } : {}) });
    t.is(res.status, 403, `${method} ${path}`);
    t.is((await call(t0, method, path, body ? { body } : {})).status, 401, `${method} ${path} without a credential`);
  }
});

test.serial('another organization’s runs are 404 and its evaluations are not visible', async (t) => {
  const { id } = (await startRun()).body;
  await finishedRun(id);
  for (const [method, path] of [
    ['GET', `/api/evaluation_runs/${id}`],
    ['POST', `/api/evaluation_runs/${id}/cancel`],
    ['POST', `/api/evaluation_runs/${id}/regrade`],
    ['GET', `/api/evaluation_runs/${id}/compare?baseline=${id}`],
    ['GET', '/api/evaluations/core'],
  ] as const) {
    t.is((await call(t0, method, path, { token: otherAdmin })).status, 404, `${method} ${path}`);
  }
  t.like(await call(t0, 'POST', '/api/evaluations/core/runs', { token: otherAdmin, body: {} }), { status: 404, body: { code: 'EVALUATION_NOT_FOUND' } });
  t.deepEqual((await call(t0, 'GET', '/api/evaluations/core/runs', { token: otherAdmin })).body.runs, []);
  t.deepEqual((await call(t0, 'GET', '/api/evaluations', { token: otherAdmin })).body.evaluations, []);
  // Comparing with a run of the caller's own organization does not reach the other's either.
  const own = (await call(t0, 'POST', '/api/knowledge/evaluations', { token: otherAdmin, body: suite() })).status;
  t.is(own, 201);
  const theirs = (await call(t0, 'POST', '/api/evaluations/core/runs', { token: otherAdmin, body: {} })).body.id as string;
  await t0.app.services.evaluations.settled(theirs);
  t.is((await call(t0, 'GET', `/api/evaluation_runs/${theirs}/compare?baseline=${id}`, { token: otherAdmin })).status, 404);
  t.is((await call(t0, 'GET', '/api/environments/env_nope/evaluation_diff', { token: otherAdmin })).status, 404);
});

test.serial('bad input answers 422 in the HTTPValidationError shape, naming the field', async (t) => {
  const cases: [string, string, unknown, (string | number)[]][] = [
    ['POST', '/api/evaluations/core/runs', { target: { kind: 'staging' } }, ['body', 'target', 'kind']],
    ['POST', '/api/evaluations/core/runs', { target: { kind: 'environment' } }, ['body', 'target', 'environment_id']],
    ['POST', '/api/evaluations/core/runs', { target: { kind: 'environment', environment_id: 'env_missing' } }, ['body', 'target', 'environment_id']],
    ['POST', '/api/evaluations/core/runs', { expected_target_commit: 'HEAD' }, ['body', 'expected_target_commit']],
    ['POST', '/api/evaluations/core/runs', { trigger: 'cron' }, ['body', 'trigger']],
    ['POST', '/api/evaluations/core/runs', { metadata: ['a'] }, ['body', 'metadata']],
    ['POST', '/api/evaluations/core/runs', { idempotency_key: '' }, ['body', 'idempotency_key']],
    ['POST', '/api/evaluations/..%2Fx/runs', {}, ['path', 'id']],
    ['GET', '/api/evaluations/core/runs?limit=0', undefined, ['query', 'limit']],
    ['GET', '/api/evaluations/core/runs?cursor=abc', undefined, ['query', 'cursor']],
    ['GET', '/api/evaluation_runs/evr_x/compare', undefined, ['query', 'baseline']],
    ['PUT', '/api/evaluations/settings', { evaluation_gate: 'sometimes' }, ['body', 'evaluation_gate']],
    ['POST', '/api/knowledge/evaluations', { ...suite(), questions: [{ id: 'a', question: 'q?', expected_answer: 'many' }] }, ['body', 'questions', 0, 'expected_answer']],
    ['POST', '/api/knowledge/evaluations', { ...suite(), owner: 'me' }, ['body', 'owner']],
  ];
  for (const [method, path, body, loc] of cases) {
    const res = await call(t0, method, path, { token: admin, ...(body !== undefined ? { body } : {}) });
    t.is(res.status, 422, `${method} ${path} ${JSON.stringify(body)}`);
    t.true(Array.isArray(res.body.detail), 'HTTPValidationError');
    t.deepEqual(res.body.detail[0].loc, loc, `${method} ${path}`);
  }
});

test.serial('the gate setting is read by modelers and changed by admins of the organization only', async (t) => {
  t.deepEqual((await call(t0, 'GET', '/api/evaluations/settings', { token: modeler })).body, { evaluation_gate: 'off' });
  t.like(await call(t0, 'PUT', '/api/evaluations/settings', { token: modeler, body: { evaluation_gate: 'required' } }), { status: 403 });
  t.like(await call(t0, 'PUT', '/api/evaluations/settings', { token: admin, body: { evaluation_gate: 'report' } }), { status: 200, body: { evaluation_gate: 'report' } });
  t.deepEqual((await call(t0, 'GET', '/api/evaluations/settings', { token: modeler })).body, { evaluation_gate: 'report' });
  t.deepEqual((await call(t0, 'GET', '/api/evaluations/settings', { token: otherAdmin })).body, { evaluation_gate: 'off' });
  await call(t0, 'PUT', '/api/evaluations/settings', { token: admin, body: { evaluation_gate: 'off' } });
});

test.serial('the target of an environment names its commit and warehouse overrides; another organization’s is 404', async (t) => {
  const env = (await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: 'Target check', color: '#123456' } })).body;
  await call(t0, 'PUT', `/api/environments/${env.id}/targets`, { token: modeler, body: { targets: { wh: { schema: 'dev_ana' } } } });
  const target = await call(t0, 'GET', `/api/evaluations/target?environment_id=${env.id}`, { token: modeler });
  t.like(target.body, { kind: 'environment', environment_id: env.id, name: 'Target check', overrides: { wh: { schema: 'dev_ana' } } });
  t.regex(target.body.commit, /^[0-9a-f]{40}$/);
  t.is((await call(t0, 'GET', `/api/evaluations/target?environment_id=${env.id}`, { token: otherAdmin })).status, 404);
});

test.serial('an evaluation file in the older format keeps loading: migrated on read, runnable, its prose answers reported', async (t) => {
  const { commitChanges } = await import('../../src/git/index.ts');
  const repo = await t0.app.services.knowledge.repos.repo('acme');
  // Written as earlier versions wrote it (no question ids, prose answers), straight into git.
  await commitChanges({
    repo,
    branch: 'main',
    author: { name: 'Old', email: 'old@example.com', timestamp: 1_700_000_000 },
    message: 'An evaluation from before',
    changes: [
      {
        path: 'evaluations/legacy.yaml',
        content: 'id: legacy\nname: Legacy\nquestions:\n  - question: How many gadgets are there?\n    expected_answer: 42 gadgets.\n  - question: Which shop is best?\n    expected_answer: The one with the most widgets.\n',
      },
    ],
  });
  const read = await call(t0, 'GET', '/api/evaluations/legacy', { token: modeler });
  t.is(read.status, 200);
  t.like(read.body, { migrated: true, questions: [{ id: 'q1', expected_answer: '42', answer_type: 'number', tolerance_pct: 3 }] });
  t.is(read.body.questions.length, 1);
  t.regex(read.body.warnings[0], /^questions\[1\]\.expected_answer: /);
  const listed = (await call(t0, 'GET', '/api/evaluations', { token: modeler })).body.evaluations.find((e: { id: string }) => e.id === 'legacy');
  t.like(listed, { migrated: true, question_count: 1, error: null });
  const started = await call(t0, 'POST', '/api/evaluations/legacy/runs', { token: modeler, body: {} });
  t.is(started.status, 202);
  const run = await finishedRun(started.body.id);
  t.like(run, { verdict: 'pass', warnings: read.body.warnings });
});
