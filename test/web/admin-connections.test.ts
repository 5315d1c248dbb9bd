// The Connections admin page in Chromium against a real gateway: an admin adds a DuckDB file
// connection, tests it, syncs its table documentation and reads the summary, renames it, and
// deletes it after seeing what depends on it, the confirmation by keyboard; a PostgreSQL form
// whose host the outbound rules refuse is told so on the host field, a server that does not answer
// is told so in words, and the password is never shown back; a real PostgreSQL refusing the user is
// told so, and works once the user is fixed; an analyst and a modeler are refused. Where production
// changes only through environments, the sync starts one and goes into it.
import anyTest, { type TestFn } from 'ava';
import type { Role } from '../../src/auth/index.ts';
import { duckdbFixture, placeOrgFile, postgresFixture, SKIP_PG, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { freePort } from '../helpers/app.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

// Serial, as admin.test.ts: each test signs in a new organization, and pages loading at once beside the suite ran past the page load timeout.
const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
let root: string;
let fixture: string;
test.before(async () => {
  root = tempDir();
  fixture = (await duckdbFixture()).path!;
  // Loopback only: a private address such as 10.0.0.7 stays refused by the outbound rules.
  w = await startWebApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_OUTBOUND_ALLOW: '127.0.0.1' });
});
test.after.always(async () => {
  await w?.stop();
});

/** A browser signed in as a new member of a new organization whose warehouse folder holds `files/wh.duckdb`. */
async function signedIn(t: Parameters<typeof openPage>[0], role: Role = 'admin') {
  const orgId = w.org();
  placeOrgFile(root, orgId, 'files/wh.duckdb', fixture);
  const user = await passwordUser(w, { orgId, role });
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, { email: user.email, password: PASSWORD });
  return { ...opened, orgId, user, token: w.session(user) };
}

