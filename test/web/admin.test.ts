// The admin pages in Chromium against a real gateway: an admin invites someone, changes a member's
// role, deactivates them and meets the last-admin refusal; an SSO provider whose issuer cannot be
// reached is refused on its field; the audit log is filtered and exported as CSV; a regular user
// cannot see or reach the pages. Each test runs in an organization of its own.
import { readFileSync } from 'node:fs';
import anyTest, { type TestFn } from 'ava';
import type { Role } from '../../src/auth/index.ts';
import { call } from '../helpers/api.ts';
import { enrollMfa, PASSWORD, passwordUser, signIn } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage, type InPage } from '../helpers/browser.ts';
import { startTestIdp } from '../helpers/oidc-idp.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';
import { startDnsServer, type TestDnsServer } from '../helpers/dns-server.ts';
import { listOutbox } from '../../src/mail/index.ts';

// Serial, as the other long browser files: eleven pages signing in new organizations at once, beside the rest of the suite, took longer than the 15 s page load in the full run (all failed there; each passes alone).
const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
let dns: TestDnsServer;
test.before(async () => {
  dns = await startDnsServer();
  w = await startWebApp({ SEXTANT_DNS_SERVERS: dns.address });
});
test.after.always(async () => {
  await w?.stop();
  await dns?.close();
});

/** A browser signed in as a new member of a new organization (its only admin when `role` is admin). */
async function signedIn(t: Parameters<typeof openPage>[0], role: Role = 'admin') {
  const orgId = w.org();
  const user = await passwordUser(w, { orgId, role });
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, { email: user.email, password: PASSWORD });
  return { ...opened, orgId, user, token: w.session(user) };
}

