// The evaluation gate on POST /api/environments/{id}/merge, with a scripted model that answers from
// the knowledge it is given: off leaves merges as they were; report carries the comparison; required
// refuses while runs are going and when a question regresses, and only an admin may override (the
// merge commit message records it).
import test from 'ava';
import { history } from '../../src/git/index.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { scriptedProvider } from '../helpers/scripted-provider.ts';

const model = scriptedProvider((question, system) => {
  if (/widgets/i.test(question)) return `We have ${/We have (\d+) widgets/.exec(system)?.[1] ?? 'no'} widgets.`;
  return 'There are 42 gadgets.';
});

let t0: TestApp;
let admin: string;
let merger: string;

test.before(async () => {
  t0 = await startTestApp({}, { llmProvider: model });
  const org = t0.org('acme');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  merger = t0.session(t0.user({ orgId: org, role: 'modeler', permissions: ['merge_to_production'] }));
  await call(t0, 'POST', '/api/knowledge/notes?id=widgets', { token: admin, body: { title: 'Widgets', body: 'We have 5000 widgets in stock.' } });
  await call(t0, 'POST', '/api/knowledge/evaluations', {
    token: admin,
    body: {
      id: 'core',
      name: 'Core',
      questions: [
        { id: 'widgets', question: 'How many widgets do we have?', expected_answer: 5000 },
        { id: 'gadgets', question: 'How many gadgets are there?', expected_answer: 42 },
      ],
    },
  });
});
test.after.always(() => t0.stop());

