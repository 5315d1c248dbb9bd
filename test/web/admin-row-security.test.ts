// The Row security admin page in Chromium against a real gateway: the filters written in the table
// documentation are listed with whom they apply to; an admin previews what a chosen member sees
// (their filtered rows, no rows for a member lacking the attribute, every row for an exempt admin),
// adds a group with a member by keyboard, sees the group filter join the preview, and deletes the
// group; a table's filters are added, refused on their field and removed on the page; an analyst and a modeler are refused (admin-connections.test.ts covers both pages' refusal).
import anyTest, { type TestFn } from 'ava';
import type { Role } from '../../src/auth/index.ts';
import { call } from '../helpers/api.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

// Serial, as admin.test.ts: each test signs in a new organization, and pages loading at once beside the suite ran past the page load timeout.
const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(async () => {
  await w?.stop();
});

/** A browser signed in as a new member of a new organization (its only admin when `role` is admin). */
async function signedIn(t: Parameters<typeof openPage>[0], role: Role = 'admin') {
  const orgId = w.org();
  const user = await passwordUser(w, { orgId, role });
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, { email: user.email, password: PASSWORD });
  return { ...opened, orgId, user, token: w.session(user) };
}

test.serial('an admin previews what members see, adds a group whose filter joins the preview, and deletes it', async (t) => {
  const { page, problems, orgId, user, token } = await signedIn(t);
  const analyst = w.user({ orgId, role: 'user', email: `analyst-${orgId}@example.com` });
  const newcomer = w.user({ orgId, role: 'user', email: `newcomer-${orgId}@example.com` });
  const orders = {
    connection: 'wh',
    schema: 'main',
    name: 'orders',
    columns: [{ name: 'country', type: 'VARCHAR' }],
    row_filters: [
      { filter: 'country = {{user.country}}', exempt_roles: ['admin'] },
      { filter: "region = 'EMEA'", groups: ['emea_sales'] },
    ],
  };
  t.is((await call(w, 'POST', '/api/knowledge/tables', { token, body: orders })).status, 201);
  t.is((await call(w, 'PUT', `/api/row-security/users/${analyst.id}/attributes`, { token, body: { attributes: { country: 'France' } } })).status, 200);

  await page.goto('/admin/members');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Row security' }).click();
  await page.getByRole('heading', { name: 'Row security', level: 1 }).waitFor();
  const filters = page.getByRole('listitem', { name: 'Row filters of wh/main.orders' });
  await filters.getByText('for everyone except the roles admin').waitFor();
  await filters.getByText('for members of emea_sales').waitFor();

  const picker = page.getByRole('combobox', { name: 'Member to preview' });
  await picker.locator(`option[value="${analyst.id}"]`).waitFor({ state: 'attached' });
  await picker.selectOption(analyst.id);
  let seen = page.getByRole('region', { name: `What ${analyst.email} sees` });
  await seen.getByText('with country = France, in no group').waitFor();
  await seen.getByRole('row', { name: /wh\/main\.orders/ }).getByText("the rows where (country = 'France')").waitFor();
  await checkAccessibility(t, page, 'the row security preview');

  await picker.selectOption(newcomer.id);
  seen = page.getByRole('region', { name: `What ${newcomer.email} sees` });
  await seen.getByText('no rows: a filter needs an attribute or group they do not have').waitFor();
  await picker.selectOption(user.id);
  seen = page.getByRole('region', { name: `What ${user.email} sees` });
  await seen.getByText('every row (no filter applies to them)').waitFor();

  // A group added with the keyboard alone: the name typed, the member ticked with the space bar, Enter saves.
  const form = page.getByRole('form', { name: 'New group' });
  await form.getByRole('textbox', { name: 'Group name' }).fill('EMEA sales');
  t.is(await form.getByRole('textbox', { name: 'Group id' }).getAttribute('placeholder'), 'emea_sales');
  await form.getByRole('checkbox', { name: analyst.email }).focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByText('Group EMEA sales saved with 1 member.').waitFor();
  const group = page.getByRole('listitem', { name: 'Group EMEA sales' });
  t.regex(await group.getByText(/^Members: /).innerText(), new RegExp(analyst.email));
  t.deepEqual((await call(w, 'GET', '/api/row-security/groups', { token })).body.groups, [{ id: 'emea_sales', name: 'EMEA sales', members: [analyst.id] }]);

  await picker.selectOption(analyst.id);
  seen = page.getByRole('region', { name: `What ${analyst.email} sees` });
  await seen.getByText("the rows where (country = 'France') AND (region = 'EMEA')").waitFor();
  await checkAccessibility(t, page, 'the row security page with a group');

  await group.getByRole('button', { name: 'Delete group EMEA sales' }).click();
  await group.getByRole('button', { name: 'Yes, delete' }).click();
  await page.getByText('Group EMEA sales deleted', { exact: false }).waitFor();
  t.deepEqual((await call(w, 'GET', '/api/row-security/groups', { token })).body.groups, []);
  t.deepEqual(problems, []);
});