test.serial('an admin invites someone, changes a member\'s role, deactivates them and meets the last-admin refusal', async (t) => {
  const { page, problems, orgId, user, token } = await signedIn(t);
  const member = w.user({ orgId, role: 'user', email: `web-member-${orgId}@example.com` });
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Admin' }).click();
  await page.getByRole('heading', { name: 'Members', level: 1 }).waitFor();

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Invitations' }).click();
  await page.getByRole('textbox', { name: 'Email address' }).fill('new-analyst@example.com');
  await page.getByRole('combobox', { name: 'Role' }).selectOption('modeler');
  await page.getByRole('button', { name: 'Send invitation', exact: true }).click();
  await page.getByText('Invitation sent to new-analyst@example.com.').waitFor();
  const pending = page.getByRole('list', { name: 'Pending invitations' }).getByRole('listitem').filter({ hasText: 'new-analyst@example.com' });
  await pending.getByText('modeler').waitFor();
  await checkAccessibility(t, page, 'the invitations page');
  const invitations = (await call(w, 'GET', '/api/admin/invitations', { token })).body.invitations as { email: string; role: string }[];
  t.deepEqual(invitations.map((i) => [i.email, i.role]), [['new-analyst@example.com', 'modeler']]);
  // A bad address is refused on its field, and what was typed stays.
  await page.getByRole('textbox', { name: 'Email address' }).fill('not-an-address');
  await page.getByRole('button', { name: 'Send invitation', exact: true }).click();
  await page.locator('[aria-invalid="true"]').waitFor();
  t.is(await page.getByRole('textbox', { name: 'Email address' }).inputValue(), 'not-an-address');

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Members' }).click();
  await page.getByRole('searchbox', { name: 'Search by name or email' }).fill('web-member');
  await page.keyboard.press('Enter');
  const card = page.getByRole('listitem', { name: `Member ${member.email}` });
  await card.waitFor();
  // The unfiltered list shows the matching member too: the search's answer is the one without the other.
  await page.getByRole('listitem', { name: `Member ${user.email}` }).waitFor({ state: 'detached' });
  t.is(await page.getByRole('listitem', { name: `Member ${user.email}` }).count(), 0, 'the search keeps only the matching member');
  // A member reads as one line; what changes them waits under Manage.
  t.false(await card.getByRole('combobox', { name: `Role of ${member.email}` }).isVisible(), 'the role editor is folded');
  await card.getByText('Manage', { exact: true }).click();
  await card.getByRole('combobox', { name: `Role of ${member.email}` }).selectOption('modeler');
  await card.getByRole('checkbox', { name: 'May merge into production' }).check();
  await card.getByRole('button', { name: `Change role of ${member.email}` }).click();
  await card.getByText(`${member.email} is now modeler and may merge into production.`).waitFor();
  const changed = (await call(w, 'GET', `/api/admin/members/${member.id}`, { token })).body;
  t.deepEqual([changed.role, changed.can_merge], ['modeler', true]);
  // Deactivated with the keyboard alone: the confirmation takes the focus.
  await card.getByRole('button', { name: `Deactivate ${member.email}` }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await card.getByText(`${member.email} is deactivated.`).waitFor();
  await card.getByRole('button', { name: `Reactivate ${member.email}` }).waitFor();
  t.is((await call(w, 'GET', `/api/admin/members/${member.id}`, { token })).body.status, 'deactivated');
  await checkAccessibility(t, page, 'the members page');

  // The only admin demoting themself: the 409 is shown as a plain message.
  await page.getByRole('searchbox', { name: 'Search by name or email' }).fill('');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const own = page.getByRole('listitem', { name: `Member ${user.email}` });
  await own.getByText('Manage', { exact: true }).click();
  await own.getByRole('combobox', { name: `Role of ${user.email}` }).selectOption('user');
  await own.getByRole('button', { name: `Change role of ${user.email}` }).click();
  await own.getByRole('alert').getByText('Cannot demote the last active admin of the organization').waitFor();
  t.is((await call(w, 'GET', `/api/admin/members/${user.id}`, { token })).body.role, 'admin');
  t.deepEqual(problems, []);
});

test.serial('the members come in pages of 25, forward and back', async (t) => {
  const { page, orgId } = await signedIn(t);
  for (let i = 0; i < 26; i++) w.user({ orgId, role: 'user' });
  await page.goto('/admin/members');
  const members = page.getByRole('list', { name: 'Members' }).getByRole('listitem');
  await page.getByRole('button', { name: 'Next page' }).click();
  await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelectorAll('[aria-label="Members"] > li').length === 2);
  t.is(await page.getByRole('button', { name: 'Next page' }).count(), 0);
  // The pressed button is gone on the last page: the focus waits on the list's heading.
  t.is(await page.evaluate('document.activeElement.textContent'), 'Members');
  await page.getByRole('button', { name: 'Previous page' }).click();
  await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelectorAll('[aria-label="Members"] > li').length === 25);
  t.is(await members.count(), 25);
});

test.serial('a member\'s attributes are saved, and a bad attribute name is shown on its field', async (t) => {
  const { page, orgId, token } = await signedIn(t);
  const member = w.user({ orgId, role: 'user' });
  await page.goto('/admin/members');
  const card = page.getByRole('listitem', { name: `Member ${member.email}` });
  await card.getByText('Manage', { exact: true }).click();
  await card.getByText('Attributes and groups', { exact: true }).click();
  const attributes = card.getByRole('textbox', { name: 'Attributes' });
  await attributes.fill('region=EMEA\n9bad=x');
  await card.getByRole('button', { name: 'Save attributes and groups' }).click();
  await attributes.and(page.locator('[aria-invalid="true"]')).waitFor();
  t.is(await attributes.inputValue(), 'region=EMEA\n9bad=x');
  await checkAccessibility(t, page, 'a member with an attribute error');
  await attributes.fill('region=EMEA');
  await card.getByRole('button', { name: 'Save attributes and groups' }).click();
  await card.getByText('Attributes and groups saved.').waitFor();
  t.deepEqual((await call(w, 'GET', `/api/admin/members/${member.id}`, { token })).body.attributes, { region: 'EMEA' });
});

