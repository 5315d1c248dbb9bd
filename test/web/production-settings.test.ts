// Issue 35 in Chromium against a real gateway: an admin sets the evaluation gate and "changes to
// production only through environments" on the organization settings page; where it is on, a
// modeler finds production's items read-only and starts an environment from one to change it.
import anyTest, { type TestFn } from 'ava';
import type { Role } from '../../src/auth/index.ts';
import { call } from '../helpers/api.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

async function signedIn(t: Parameters<typeof openPage>[0], orgId: string, role: Role) {
  const user = await passwordUser(w, { orgId, role });
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, { email: user.email, password: PASSWORD });
  return { ...opened, token: w.session(user) };
}

test('an admin chooses the evaluation gate, each choice explained, and protects production', async (t) => {
  const orgId = w.org();
  const { page, problems, token } = await signedIn(t, orgId, 'admin');
  await page.goto('/admin/organization');
  const gate = page.getByRole('group', { name: 'Evaluations on merges' });
  await gate.getByRole('radio', { name: 'Off' }).waitFor();
  t.true(await gate.getByRole('radio', { name: 'Off' }).isChecked());
  t.regex((await gate.getByRole('radio', { name: 'Report' }).getAttribute('aria-describedby'))!, /gate-report/);
  await gate.getByText('A merge is refused when a question answers worse on the environment than on production').waitFor();
  await gate.getByRole('radio', { name: 'Required' }).check();
  await page.getByRole('button', { name: 'Save evaluation gate' }).click();
  await page.getByText('Evaluation gate saved.').waitFor();
  t.is((await call(w, 'GET', '/api/evaluations/settings', { token })).body.evaluation_gate, 'required');

  const protect = page.getByRole('checkbox', { name: 'Changes to production only through environments' });
  t.false(await protect.isChecked());
  await protect.check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Settings saved.').waitFor();
  t.true((await call(w, 'GET', '/api/admin/organization/settings', { token })).body.production_through_environments);
  // What the page shows after a reload is what the server keeps.
  await page.reload();
  await page.getByRole('radio', { name: 'Required' }).waitFor();
  t.true(await page.getByRole('radio', { name: 'Required' }).isChecked());
  t.true(await page.getByRole('checkbox', { name: 'Changes to production only through environments' }).isChecked());
  await checkAccessibility(t, page, 'the organization settings with the evaluation gate');
  t.deepEqual(problems, []);
});

test('where production changes only through environments, its items are read-only and an environment is one click away', async (t) => {
  const orgId = w.org();
  const admin = w.session(w.user({ orgId, role: 'admin' }));
  const rules = ['Revenue counts completed orders.', ...Array<string>(40).fill('A line of the rules.')].join('\n');
  t.is((await call(w, 'POST', '/api/knowledge/notes?id=locked', { token: admin, body: { title: 'Locked note', body: rules } })).status, 201);
  t.is((await call(w, 'PATCH', '/api/admin/organization/settings', { token: admin, body: { production_through_environments: true } })).status, 200);
  const { page, problems, token } = await signedIn(t, orgId, 'modeler');

  await page.goto('/knowledge/items/notes');
  await page.getByRole('note', { name: 'Production is read-only' }).waitFor();
  t.is(await page.getByRole('link', { name: 'New note' }).count(), 0);

  await page.goto('/knowledge/items/notes/locked');
  const locked = page.getByRole('note', { name: 'Production is read-only' });
  await locked.waitFor();
  const file = page.getByLabel('The note as it is');
  await file.getByText('Revenue counts completed orders.').waitFor();
  // The file is the page's content: shown whole, not in a box of its own to scroll.
  t.true(await file.evaluate((el) => el.scrollHeight <= el.clientHeight), 'the whole file shows');
  t.is(await page.getByRole('button', { name: 'Save' }).count(), 0);
  await checkAccessibility(t, page, 'a read-only production item');

  await locked.getByRole('button', { name: 'Create an environment to change this' }).click();
  await page.getByRole('region', { name: 'Active environment' }).getByText('Change Locked note').waitFor();
  const body = page.getByRole('textbox', { name: 'body' });
  await body.fill('Revenue counts completed and shipped orders.');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Saved.').waitFor();
  const envs = (await call(w, 'GET', '/api/environments', { token })).body as { id: string; name: string }[];
  const env = envs.find((e) => e.name.startsWith('Change Locked note'))!;
  t.is((await call(w, 'GET', '/api/knowledge/notes/locked', { token, env: env.id })).body.data.body, 'Revenue counts completed and shipped orders.');
  t.is((await call(w, 'GET', '/api/knowledge/notes/locked', { token })).body.data.body, rules, 'production is unchanged until the merge');
  t.deepEqual(problems, []);
});