test.serial('an admin adds a DuckDB file, tests it, syncs it, renames it and deletes it after seeing what depends on it', async (t) => {
  const { page, problems, token } = await signedIn(t);
  await page.goto('/admin/members');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Connections' }).click();
  await page.getByRole('heading', { name: 'Connections', level: 1 }).waitFor();
  await page.getByText('No connection yet').waitFor();

  const form = page.getByRole('form', { name: 'New connection' });
  await form.getByRole('combobox', { name: 'Type' }).selectOption('duckdb');
  t.is(await form.getByRole('textbox', { name: 'Host' }).count(), 0, 'a file needs no host');
  await form.getByRole('textbox', { name: 'Name' }).fill('Sales warehouse');
  await form.getByRole('textbox', { name: 'File' }).fill('files/wh.duckdb');
  await form.getByRole('textbox', { name: 'File' }).press('Enter');
  await page.getByText('Sales warehouse saved.', { exact: false }).waitFor();
  const card = page.getByRole('listitem', { name: 'Connection Sales warehouse' });
  await card.getByText('DuckDB file · files/wh.duckdb', { exact: false }).waitFor();
  t.is(await form.getByRole('textbox', { name: 'Name' }).inputValue(), '', 'the new-connection form is empty again');

  await card.getByRole('button', { name: 'Test Sales warehouse' }).click();
  await card.getByRole('status', { name: 'Test of Sales warehouse' }).getByText('It works: 2 tables visible', { exact: false }).waitFor();

  await card.getByRole('button', { name: 'Sync table documentation of Sales warehouse' }).click();
  const summary = card.getByRole('status', { name: 'Sync of Sales warehouse' });
  await summary.getByText('Synced 2 tables', { exact: false }).waitFor();
  await summary.getByText('Added: 2 (main.customers, main.orders)').waitFor();
  await summary.getByText('Kept as they were: 0').waitFor();
  // The card's buttons share one row, their answers (the test's verdict, the sync's summary) below it.
  const tops = await Promise.all(['Test Sales warehouse', 'Sync table documentation of Sales warehouse', 'Edit Sales warehouse', 'Delete Sales warehouse'].map(async (name) => (await card.getByRole('button', { name, exact: true }).boundingBox())!.y));
  t.is(new Set(tops).size, 1, `the buttons' tops: ${tops.join(', ')}`);
  t.true((await summary.boundingBox())!.y > tops[0]!, 'the summary under the buttons');
  await checkAccessibility(t, page, 'the connections page after a sync');
  // A row filter and a report on it, so the delete has dependants to show.
  const orders = (await call(w, 'GET', '/api/knowledge/tables/sales_warehouse%2Fmain.orders', { token })).body as { data: Record<string, unknown> };
  t.is((await call(w, 'PUT', '/api/knowledge/tables/sales_warehouse%2Fmain.orders', { token, body: { ...orders.data, row_filters: [{ filter: 'country = {{user.country}}' }] } })).status, 200);
  t.is((await call(w, 'POST', '/api/knowledge/reports?id=revenue', { token, body: { title: 'Revenue by country', description: '', sql: 'SELECT 1', connection: 'sales_warehouse' } })).status, 201);
  t.is((await call(w, 'POST', '/api/saved_questions', { token, body: { title: 'Orders by country', connection_id: 'sales_warehouse', sql: 'SELECT 1', visibility: 'organization' } })).status, 201);
  // A second sync finds both tables as they were.
  await card.getByRole('button', { name: 'Sync table documentation of Sales warehouse' }).click();
  await summary.getByText('Kept as they were: 2 (main.customers, main.orders)').waitFor();

  await card.getByRole('button', { name: 'Edit Sales warehouse' }).click();
  const edit = page.getByRole('form', { name: 'Edit connection Sales warehouse' });
  await edit.getByRole('textbox', { name: 'Name' }).fill('Shop warehouse');
  await edit.getByRole('button', { name: 'Save connection' }).click();
  await page.getByText('Shop warehouse saved.', { exact: false }).waitFor();
  const renamed = page.getByRole('listitem', { name: 'Connection Shop warehouse' });

  // Deleted with the keyboard alone: the dependants take the focus, then the question does.
  await renamed.getByRole('button', { name: 'Delete Shop warehouse' }).focus();
  await page.keyboard.press('Enter');
  const dependants = renamed.getByRole('list', { name: 'Dependants of Shop warehouse' });
  await dependants.getByText('2 documented tables: main.customers, main.orders').waitFor();
  await dependants.getByText('1 row-security filter on those tables').waitFor();
  await dependants.getByText('1 saved report: Revenue by country').waitFor();
  await dependants.getByText('1 saved question: Orders by country, with the dashboard tiles and subscriptions that run them').waitFor();
  t.is(await page.evaluate('document.activeElement.textContent'), 'What depends on Shop warehouse:');
  await checkAccessibility(t, page, 'a connection about to be deleted');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.getByText('Shop warehouse deleted.').waitFor();
  await renamed.waitFor({ state: 'detached' });
  t.deepEqual((await call(w, 'GET', '/api/connections', { token })).body.connections, []);
  t.deepEqual(problems, []);
});