test.serial('an admin clears a member\'s failed sign-ins, resets their MFA and removes them', async (t) => {
  const { page, orgId, token } = await signedIn(t);
  const member = await passwordUser(w, { orgId, role: 'user' });
  await enrollMfa(w, w.session(member));
  t.is((await signIn(w, member.email, 'wrong password')).status, 401);
  await page.goto('/admin/members');
  const card = page.getByRole('listitem', { name: `Member ${member.email}` });
  await card.getByText('MFA on').waitFor();
  await card.getByText('Manage', { exact: true }).click();
  await card.getByRole('button', { name: `Clear failed sign-ins of ${member.email}` }).click();
  await card.getByText(`Failed sign-ins cleared for ${member.email}.`).waitFor();
  await card.getByRole('button', { name: `Reset two-factor authentication of ${member.email}` }).click();
  await card.getByRole('button', { name: 'Yes, reset mfa' }).click();
  await card.getByText('MFA off').waitFor();
  t.false((await call(w, 'GET', `/api/admin/members/${member.id}`, { token })).body.mfa_enabled);
  await checkAccessibility(t, page, 'a member after an MFA reset');
  await card.getByRole('button', { name: `Remove ${member.email}` }).click();
  await card.getByRole('button', { name: 'Yes, remove' }).click();
  await card.waitFor({ state: 'detached' });
  t.is((await call(w, 'GET', `/api/admin/members/${member.id}`, { token })).status, 404);
});