test.serial('a group\'s members are changed, and an id filters cannot name is refused on its field', async (t) => {
  const { page, problems, orgId, token } = await signedIn(t);
  const member = w.user({ orgId, role: 'user', email: `member-${orgId}@example.com` });
  await page.goto('/admin/row-security');
  await page.getByText('No table has a row filter', { exact: false }).waitFor();
  const form = page.getByRole('form', { name: 'New group' });
  await form.getByRole('textbox', { name: 'Group name' }).fill('Auditors');
  await form.getByRole('textbox', { name: 'Group id' }).fill('bad id!');
  await form.getByRole('button', { name: 'Add group' }).click();
  await form.getByRole('textbox', { name: 'Group id' }).and(page.locator('[aria-invalid="true"]')).waitFor();
  await form.getByRole('textbox', { name: 'Group id' }).fill('auditors');
  await form.getByRole('button', { name: 'Add group' }).click();
  const group = page.getByRole('listitem', { name: 'Group Auditors' });
  await group.getByText('No member.').waitFor();
  await group.getByText('Change Auditors').click();
  await group.getByRole('checkbox', { name: member.email }).check();
  await group.getByRole('button', { name: 'Save group' }).click();
  t.regex(await group.getByText(/^Members: /).innerText(), new RegExp(member.email));
  t.deepEqual((await call(w, 'GET', '/api/row-security/groups', { token })).body.groups, [{ id: 'auditors', name: 'Auditors', members: [member.id] }]);
  t.deepEqual(problems, []);
});

test.serial('an admin adds a table\'s row filter on the page, an empty condition refused on its field, and removes it', async (t) => {
  const { page, problems, token } = await signedIn(t);
  const customers = { connection: 'wh', schema: 'main', name: 'customers', columns: [{ name: 'country', type: 'VARCHAR' }] };
  t.is((await call(w, 'POST', '/api/knowledge/tables', { token, body: customers })).status, 201);
  await page.goto('/admin/row-security');
  const finder = page.getByRole('search', { name: 'Tables' });
  await finder.getByRole('searchbox', { name: 'Find a table by name or path' }).fill('CUSTOM');
  await finder.getByRole('button', { name: 'Find' }).click();
  await page.getByText('1 table matching “CUSTOM”.').waitFor();
  await page.getByRole('list', { name: 'Tables found' }).getByRole('button', { name: 'wh/main.customers' }).click();
  const editor = page.getByRole('form', { name: 'Row filters of wh/main.customers' });
  await editor.getByText('No filter: every member sees every row of this table.').waitFor();
  await editor.getByRole('button', { name: 'Add a filter' }).click();
  await editor.getByRole('button', { name: 'Save row filters' }).click();
  const condition = editor.getByRole('textbox', { name: 'Condition of filter 1' });
  await condition.and(page.locator('[aria-invalid="true"]')).waitFor();
  await condition.fill('country = {{user.country}}');
  await editor.getByRole('checkbox', { name: 'Admin' }).check();
  await editor.getByRole('button', { name: 'Save row filters' }).click();
  await page.getByText('Row filters of wh/main.customers saved.').waitFor();
  await page.getByRole('listitem', { name: 'Row filters of wh/main.customers' }).getByText('for everyone except the roles admin').waitFor();
  await checkAccessibility(t, page, 'the row filter editor');
  const stored = (await call(w, 'GET', '/api/knowledge/tables/wh%2Fmain.customers', { token })).body as { data: { row_filters: unknown } };
  t.deepEqual(stored.data.row_filters, [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }]);

  await editor.getByRole('button', { name: 'Remove filter 1' }).click();
  await editor.getByRole('button', { name: 'Save row filters' }).click();
  await page.getByText('No table has a row filter', { exact: false }).waitFor();
  t.deepEqual(((await call(w, 'GET', '/api/knowledge/tables/wh%2Fmain.customers', { token })).body as { data: { row_filters: unknown } }).data.row_filters, []);
  t.deepEqual(problems, []);
});

test.serial('a modeler gets a plain message instead of the row security page, and the API refuses the preview', async (t) => {
  const { page, problems, orgId } = await signedIn(t, 'modeler');
  const member = w.user({ orgId, role: 'user' });
  await page.goto('/admin/row-security');
  await page.getByText('The admin pages are for admins of the organization.').waitFor();
  t.is(await page.getByRole('heading', { name: 'Row security' }).count(), 0);
  t.is((await page.request.get(`/api/row-security/users/${member.id}/preview`)).status(), 403);
  t.deepEqual(problems, []);
});