test.serial('where production changes only through environments, one click starts an environment and syncs into it', async (t) => {
  const { page, problems, token } = await signedIn(t);
  t.is((await call(w, 'POST', '/api/connections', { token, body: { id: 'sales', name: 'Sales warehouse', type: 'duckdb', settings: { path: 'files/wh.duckdb' } } })).status, 201);
  t.is((await call(w, 'PATCH', '/api/admin/organization/settings', { token, body: { production_through_environments: true } })).status, 200);
  await page.goto('/admin/connections');
  const card = page.getByRole('listitem', { name: 'Connection Sales warehouse' });
  const sync = card.getByRole('button', { name: 'Sync table documentation of Sales warehouse into a new environment' });
  await sync.waitFor();
  // One button among the card's others, not a notice of its own.
  const tops = await Promise.all([card.getByRole('button', { name: 'Test Sales warehouse' }), sync].map(async (b) => (await b.boundingBox())!.y));
  t.is(tops[0], tops[1], 'on the row of the card\'s buttons');
  await sync.click();
  const summary = card.getByRole('status', { name: 'Sync of Sales warehouse' });
  await summary.getByText(/Synced 2 tables \(\d+ columns\) into the environment Sync Sales warehouse/).waitFor();
  await page.getByRole('region', { name: 'Active environment' }).getByText('Sync Sales warehouse', { exact: false }).waitFor();
  const env = ((await call(w, 'GET', '/api/environments', { token })).body as { id: string; name: string }[]).find((e) => e.name.startsWith('Sync Sales warehouse'))!;
  const ids = async (envId?: string) => ((await call(w, 'GET', '/api/knowledge/tables', { token, ...(envId ? { env: envId } : {}) })).body.items as { id: string }[]).map((i) => i.id).sort();
  t.deepEqual(await ids(env.id), ['sales/main.customers', 'sales/main.orders']);
  t.deepEqual(await ids(), [], 'production is unchanged until the merge');
  // Now in the environment, the card syncs into it as any other.
  await card.getByRole('button', { name: 'Sync table documentation of Sales warehouse', exact: true }).click();
  await summary.getByText('Kept as they were: 2 (main.customers, main.orders)').waitFor();
  t.is(((await call(w, 'GET', '/api/environments', { token })).body as unknown[]).length, 1, 'no second environment');
  t.deepEqual(problems, []);
});

test.serial('a PostgreSQL host the outbound rules refuse is said on its field, a silent server in words, and the password never comes back', async (t) => {
  const { page, problems, token } = await signedIn(t);
  await page.goto('/admin/connections');
  const form = page.getByRole('form', { name: 'New connection' });
  // Each type asks for what it needs: a file, or a server (a schema only for PostgreSQL).
  const type = form.getByRole('combobox', { name: 'Type' });
  await type.selectOption('sqlite');
  await form.getByRole('textbox', { name: 'File' }).waitFor();
  t.is(await form.getByRole('textbox', { name: 'Host' }).count(), 0);
  await type.selectOption('mariadb');
  await form.getByText('Empty for the usual 3306.').waitFor();
  t.deepEqual([await form.getByRole('textbox', { name: 'File' }).count(), await form.getByRole('textbox', { name: 'Schema' }).count()], [0, 0]);
  await type.selectOption('postgresql');
  await form.getByRole('textbox', { name: 'Schema' }).waitFor();
  await form.getByText('Empty for the usual 5432.').waitFor();
  await form.getByRole('textbox', { name: 'Name' }).fill('Finance');
  await form.getByRole('textbox', { name: 'Host' }).fill('10.0.0.7');
  await form.getByRole('textbox', { name: 'Database' }).fill('finance');
  await form.getByRole('textbox', { name: 'User' }).fill('reader');
  await form.getByLabel('Password').fill('pg-secret-value');
  await form.getByRole('button', { name: 'Add connection' }).click();
  const host = form.getByRole('textbox', { name: 'Host' });
  await host.and(page.locator('[aria-invalid="true"]')).waitFor();
  await form.getByText('The outbound rules refuse this host', { exact: false }).waitFor();
  await checkAccessibility(t, page, 'a refused host');
  t.deepEqual((await call(w, 'GET', '/api/connections', { token })).body.connections, []);

  // Loopback is allowed here; nothing listens on this port.
  const closed = await freePort();
  await host.fill('127.0.0.1');
  await form.getByRole('textbox', { name: 'Port' }).fill(String(closed));
  await form.getByRole('button', { name: 'Add connection' }).click();
  await page.getByText('Finance saved.', { exact: false }).waitFor();
  const card = page.getByRole('listitem', { name: 'Connection Finance' });
  await card.getByText(`PostgreSQL · reader@127.0.0.1:${closed}/finance`, { exact: false }).waitFor();
  await card.getByText('password set', { exact: false }).waitFor();
  await card.getByRole('button', { name: 'Test Finance' }).click();
  await card.getByRole('alert', { name: 'Test of Finance' }).getByText('Nothing answered at this host and port.', { exact: false }).waitFor();

  await card.getByRole('button', { name: 'Edit Finance' }).click();
  const edit = page.getByRole('form', { name: 'Edit connection Finance' });
  t.is(await edit.getByLabel('Password').inputValue(), '', 'the stored password is not in the form');
  await edit.getByText('A password is stored and never shown', { exact: false }).waitFor();
  await edit.getByRole('textbox', { name: 'Database' }).fill('finance_ro');
  await edit.getByRole('button', { name: 'Save connection' }).click();
  // "Finance saved." may still show from the first save: the card's new database is the edit's own sign.
  await card.getByText(`PostgreSQL · reader@127.0.0.1:${closed}/finance_ro`, { exact: false }).waitFor();
  const [stored] = (await call(w, 'GET', '/api/connections', { token })).body.connections as { settings: { database: string }; has_password: boolean }[];
  t.deepEqual([stored?.settings.database, stored?.has_password], ['finance_ro', true], 'an edit without a new password keeps the stored one');
  t.false((await page.content()).includes('pg-secret-value'));
  t.deepEqual(problems, []);
});