/** An environment whose note says `widgets` widgets. */
async function envWith(widgets: number, token = merger): Promise<string> {
  const env = (await call(t0, 'POST', '/api/environments', { token, body: { name: `Widgets ${widgets} ${Math.random()}`, color: '#336699' } })).body;
  const res = await call(t0, 'PUT', '/api/knowledge/notes/widgets', { token, env: env.id, body: { title: 'Widgets', body: `We have ${widgets} widgets in stock.` } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return env.id as string;
}

/** The environment diff once its runs have ended. */
async function readyDiff(envId: string, token = merger) {
  const first = await call(t0, 'GET', `/api/environments/${envId}/evaluation_diff`, { token });
  for (const e of first.body.evaluations) for (const id of [e.environment_run_id, e.production_run_id]) if (id) await t0.app.services.evaluations.settled(id);
  return (await call(t0, 'GET', `/api/environments/${envId}/evaluation_diff`, { token })).body;
}

const setGate = (gate: string) => call(t0, 'PUT', '/api/evaluations/settings', { token: admin, body: { evaluation_gate: gate } });
const lastMessage = async () => (await history({ repo: await t0.app.services.knowledge.repos.repo('acme'), ref: 'main' }))[0]!.message;

test.serial('with the gate off a merge goes through as before, evaluations or not', async (t) => {
  await setGate('off');
  const env = await envWith(6000);
  const merged = await call(t0, 'POST', `/api/environments/${env}/merge`, { token: merger, body: { confirm: true } });
  t.is(merged.status, 200);
  t.is(merged.body.evaluations, undefined);
  t.notRegex(await lastMessage(), /Evaluation gate/);
  // Production back to 5000 widgets.
  await call(t0, 'PUT', '/api/knowledge/notes/widgets', { token: admin, body: { title: 'Widgets', body: 'We have 5000 widgets in stock.' } });
});

test.serial('the environment diff names exactly the question the environment changes, and reuses finished runs', async (t) => {
  const env = await envWith(6000);
  const diff = await readyDiff(env);
  t.is(diff.status, 'ready');
  t.deepEqual(diff.regressions, [
    { evaluation_id: 'core', question_id: 'widgets', question: 'How many widgets do we have?', expected: 5000, production_observed: 5000, environment_observed: 6000, environment_result: 'fail' },
  ]);
  t.like(diff.evaluations[0].comparison.summary, { regressed: 1, still_passing: 1 });
  const asked = model.asked.length;
  const again = (await call(t0, 'GET', `/api/environments/${env}/evaluation_diff`, { token: merger })).body;
  t.is(again.evaluations[0].environment_run_id, diff.evaluations[0].environment_run_id);
  t.is(model.asked.length, asked, 'finished runs at the same commits are reused');
});

test.serial('required: a regression refuses the merge naming the question with its expected and both observed values', async (t) => {
  await setGate('required');
  const env = await envWith(6000);
  const pending = await call(t0, 'POST', `/api/environments/${env}/merge`, { token: merger, body: { confirm: true } });
  t.is(pending.status, 409);
  t.is(pending.body.code, 'EVALUATIONS_PENDING');
  t.is(pending.body.data.runs.length, 2);
  await readyDiff(env);
  const refused = await call(t0, 'POST', `/api/environments/${env}/merge`, { token: merger, body: { confirm: true } });
  t.is(refused.status, 409);
  t.is(refused.body.code, 'EVALUATION_REGRESSION');
  t.deepEqual(refused.body.data.regressions.map((r: Record<string, unknown>) => [r.question_id, r.expected, r.production_observed, r.environment_observed]), [['widgets', 5000, 5000, 6000]]);
  const notAdmin = await call(t0, 'POST', `/api/environments/${env}/merge`, { token: merger, body: { confirm: true, override_evaluations: true } });
  t.like(notAdmin, { status: 403, body: { code: 'EVALUATION_OVERRIDE_FORBIDDEN' } });
  // The admin's own runs decide for the admin: first pending, then the override goes through.
  t.is((await call(t0, 'POST', `/api/environments/${env}/merge`, { token: admin, body: { confirm: true } })).body.code, 'EVALUATIONS_PENDING');
  await readyDiff(env, admin);
  const overridden = await call(t0, 'POST', `/api/environments/${env}/merge`, { token: admin, body: { confirm: true, override_evaluations: true } });
  t.is(overridden.status, 200);
  t.is(overridden.body.evaluation_gate, 'required');
  t.is(overridden.body.evaluations.regressions.length, 1);
  const message = await lastMessage();
  t.regex(message, /Evaluation gate overridden by .+@example\.com: 1 evaluation\(s\), 1 regressed question\(s\)/);
  t.regex(message, /core\/widgets: expected 5000, production 5000, environment 6000/);
  await call(t0, 'PUT', '/api/knowledge/notes/widgets', { token: admin, body: { title: 'Widgets', body: 'We have 5000 widgets in stock.' } });
});

test.serial('required: an environment that changes no answer merges, and the merge commit says the gate passed', async (t) => {
  const env = await envWith(5000);
  await call(t0, 'POST', '/api/knowledge/notes?id=extra', { token: merger, env, body: { title: 'Extra', body: 'Unrelated words.' } });
  await readyDiff(env);
  const merged = await call(t0, 'POST', `/api/environments/${env}/merge`, { token: merger, body: { confirm: true } });
  t.is(merged.status, 200);
  t.is(merged.body.evaluations.regressions.length, 0);
  t.regex(await lastMessage(), /Evaluation gate passed: 1 evaluation\(s\), 0 regressed question\(s\)/);
});

test.serial('report: the merge goes through and carries the comparison', async (t) => {
  await setGate('report');
  const env = await envWith(7000);
  await readyDiff(env);
  const merged = await call(t0, 'POST', `/api/environments/${env}/merge`, { token: merger, body: { confirm: true } });
  t.is(merged.status, 200);
  t.is(merged.body.evaluation_gate, 'report');
  t.deepEqual(merged.body.evaluations.regressions.map((r: { question_id: string }) => r.question_id), ['widgets']);
  t.regex(await lastMessage(), /Evaluation gate \(report\): 1 evaluation\(s\), 1 regressed question\(s\)/);
  await setGate('off');
});

test.serial('the gate checks confirm and the merge permission before starting any run', async (t) => {
  await setGate('required');
  const env = await envWith(6000);
  const runsBefore = t0.app.services.store.sqlite!.prepare('SELECT count(*) FROM evaluation_runs').pluck().get();
  t.is((await call(t0, 'POST', `/api/environments/${env}/merge`, { token: merger, body: {} })).status, 422);
  const modeler = t0.session(t0.user({ orgId: 'acme', role: 'modeler' }));
  t.is((await call(t0, 'POST', `/api/environments/${env}/merge`, { token: modeler, body: { confirm: true } })).status, 403);
  t.is(t0.app.services.store.sqlite!.prepare('SELECT count(*) FROM evaluation_runs').pluck().get(), runsBefore);
  await setGate('off');
});
