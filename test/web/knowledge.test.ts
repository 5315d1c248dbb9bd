// Knowledge and environments in Chromium against a real gateway with the demo: a modeler edits an
// item in an environment, reviews the diff line by line and merges it; a concurrent edit shows the
// other version and keeps the draft; a 422 lands on its field; a regular user cannot see or reach
// the pages. Each test has a member (and items and environments) of its own.
import anyTest, { type TestFn } from 'ava';
import type { Locator } from 'playwright-core';
import type { Permission, Role } from '../../src/auth/index.ts';
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

async function signedIn(t: Parameters<typeof openPage>[0], role: Role, permissions: Permission[] = []) {
  const user = await passwordUser(w, { orgId: DEMO_ORG_ID, role, permissions });
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, { email: user.email, password: PASSWORD });
  return { ...opened, token: w.session(user) };
}

/** A note in production, made through the API. */
async function productionNote(id: string, body: string) {
  const res = await call(w, 'POST', `/api/knowledge/notes?id=${id}`, { token: admin, body: { title: `Note ${id}`, body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
}

/** The message tied to a field by aria-describedby (the server's 422 message). */
async function fieldMessage(field: Locator): Promise<string> {
  await field.and(field.page().locator('[aria-invalid="true"]')).waitFor();
  const ids = (await field.getAttribute('aria-describedby'))!.split(' ');
  return (await field.page().locator(`[id="${ids.at(-1)}"]`).textContent()) ?? '';
}

test('a modeler edits a note in an environment, sees the diff line by line and merges it', async (t) => {
  await productionNote('web-merge', 'Revenue counts completed orders.');
  const { page, problems, token } = await signedIn(t, 'modeler', ['merge_to_production']);
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Knowledge' }).click();
  await page.getByRole('navigation', { name: 'Knowledge' }).getByRole('link', { name: 'Environments' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Web pricing');
  await page.getByRole('button', { name: 'Create environment' }).click();
  await page.getByRole('heading', { name: 'Environment Web pricing' }).waitFor();
  const bar = page.getByRole('region', { name: 'Active environment' });
  await bar.getByText('Web pricing').waitFor();
  // The switch survives a reload, and every request of the client carries the header.
  await page.reload();
  await bar.getByText('Web pricing').waitFor();
  const envId = decodeURIComponent(page.url().split('/').at(-1)!);
  await checkAccessibility(t, page, 'a new environment');

  await page.goto('/knowledge/items/notes/web-merge');
  const body = page.getByRole('textbox', { name: 'body' });
  await body.fill('Revenue counts completed and shipped orders.');
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('/api/knowledge/notes/web-merge'));
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  t.is((await put).headers()['x-service-environment'], envId);
  await page.getByText('Saved.').waitFor();
  await checkAccessibility(t, page, 'a note edited in an environment');
  t.is((await call(w, 'GET', '/api/knowledge/notes/web-merge', { token })).body.data.body, 'Revenue counts completed orders.');
  t.is((await call(w, 'GET', '/api/knowledge/notes/web-merge', { token, env: envId })).body.data.body, 'Revenue counts completed and shipped orders.');

  await bar.getByRole('link', { name: 'Review and merge' }).click();
  const file = page.getByRole('article', { name: 'notes/web-merge.yaml, modified' });
  await file.getByText('-body: Revenue counts completed orders.').waitFor();
  await file.getByText('+body: Revenue counts completed and shipped orders.').waitFor();
  await page.getByText('No conflict').waitFor();
  await checkAccessibility(t, page, 'the diff of an environment');
  // Merged with the keyboard alone: the confirmation takes the focus.
  await page.getByRole('button', { name: 'Merge', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.getByText('Merged into production.').waitFor();
  await page.getByText('No change yet').waitFor();
  t.is((await call(w, 'GET', '/api/knowledge/notes/web-merge', { token })).body.data.body, 'Revenue counts completed and shipped orders.');
  t.deepEqual(problems, []);
});

test('a modeler without the merge permission sees why they cannot merge, and deletes the environment', async (t) => {
  const { page, token } = await signedIn(t, 'modeler');
  const env = (await call(w, 'POST', '/api/environments', { token, body: { name: 'No merge', color: '#aa3377' } })).body as { id: string };
  await page.goto(`/knowledge/environments/${env.id}`);
  await page.getByText('You cannot merge').waitFor();
  t.is(await page.getByRole('button', { name: 'Merge', exact: true }).count(), 0);
  // Warehouse targets: the dev schema a connection reads in this environment, and the sync from it.
  const targets = page.getByRole('region', { name: 'Warehouse targets' });
  await targets.getByRole('textbox', { name: 'Connection' }).fill('demo_warehouse');
  await targets.getByRole('textbox', { name: 'Schema' }).fill('main');
  await targets.getByRole('button', { name: 'Set target' }).click();
  await targets.getByRole('list', { name: 'Target overrides' }).getByText('reads schema main').waitFor();
  t.deepEqual((await call(w, 'GET', `/api/environments/${env.id}`, { token })).body.targets, { demo_warehouse: { schema: 'main' } });
  await targets.getByRole('button', { name: 'Sync table documentation from the targets' }).click();
  await targets.getByText('Table documentation refreshed from the targets.').waitFor();
  await checkAccessibility(t, page, 'an environment with a target, seen by a modeler who cannot merge');
  await page.getByRole('button', { name: 'Work in No merge' }).click();
  await page.getByRole('region', { name: 'Active environment' }).waitFor();
  await page.getByRole('button', { name: 'Delete environment No merge' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await page.getByRole('heading', { name: 'Environments', exact: true }).waitFor();
  t.is(await page.getByRole('region', { name: 'Active environment' }).count(), 0, 'the deleted environment is no longer active');
  await checkAccessibility(t, page, 'the list of environments');
  t.is((await call(w, 'GET', `/api/environments/${env.id}`, { token })).status, 404);
});

test('an edit that meets someone else\'s save shows their version and keeps the draft through a reload', async (t) => {
  await productionNote('web-race', 'first');
  const { page, token } = await signedIn(t, 'modeler');
  const env = (await call(w, 'POST', '/api/environments', { token, body: { name: 'Race', color: '#228833' } })).body as { id: string; name: string; color: string };
  await page.goto('/');
  // Switched in as the environments page does it (local storage), here without the page.
  await page.evaluate(`localStorage.setItem('sextant.environment', ${JSON.stringify(JSON.stringify({ id: env.id, name: env.name, color: env.color }))}); 0`);
  await page.goto('/knowledge/items/notes/web-race');
  const body = page.getByRole('textbox', { name: 'body' });
  await body.fill('mine');
  t.is((await call(w, 'PUT', '/api/knowledge/notes/web-race', { token, env: env.id, body: { title: 'Note web-race', body: 'theirs' } })).status, 200);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Someone else changed this item' });
  await alert.getByText('body: theirs').waitFor();
  t.is(await body.inputValue(), 'mine');
  await checkAccessibility(t, page, 'an edit conflict');
  await page.reload();
  t.is(await body.inputValue(), 'mine');
  await page.getByRole('button', { name: /^Save/ }).click();
  await page.getByText('Saved.').waitFor();
  t.is((await call(w, 'GET', '/api/knowledge/notes/web-race', { token, env: env.id })).body.data.body, 'mine');
  // Deleted elsewhere: the page goes back to production rather than fail on every request.
  t.is((await call(w, 'DELETE', `/api/environments/${env.id}?confirm=true`, { token })).status, 200);
  await page.reload();
  await page.getByText('In production.').or(page.getByRole('heading', { name: 'Note web-race' })).first().waitFor();
  await page.getByRole('region', { name: 'Active environment' }).waitFor({ state: 'detached' });
  t.is(await page.evaluate('localStorage.getItem("sextant.environment")'), null);
});

test('the server\'s 422 is shown on the field it names, and nothing typed is lost', async (t) => {
  const { page, token } = await signedIn(t, 'admin');
  await page.goto('/knowledge/items/notes');
  await page.getByRole('link', { name: 'New note' }).click();
  await page.getByRole('textbox', { name: 'body' }).fill('A note without a title');
  await page.getByRole('button', { name: 'Create note' }).click();
  t.truthy(await fieldMessage(page.getByRole('textbox', { name: 'title' })));
  t.is(await page.getByRole('textbox', { name: 'body' }).inputValue(), 'A note without a title');
  await checkAccessibility(t, page, 'a new note with a field error');
  await page.getByRole('textbox', { name: 'title' }).fill('Web titled note');
  await page.getByRole('textbox', { name: 'File id' }).fill('web-titled');
  await page.getByRole('button', { name: 'Create note' }).click();
  await page.getByRole('heading', { name: 'Web titled note' }).waitFor();
  t.is((await call(w, 'GET', '/api/knowledge/notes/web-titled', { token })).body.data.body, 'A note without a title');
  // A table's id holds a slash (`connection/schema.table`): its page opens from the list all the same.
  await page.getByRole('navigation', { name: 'Knowledge' }).getByRole('link', { name: 'Tables' }).click();
  await page.getByRole('list', { name: 'Tables' }).getByRole('link', { name: 'orders', exact: true }).click();
  await page.getByRole('textbox', { name: 'columns' }).waitFor();
  t.regex(page.url(), /\/knowledge\/items\/tables\/demo_warehouse%2Fmain\.orders$/);
  await checkAccessibility(t, page, 'a table');
});

test('a regular user sees no Knowledge section and gets a plain message at its address', async (t) => {
  const { page, problems } = await signedIn(t, 'user');
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Ask' }).waitFor();
  t.is(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Knowledge' }).count(), 0);
  for (const path of ['/knowledge/items/notes', '/knowledge/environments', '/knowledge/evaluations']) {
    await page.goto(path);
    await page.getByText('The knowledge pages are for admins and modelers.').waitFor();
    t.is(await page.getByRole('navigation', { name: 'Knowledge' }).count(), 0);
  }
  await checkAccessibility(t, page, 'the knowledge pages refused');
  t.is((await page.request.get('/api/environments')).status(), 403);
  t.deepEqual(problems, []);
});