test.serial('an SSO provider whose issuer cannot be reached is refused with the problem on the issuer field', async (t) => {
  const { page, problems, token } = await signedIn(t);
  await page.goto('/admin/sso');
  const form = page.getByRole('form', { name: 'New provider' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Unreachable IdP');
  await form.getByRole('textbox', { name: 'Type' }).fill('unreachable');
  // Port 9 on loopback: nothing listens, the connection is refused at once.
  await form.getByRole('textbox', { name: 'Issuer URL' }).fill('http://127.0.0.1:9/realms/x');
  await form.getByRole('textbox', { name: 'Client id' }).fill('sextant');
  await form.getByLabel('Client secret').fill('s3cret-value');
  await form.getByRole('button', { name: 'Add provider' }).click();
  const issuer = form.getByRole('textbox', { name: 'Issuer URL' });
  await issuer.and(page.locator('[aria-invalid="true"]')).waitFor();
  await form.getByText('The issuer could not be reached').waitFor();
  t.is(await issuer.inputValue(), 'http://127.0.0.1:9/realms/x');
  t.is(await form.getByLabel('Client secret').getAttribute('type'), 'password');
  await checkAccessibility(t, page, 'the SSO page with a refused provider');
  t.deepEqual((await call(w, 'GET', '/api/admin/sso/providers', { token })).body.providers, []);
  t.deepEqual(problems, []);
});

test.serial('an admin adds an SSO provider, tests it, edits it keeping the stored secret, and removes it', async (t) => {
  const idp = await startTestIdp({ clientId: 'sextant-web', clientSecret: 'idp-secret', redirectUris: [`${w.url}/api/auth/callback`] });
  t.teardown(() => idp.stop());
  const { page, problems, token } = await signedIn(t);
  await page.goto('/admin/sso');
  const form = page.getByRole('form', { name: 'New provider' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Test IdP');
  await form.getByRole('textbox', { name: 'Type' }).fill('testidp');
  await form.getByRole('textbox', { name: 'Issuer URL' }).fill(idp.issuer);
  await form.getByRole('textbox', { name: 'Client id' }).fill('sextant-web');
  await form.getByLabel('Client secret').fill('idp-secret');
  await form.getByRole('button', { name: 'Add provider' }).click();
  await page.getByText('Test IdP saved.').waitFor();
  const card = page.getByRole('listitem', { name: 'Provider Test IdP' });
  await card.getByText('secret set').waitFor();
  t.is(await form.getByLabel('Client secret').inputValue(), '', 'the secret is not kept in the page');
  await card.getByRole('button', { name: 'Test Test IdP' }).click();
  await card.getByRole('status', { name: 'Test of Test IdP' }).getByText(/Discovery: ok/).waitFor();
  await checkAccessibility(t, page, 'the SSO page with a tested provider');

  await card.getByRole('button', { name: 'Edit Test IdP' }).click();
  const edit = page.getByRole('form', { name: 'Edit provider Test IdP' });
  t.is(await edit.getByLabel('Client secret').inputValue(), '');
  await edit.getByRole('textbox', { name: 'Name' }).fill('Company IdP');
  await edit.getByRole('button', { name: 'Save provider' }).click();
  await page.getByText('Company IdP saved.').waitFor();
  const providers = (await call(w, 'GET', '/api/admin/sso/providers', { token })).body.providers as { name: string; has_client_secret: boolean }[];
  t.deepEqual(providers.map((p) => [p.name, p.has_client_secret]), [['Company IdP', true]]);
  t.false(JSON.stringify(providers).includes('idp-secret'));

  await page.getByRole('button', { name: 'Remove Company IdP' }).click();
  await page.getByRole('button', { name: 'Yes, remove' }).click();
  await page.getByText('Company IdP removed').waitFor();
  t.deepEqual((await call(w, 'GET', '/api/admin/sso/providers', { token })).body.providers, []);
  t.deepEqual(problems, []);
});

test.serial('an admin filters the audit log and downloads the filtered CSV export', async (t) => {
  const { page, orgId, token, user } = await signedIn(t);
  const member = w.user({ orgId, role: 'user' });
  for (const role of ['modeler', 'user'])
    t.is((await call(w, 'PUT', `/api/admin/members/${member.id}/role`, { token, body: { role } })).status, 200);
  t.is((await call(w, 'POST', '/api/admin/invitations', { token, body: { email: 'audited@example.com' } })).status, 201);
  await page.goto('/admin/audit');
  await page.getByRole('region', { name: 'Audit entries' }).getByText('invitation_created').waitFor();
  await page.getByRole('textbox', { name: 'Action' }).fill('member_role_changed');
  // The actor as the admin knows them: by email, in any case.
  await page.getByRole('textbox', { name: 'Actor' }).fill(user.email.toUpperCase());
  await page.getByRole('button', { name: 'Filter' }).click();
  const rows = page.getByRole('region', { name: 'Audit entries' }).getByRole('row');
  await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelectorAll('[aria-label="Audit entries"] tbody tr').length === 2);
  t.is(await rows.filter({ hasText: 'invitation_created' }).count(), 0);
  // The member whose role changed is named as on the members page, not by an id.
  t.is(await rows.filter({ hasText: member.email }).count(), 2);
  t.is(await rows.filter({ hasText: `user ${member.id}` }).count(), 0);
  await checkAccessibility(t, page, 'the filtered audit log');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export as CSV' }).click()]);
  t.is(download.suggestedFilename(), 'audit-log.csv');
  const lines = readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
  t.is(lines.length, 3, 'a header and the two filtered entries');
  t.true(lines.slice(1).every((l) => l.includes('member_role_changed')));
  t.true(lines.slice(1).every((l) => l.includes(member.id)));
  await page.getByRole('textbox', { name: 'Actor' }).fill('nobody@example.com');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByText('No entry matches.').waitFor();
});

test.serial('filters the audit log refuses are named on their field and offer no export to download', async (t) => {
  const { page } = await signedIn(t);
  await page.goto('/admin/audit');
  await page.getByRole('link', { name: 'Export as CSV' }).waitFor();
  await page.getByRole('textbox', { name: 'Action' }).fill('x'.repeat(101));
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.locator('[aria-invalid="true"]').waitFor();
  t.is(await page.getByRole('textbox', { name: 'Action' }).getAttribute('aria-invalid'), 'true');
  t.is(await page.getByRole('link', { name: 'Export as CSV' }).count(), 0);
  t.is(await page.getByRole('link', { name: 'Export as JSON lines' }).count(), 0);
  await page.getByRole('textbox', { name: 'Action' }).fill('member_role_changed');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByRole('link', { name: 'Export as CSV' }).waitFor();
});

test.serial('organization settings, usage and credit limits are saved and shown', async (t) => {
  const { page, token } = await signedIn(t);
  await page.goto('/admin/organization');
  await page.getByRole('textbox', { name: 'Email domains that join by themselves' }).fill('example.org, bad domain');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.locator('[aria-invalid="true"]').waitFor();
  await page.getByRole('textbox', { name: 'Email domains that join by themselves' }).fill('example.org');
  await page.getByRole('checkbox', { name: 'Everyone must use two-factor authentication' }).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Settings saved.').waitFor();
  const settings = (await call(w, 'GET', '/api/admin/organization/settings', { token })).body;
  t.deepEqual([settings.mfa_required, settings.allowed_email_domains], [true, ['example.org']]);
  await checkAccessibility(t, page, 'the organization settings');

  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Usage and credit limits' }).click();
  await page.getByText('No use in this range.').waitFor();
  await page.getByRole('spinbutton', { name: 'Monthly credits' }).fill('250');
  await page.getByRole('button', { name: 'Save limit' }).click();
  await page.getByRole('list', { name: 'Credit limits' }).getByText('of 250 credits used this month').waitFor();
  await checkAccessibility(t, page, 'usage and credit limits');
});

test.serial('an admin sees each claimed email domain\'s status and TXT record, verifies one by DNS and another by a mailed link', async (t) => {
  const { page, orgId, token } = await signedIn(t);
  const [byDns, byMail] = [`dns-${orgId}.example.org`.toLowerCase(), `mail-${orgId}.example.org`.toLowerCase()];
  await page.goto('/admin/organization');
  await page.getByRole('textbox', { name: 'Email domains that join by themselves' }).fill(`${byDns}, ${byMail}`);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByText('Settings saved.').waitFor();
  const card = page.getByRole('list', { name: 'Email domains' }).getByRole('listitem', { name: byDns });
  await card.getByText('not verified: does nothing yet').waitFor();
  const record = ((await call(w, 'GET', '/api/admin/email_domains', { token })).body.email_domains as { domain: string; txt_record: { name: string; value: string } }[]).find((d) => d.domain === byDns)!.txt_record;
  await card.getByText(record.value).waitFor();
  await card.getByText(record.name).waitFor();
  // Before the record is published the page says why; then Verify succeeds.
  await card.getByRole('button', { name: `Verify ${byDns}`, exact: true }).click();
  await page.getByText(/has no TXT record/).waitFor();
  dns.txt.set(record.name, [[record.value]]);
  await card.getByRole('button', { name: `Verify ${byDns}`, exact: true }).click();
  await page.getByText(`${byDns} is verified.`).waitFor();
  await card.getByText('verified', { exact: true }).waitFor();
  await checkAccessibility(t, page, 'the email domains of the organization settings');
  // The other by a link mailed to its postmaster, opened by the signed-in admin.
  await page.getByRole('button', { name: `Mail a link to verify ${byMail}` }).click();
  await page.getByText(`A link was mailed to postmaster@${byMail}`, { exact: false }).waitFor();
  const mail = (await listOutbox(w.app.services.executor, 500)).find((m) => m.to === `postmaster@${byMail}`)!;
  const link = /(https?:\/\/\S+domain_token=\S+)/.exec(mail.text)![1]!;
  await page.goto(link);
  await page.getByText(`${byMail} is verified.`).waitFor();
  t.false(page.url().includes('domain_token'));
  const domains = (await call(w, 'GET', '/api/admin/email_domains', { token })).body.email_domains as { domain: string; status: string; method: string }[];
  t.deepEqual(domains.map((d) => [d.domain, d.status, d.method]).sort(), [[byDns, 'verified', 'dns'], [byMail, 'verified', 'email']].sort());
});

test.serial('a regular user sees no Admin section and gets a plain message at its addresses', async (t) => {
  const { page, problems } = await signedIn(t, 'modeler');
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Ask' }).waitFor();
  t.is(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Admin' }).count(), 0);
  for (const path of ['/admin/members', '/admin/invitations', '/admin/sso', '/admin/audit']) {
    await page.goto(path);
    await page.getByText('The admin pages are for admins of the organization.').waitFor();
    t.is(await page.getByRole('navigation', { name: 'Admin' }).count(), 0);
  }
  await checkAccessibility(t, page, 'the admin pages refused');
  t.is((await page.request.get('/api/admin/members')).status(), 403);
  t.deepEqual(problems, []);
});
