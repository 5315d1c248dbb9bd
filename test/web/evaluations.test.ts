// Evaluation runs in Chromium against a real gateway with the demo and the offline model: a run
// started from the page shows its progress, finishes, shows every question's expected and observed
// answers with its chat, and compares with a baseline run.
import anyTest, { type TestFn } from 'ava';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { call } from '../helpers/api.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';
import { SLOW_TEST_MS } from '../helpers/patience.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp({ SEXTANT_EVAL_CONCURRENCY: '4' });
});
test.after.always(() => w?.stop());

// Serial, in this order: the gate's merge changes production, which the first test's runs ask.
test.serial('an evaluation run started from the page finishes, shows each question\'s result with its chat, and compares with a baseline', async (t) => {
  t.timeout(SLOW_TEST_MS);
  const user = await passwordUser(w, { orgId: DEMO_ORG_ID, role: 'modeler' });
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, { email: user.email, password: PASSWORD });
  await page.goto('/knowledge/evaluations');
  const card = page.getByRole('list', { name: 'Evaluations' }).getByRole('listitem').filter({ hasText: 'Core business questions' });
  await checkAccessibility(t, page, 'the evaluations');

  const runOnce = async () => {
    await page.goto('/knowledge/evaluations');
    await card.getByRole('button', { name: 'Run on production: Core business questions' }).click();
    await page.getByRole('heading', { name: 'Run of Core business questions' }).waitFor();
    await page.getByRole('heading', { name: 'Verdict' }).waitFor({ timeout: 90_000 });
    return decodeURIComponent(page.url().split('/').at(-1)!);
  };
  const baseline = await runOnce();
  const runId = await runOnce();
  t.not(runId, baseline);
  const run = (await (await page.request.get(`/api/evaluation_runs/${runId}`)).json()) as { verdict: string; summary: { total: number; pass: number }; questions: { question: string }[] };
  t.is(run.verdict, 'pass');
  await page.getByRole('status').filter({ hasText: `${run.summary.pass} passed` }).waitFor();
  const rows = page.getByRole('table', { name: 'Questions' }).getByRole('row');
  t.is(await rows.count(), run.summary.total + 1);
  await rows.filter({ hasText: run.questions[0]!.question }).getByText('pass', { exact: true }).waitFor();
  t.true((await page.getByRole('link', { name: `Open the chat of ${run.questions[0]!.question}` }).getAttribute('href'))!.startsWith('/chat/'));
  await checkAccessibility(t, page, 'a finished run');

  await page.getByRole('combobox', { name: 'Baseline run' }).selectOption(baseline);
  await page.getByRole('button', { name: 'Compare' }).click();
  const comparison = page.getByRole('table', { name: 'Comparison with the baseline' });
  await comparison.waitFor();
  t.is(await comparison.getByText('still passing').count(), run.summary.total);
  await checkAccessibility(t, page, 'a comparison with a baseline');
  // The answer's chat opens in the Ask pages.
  await page.getByRole('link', { name: `Open the chat of ${run.questions[0]!.question}` }).click();
  await page.waitForURL('**/chat/**');
  await page.getByText(run.questions[0]!.question).first().waitFor();
  t.deepEqual(problems, []);
});

test.serial('with the required gate, the environment page lists the regressed question, refuses the merge, and lets an admin override it', async (t) => {
  t.timeout(SLOW_TEST_MS);
  const user = await passwordUser(w, { orgId: DEMO_ORG_ID, role: 'admin' });
  const token = w.session(user);
  t.is((await call(w, 'PUT', '/api/evaluations/settings', { token, body: { evaluation_gate: 'required' } })).status, 200);
  // Revenue redefined in an environment (completed orders only): the revenue question regresses.
  const env = (await call(w, 'POST', '/api/environments', { token, body: { name: 'Completed only', color: '#aa3300' } })).body as { id: string };
  const tableId = encodeURIComponent('demo_warehouse/main.orders');
  const orders = (await call(w, 'GET', `/api/knowledge/tables/${tableId}`, { token, env: env.id })).body.data as { metrics: { name: string; filter?: string }[] };
  orders.metrics.find((m) => m.name === 'revenue')!.filter = "status = 'completed'";
  t.is((await call(w, 'PUT', `/api/knowledge/tables/${tableId}`, { token, env: env.id, body: orders })).status, 200);

  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, { email: user.email, password: PASSWORD });
  await page.goto(`/knowledge/environments/${env.id}`);
  await page.getByRole('button', { name: 'Compare evaluations with production' }).click();
  const regressions = page.getByRole('region', { name: 'Evaluation check' }).getByRole('table', { name: 'Regressed questions' });
  await regressions.waitFor({ timeout: 90_000 });
  t.is(await regressions.getByRole('row').count(), 2);
  await regressions.getByText('fail').waitFor();
  await checkAccessibility(t, page, 'the evaluation check of an environment');

  const merge = page.getByRole('region', { name: 'Merge into production' });
  await merge.getByRole('button', { name: 'Merge', exact: true }).click();
  await merge.getByRole('button', { name: 'Yes, merge' }).click();
  // Said in the merger's words, with what an admin can do.
  await merge.getByRole('alert').filter({ hasText: 'answer worse here than on production' }).filter({ hasText: 'Merge despite the regressions' }).waitFor();
  await merge.getByRole('table', { name: 'Regressed questions' }).waitFor();
  await merge.getByRole('checkbox', { name: /Merge despite the regressions/ }).check();
  await merge.getByRole('button', { name: 'Merge', exact: true }).click();
  await merge.getByRole('button', { name: 'Yes, merge' }).click();
  await merge.getByText('Merged into production.').waitFor();
  const head = (await call(w, 'GET', '/api/knowledge/model/history?limit=1', { token })).body.commits[0] as { message: string };
  t.regex(head.message, /Evaluation gate overridden/);
  t.deepEqual(problems, []);
});
