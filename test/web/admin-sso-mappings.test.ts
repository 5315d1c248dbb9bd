// The SSO provider's IdP group mappings in Chromium against a real gateway: an admin adds a mapping
// (role and row-security groups), saves, and finds it after a reload; a bad row is refused on its
// field with what was typed kept; editing another field keeps the stored mappings.
import anyTest, { type TestFn } from 'ava';
import { call } from '../helpers/api.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { startTestIdp } from '../helpers/oidc-idp.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

test('an admin maps an IdP group to a role and row-security groups, and the mapping survives a reload and a later edit', async (t) => {
  const idp = await startTestIdp({ clientId: 'sextant-web', clientSecret: 'idp-secret', redirectUris: [`${w.url}/api/auth/callback`] });
  t.teardown(() => idp.stop());
  const orgId = w.org();
  const admin = await passwordUser(w, { orgId, role: 'admin' });
  const token = w.session(admin);
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, { email: admin.email, password: PASSWORD });
  const created = await call(w, 'POST', '/api/admin/sso/providers', {
    token,
    body: { type: 'testidp', name: 'Test IdP', issuer: idp.issuer, client_id: 'sextant-web', client_secret: 'idp-secret', groups_claim: 'groups', group_mappings: [{ group: 'auditors', rls_groups: ['finance'] }] },
  });
  t.is(created.status, 201);
  await page.goto('/admin/sso');
  await page.getByRole('button', { name: 'Edit Test IdP' }).click();
  const edit = page.getByRole('form', { name: 'Edit provider Test IdP' });
  const existing = edit.getByRole('listitem', { name: 'Mapping auditors' });
  t.is(await existing.getByRole('textbox', { name: 'Row-security groups for auditors' }).inputValue(), 'finance');

  // A row with no group is refused on that row's field; nothing typed is lost.
  await edit.getByRole('button', { name: 'Add a group mapping' }).click();
  const row = edit.getByRole('listitem', { name: 'Mapping row 2' });
  await row.getByRole('combobox', { name: 'Role for row 2' }).selectOption('modeler');
  await edit.getByRole('button', { name: 'Save provider' }).click();
  await row.getByRole('textbox', { name: 'IdP group' }).and(page.locator('[aria-invalid="true"]')).waitFor();
  t.is(await row.getByRole('combobox', { name: 'Role for row 2' }).inputValue(), 'modeler');
  await checkAccessibility(t, page, 'the SSO page with a refused mapping');

  await row.getByRole('textbox', { name: 'IdP group' }).fill('Data Team');
  const added = edit.getByRole('listitem', { name: 'Mapping Data Team' });
  await added.getByRole('textbox', { name: 'Row-security groups for Data Team' }).fill('sales, emea');
  await edit.getByRole('button', { name: 'Save provider' }).click();
  await page.getByText('Test IdP saved.').waitFor();
  const expected = [{ group: 'auditors', rls_groups: ['finance'] }, { group: 'Data Team', role: 'modeler', rls_groups: ['sales', 'emea'] }];
  const stored = async () => ((await call(w, 'GET', '/api/admin/sso/providers', { token })).body.providers as { group_mappings: unknown }[])[0]!.group_mappings;
  t.deepEqual(await stored(), expected);

  await page.reload();
  await page.getByRole('button', { name: 'Edit Test IdP' }).click();
  const again = page.getByRole('form', { name: 'Edit provider Test IdP' }).getByRole('listitem', { name: 'Mapping Data Team' });
  t.is(await again.getByRole('combobox', { name: 'Role for Data Team' }).inputValue(), 'modeler');
  t.is(await again.getByRole('textbox', { name: 'Row-security groups for Data Team' }).inputValue(), 'sales, emea');
  // Saving another field sends the mappings as loaded: they stay as they were.
  await page.getByRole('form', { name: 'Edit provider Test IdP' }).getByRole('textbox', { name: 'Name' }).fill('Company IdP');
  await page.getByRole('form', { name: 'Edit provider Test IdP' }).getByRole('button', { name: 'Save provider' }).click();
  await page.getByText('Company IdP saved.').waitFor();
  t.deepEqual(await stored(), expected);
  t.deepEqual(problems, []);
});
