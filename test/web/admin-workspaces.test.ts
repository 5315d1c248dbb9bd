// The workspaces page in Chromium against a real gateway (issue 35): an admin creates a workspace,
// adds a member with a role, renames it, meets the taken-name refusal, takes the member out and
// removes the workspace; what the page shows is what the server keeps.
import anyTest, { type TestFn } from 'ava';
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

test('an admin creates a workspace, chooses its members, renames it and removes it', async (t) => {
  const orgId = w.org();
  const admin = await passwordUser(w, { orgId, role: 'admin' });
  const member = w.user({ orgId, role: 'user', email: `ws-member-${orgId}@example.com` });
  const token = w.session(admin);
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, { email: admin.email, password: PASSWORD });
  await page.goto('/admin/members');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Workspaces' }).click();
  await page.getByText('No workspaces yet.').waitFor();

  await page.getByRole('textbox', { name: 'Name of the new workspace' }).fill('Finance');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByText('Workspace Finance created; you are its admin.').waitFor();
  const card = page.getByRole('listitem', { name: 'Workspace Finance' });
  await card.getByRole('list', { name: 'Members of Finance' }).getByText(admin.email).waitFor();
  const id = (await call(w, 'GET', '/api/admin/workspaces', { token })).body.workspaces[0].workspace_id as string;

  await card.getByRole('combobox', { name: 'Member to add to Finance' }).selectOption(member.id);
  await card.getByRole('combobox', { name: 'Role in Finance' }).selectOption('modeler');
  await card.getByRole('button', { name: 'Add to Finance' }).click();
  await card.getByRole('list', { name: 'Members of Finance' }).getByText(`(${member.email}), modeler`).waitFor();
  await card.getByText('2 members').waitFor();
  const inside = (await call(w, 'GET', `/api/admin/workspaces/${id}/members`, { token })).body.members as { email: string; role: string }[];
  t.deepEqual(inside.map((m) => [m.email, m.role]).sort(), [[admin.email, 'admin'], [member.email, 'modeler']].sort());
  await checkAccessibility(t, page, 'the workspaces page');

  // A name another workspace has is refused on the field; a free one is taken.
  await page.getByRole('textbox', { name: 'Name of the new workspace' }).fill('Marketing');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.getByRole('listitem', { name: 'Workspace Marketing' }).waitFor();
  await card.getByRole('textbox', { name: 'New name for Finance' }).fill('marketing');
  await card.getByRole('button', { name: 'Rename' }).click();
  await card.getByText(/A workspace named marketing exists already/).waitFor();
  await card.getByRole('textbox', { name: 'New name for Finance' }).fill('Finance EMEA');
  await card.getByRole('button', { name: 'Rename' }).click();
  const renamed = page.getByRole('listitem', { name: 'Workspace Finance EMEA' });
  await renamed.waitFor();

  await renamed.getByRole('button', { name: `Take out ${member.email} from Finance EMEA` }).click();
  await renamed.getByRole('button', { name: 'Yes, take out' }).click();
  await renamed.getByText('1 member', { exact: true }).waitFor();
  t.deepEqual((await call(w, 'GET', `/api/admin/workspaces/${id}/members`, { token })).body.members.map((m: { email: string }) => m.email), [admin.email]);

  await renamed.getByRole('button', { name: 'Remove workspace Finance EMEA' }).click();
  await renamed.getByRole('button', { name: 'Yes, remove workspace' }).click();
  await renamed.waitFor({ state: 'detached' });
  t.deepEqual((await call(w, 'GET', '/api/admin/workspaces', { token })).body.workspaces.map((x: { name: string }) => x.name), ['Marketing']);
  t.deepEqual(problems, []);
});