test.serial('a PostgreSQL server refusing the user is told in words, and works once the user is fixed', async (t) => {
  const f = await postgresFixture();
  if (!f) {
    t.log(SKIP_PG);
    t.pass();
    return;
  }
  t.teardown(() => f.drop());
  const { page, problems } = await signedIn(t);
  await page.goto('/admin/connections');
  const form = page.getByRole('form', { name: 'New connection' });
  await form.getByRole('combobox', { name: 'Type' }).selectOption('postgresql');
  await form.getByRole('textbox', { name: 'Name' }).fill('Ledger');
  await form.getByRole('textbox', { name: 'Host' }).fill('127.0.0.1');
  await form.getByRole('textbox', { name: 'Port' }).fill(String(f.settings.port));
  await form.getByRole('textbox', { name: 'Database' }).fill(f.settings.database!);
  // The local server may trust every password: a role it does not know is refused either way.
  await form.getByRole('textbox', { name: 'User' }).fill('no_such_role');
  await form.getByRole('button', { name: 'Add connection' }).click();
  const card = page.getByRole('listitem', { name: 'Connection Ledger' });
  await card.getByRole('button', { name: 'Test Ledger' }).click();
  await card.getByRole('alert', { name: 'Test of Ledger' }).getByText('The server refused the user name or password.', { exact: false }).waitFor();

  await card.getByRole('button', { name: 'Edit Ledger' }).click();
  const edit = page.getByRole('form', { name: 'Edit connection Ledger' });
  await edit.getByRole('textbox', { name: 'User' }).fill(f.settings.user!);
  await edit.getByRole('button', { name: 'Save connection' }).click();
  await page.getByText('Ledger saved.', { exact: false }).waitFor();
  await card.getByRole('button', { name: 'Test Ledger' }).click();
  await card.getByRole('status', { name: 'Test of Ledger' }).getByText('It works: 2 tables visible', { exact: false }).waitFor();
  t.deepEqual(problems, []);
});

for (const role of ['user', 'modeler'] as const) {
  test.serial(`a member with the ${role} role sees no Connections or Row security page`, async (t) => {
    const { page, problems } = await signedIn(t, role);
    for (const path of ['/admin/connections', '/admin/row-security']) {
      await page.goto(path);
      await page.getByText('The admin pages are for admins of the organization.').waitFor();
      t.is(await page.getByRole('navigation', { name: 'Admin' }).count(), 0);
      t.is(await page.getByRole('heading', { name: 'Connections' }).count(), 0);
    }
    await checkAccessibility(t, page, `the connections page refused to a ${role}`);
    t.is((await page.request.get('/api/connections')).status(), 403);
    t.deepEqual(problems, []);
  });
}
