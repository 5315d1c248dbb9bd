// Resolving a conflict with production in Chromium against a real gateway (issue 35): a modeler changes
// a note in an environment, production changes the same note, the environment page shows the conflict
// and holds the merge back; the modeler resolves it field by field, production's changes come into the
// environment, and the merge applies.
import anyTest, { type TestFn } from 'ava';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { call } from '../helpers/api.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
let admin: string;
test.before(async () => {
  w = await startWebApp();
  admin = w.session(await passwordUser(w, { orgId: DEMO_ORG_ID, role: 'admin' }));
});
test.after.always(() => w?.stop());

test('a modeler resolves a conflict with production field by field, then merges', async (t) => {
  const note = { title: 'Fiscal year', body: 'The fiscal year starts in April.\n', tags: ['dates'] };
  t.is((await call(w, 'POST', '/api/knowledge/notes?id=web-conflict', { token: admin, body: note })).status, 201);
  const user = await passwordUser(w, { orgId: DEMO_ORG_ID, role: 'modeler', permissions: ['merge_to_production'] });
  const token = w.session(user);
  const { page, problems, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, { email: user.email, password: PASSWORD });
  const env = (await call(w, 'POST', '/api/environments', { token, body: { name: 'Web conflict', color: '#1e88e5' } })).body as { id: string };

  // The modeler's change in the environment, through the item page.
  await page.goto(`/knowledge/environments/${env.id}`);
  await page.getByRole('button', { name: 'Work in Web conflict' }).click();
  await page.goto('/knowledge/items/notes/web-conflict');
  await page.getByRole('textbox', { name: 'title' }).fill('Fiscal year (April to March)');
  await page.getByRole('textbox', { name: 'body' }).fill('The fiscal year starts in April and ends in March.\n');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Saved.').waitFor();
  // Production changes the same note meanwhile (title and body), and another note.
  t.is((await call(w, 'PUT', '/api/knowledge/notes/web-conflict', { token: admin, body: { ...note, title: 'Fiscal calendar', body: 'The fiscal year starts on 1 April.\n' } })).status, 200);
  t.is((await call(w, 'POST', '/api/knowledge/notes?id=web-conflict-other', { token: admin, body: { title: 'Other', body: 'x' } })).status, 201);

  await page.goto(`/knowledge/environments/${env.id}`);
  const section = page.getByRole('region', { name: 'Conflicts with production' });
  const file = section.getByRole('group', { name: 'Resolve notes/web-conflict.yaml' });
  await file.waitFor();
  // Both versions are shown, and Merge waits.
  await file.getByText('Fiscal year (April to March)').first().waitFor();
  await file.getByText('Fiscal calendar').first().waitFor();
  await page.getByText('Resolve the conflicts with production above first').waitFor();
  t.true(await page.getByRole('button', { name: 'Merge', exact: true }).isDisabled());
  const resolve = section.getByRole('button', { name: 'Resolve and bring in production’s changes' });
  t.true(await resolve.isDisabled(), 'nothing is chosen yet');
  await checkAccessibility(t, page, 'a conflict to resolve');

  // Field by field: production's title, the environment's body edited a little.
  await file.getByRole('radio', { name: 'Merge field by field' }).check();
  const title = file.getByRole('group', { name: 'Field title' });
  await title.getByRole('radio', { name: /^Production/ }).check();
  const body = file.getByRole('group', { name: 'Field body' });
  await body.getByRole('radio', { name: 'Edit the value' }).check();
  const edited = body.getByRole('textbox', { name: 'Merged body' });
  t.is(await edited.inputValue(), 'The fiscal year starts in April and ends in March.\n');
  await edited.fill('The fiscal year starts on 1 April and ends on 31 March.\n');
  await checkAccessibility(t, page, 'a conflict resolved field by field');
  const update = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/environments/${env.id}/update`));
  await resolve.click();
  t.is((await update).status(), 200);
  await section.getByText('Production’s changes are in this environment now.').waitFor();
  await section.getByText('No conflict').waitFor();

  const inEnv = (await call(w, 'GET', '/api/knowledge/notes/web-conflict', { token, env: env.id })).body.data;
  t.deepEqual(inEnv, { title: 'Fiscal calendar', body: 'The fiscal year starts on 1 April and ends on 31 March.\n', tags: ['dates'] });
  t.is((await call(w, 'GET', '/api/knowledge/notes/web-conflict-other', { token, env: env.id })).status, 200);

  const merge = page.getByRole('button', { name: 'Merge', exact: true });
  await merge.and(page.locator(':enabled')).waitFor();
  await merge.click();
  await page.getByRole('button', { name: 'Yes, merge' }).click();
  await page.getByText('Merged into production.').waitFor();
  t.deepEqual((await call(w, 'GET', '/api/knowledge/notes/web-conflict', { token: admin })).body.data, inEnv);
  t.deepEqual(problems, []);
});
