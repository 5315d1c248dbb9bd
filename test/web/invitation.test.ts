// The invitation page in Chromium against a real gateway (issue 35): the mailed link shows who
// invites, to which organization and with which role, and the person joins that organization, never a
// new one: with a new account (password, sign-in links, SSO round trip), an existing account signed
// out or signed in (through the MFA step), after signing out of someone else's account; an account of
// another organization is told why it cannot join and what it can do; used, withdrawn, expired and
// unknown links get a page that says so.
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import type { Role } from '../../src/auth/index.ts';
import { listOutbox } from '../../src/mail/index.ts';
import { call } from '../helpers/api.ts';
import { enrollMfa, PASSWORD, passwordUser, signIn, totp } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { startTestIdp } from '../helpers/oidc-idp.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

// Serial, as the other long browser files: pages signing in new organizations at once beside the rest of the suite can pass the 15 s page load.
const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

let n = 0;
const ASK = 'What would you like to know?';

/** A new organization (or a workspace of `baseOrgId`; MFA enforced or not) with an admin who invites. */
async function inviting(opts: { baseOrgId?: string; mfaEnforced?: boolean } = {}) {
  const orgId = w.org(undefined, opts);
  const admin = await passwordUser(w, { orgId, role: 'admin', email: `grace${++n}@inviting.test` });
  const token = w.session(admin);
  const orgName = `Org ${orgId}`;
  /** Invites `email` and answers the token of the mailed link. */
  const invite = async (email: string, role: Role = 'modeler') => {
    const res = await call(w, 'POST', '/api/admin/invitations', { token, body: { email, role } });
    if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${JSON.stringify(res.body)}`);
    const mail = (await listOutbox(w.app.services.executor, 1000)).find((m) => m.to === email)!;
    return { id: res.body.invitation_id as string, link: /(\/invitation\?token=\S+)/.exec(mail.text)![1]!, token: /Invitation token: (\S+)/.exec(mail.text)![1]! };
  };
  return { orgId, orgName, admin, token, invite };
}

const organizations = () => w.app.services.store.sqlite!.prepare('SELECT COUNT(*) FROM organizations').pluck().get() as number;

async function me(page: import('playwright-core').Page) {
  return (await (await page.context().request.get('/api/auth/me')).json()) as { email: string; org_id: string; role: string };
}

async function openLink(t: ExecutionContext, link: string) {
  const opened = await openPage(t, w.browser, w.url);
  await opened.page.goto(link);
  return opened;
}

test.serial('a new person sees who invites them, to which organization and role, creates an account with a password and lands in that organization', async (t) => {
  const { orgId, orgName, admin, invite } = await inviting();
  const email = `new${++n}@invited.test`;
  const { link } = await invite(email, 'modeler');
  const before = organizations();
  const { page, problems } = await openLink(t, link);
  await page.getByRole('heading', { name: `Join ${orgName}` }).waitFor();
  t.regex(await page.locator('main').innerText(), new RegExp(`${admin.name} \\(${admin.email}\\) invites you to join ${orgName} on Sextant as a modeler[\\s\\S]*for ${email}`));
  await checkAccessibility(t, page, 'the invitation page');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  // The server's rule on the field: too short.
  await page.getByLabel('Choose a password').fill('short');
  await page.getByRole('button', { name: 'Create my account and join' }).click();
  await page.locator('[aria-invalid="true"]').waitFor();
  await page.getByLabel('Choose a password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create my account and join' }).click();
  await page.getByRole('heading', { name: ASK }).waitFor();
  t.like(await me(page), { email, org_id: orgId, role: 'modeler' });
  t.is(organizations(), before, 'no organization was made');
  t.is((await signIn(w, email)).status, 200);
  t.deepEqual(problems, []);
});

test.serial('a new person joins without a password and is signed in to the organization', async (t) => {
  const { orgId, orgName, invite } = await inviting();
  const email = `linkonly${++n}@invited.test`;
  const { link } = await invite(email, 'user');
  const { page } = await openLink(t, link);
  await page.getByRole('heading', { name: `Join ${orgName}` }).waitFor();
  await page.getByRole('button', { name: 'Join without a password' }).click();
  await page.getByRole('heading', { name: ASK }).waitFor();
  t.like(await me(page), { email, org_id: orgId, role: 'user' });
});

test.serial('in an organization that requires MFA, the new member joins, then sets up MFA, saves the recovery codes and lands in it', async (t) => {
  const { orgId, invite } = await inviting({ mfaEnforced: true });
  const email = `mfa${++n}@invited.test`;
  const { link } = await invite(email, 'user');
  const { page } = await openLink(t, link);
  await page.getByLabel('Choose a password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create my account and join' }).click();
  await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
  const secret = (await page.getByTestId('totp-secret').textContent())!;
  await page.getByLabel('Code from the app').fill(totp(w, secret));
  await page.getByRole('button', { name: 'Turn on and continue' }).click();
  await page.getByRole('heading', { name: 'Save your recovery codes' }).waitFor();
  await page.getByRole('button', { name: 'I saved them, continue' }).click();
  await page.getByRole('heading', { name: ASK }).waitFor();
  t.like(await me(page), { email, org_id: orgId });
});

test.serial('an existing account, signed out, joins a workspace of its organization with one button', async (t) => {
  const base = await inviting();
  const ws = await inviting({ baseOrgId: base.orgId });
  const colleague = await passwordUser(w, { orgId: base.orgId });
  const { link } = await ws.invite(colleague.email, 'modeler');
  const { page } = await openLink(t, link);
  await page.getByText(`You already have a Sextant account for ${colleague.email}`).waitFor();
  t.is(await page.getByLabel('Choose a password').count(), 0);
  await page.getByRole('button', { name: `Join ${ws.orgName}` }).click();
  await page.getByRole('heading', { name: ASK }).waitFor();
  t.like(await me(page), { email: colleague.email, org_id: ws.orgId, role: 'modeler' });
});

test.serial('an existing account with MFA joins, then the MFA step finishes its sign-in in the new workspace', async (t) => {
  const base = await inviting();
  const ws = await inviting({ baseOrgId: base.orgId });
  const colleague = await passwordUser(w, { orgId: base.orgId });
  const { secret } = await enrollMfa(w, (await signIn(w, colleague.email)).body['access_token'] as string);
  const { link } = await ws.invite(colleague.email, 'user');
  const { page } = await openLink(t, link);
  await page.getByRole('button', { name: `Join ${ws.orgName}` }).click();
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
  await page.getByRole('textbox').first().fill(totp(w, secret));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: ASK }).waitFor();
  t.like(await me(page), { email: colleague.email, org_id: ws.orgId });
});

test.serial("a new person joins with the organization's single sign-on and, after the round trip to the provider, is in that organization with the invited role", async (t) => {
  const { orgId, orgName, token, invite } = await inviting();
  const idp = await startTestIdp({ clientId: 'sextant-web', clientSecret: 'idp-secret', redirectUris: [`${w.config.baseUrl}/api/auth/${orgId}/testidp/auth`] });
  t.teardown(() => idp.stop());
  const sso = await call(w, 'POST', '/api/admin/sso/providers', { token, body: { type: 'testidp', name: 'Test IdP', issuer: idp.issuer, client_id: 'sextant-web', client_secret: 'idp-secret' } });
  t.is(sso.status, 201);
  const email = `sso${++n}@invited.test`;
  idp.signInAs({ sub: `sso-${n}`, email, name: 'Sam Single' });
  const { link } = await invite(email, 'modeler');
  const { page } = await openLink(t, link);
  await page.getByRole('button', { name: `Join with the single sign-on of ${orgName}` }).click();
  await page.getByRole('heading', { name: ASK }).waitFor();
  t.like(await me(page), { email, org_id: orgId, role: 'modeler' });
});

test.serial('signed in as the invited person, they join with one button and act in the new workspace', async (t) => {
  const base = await inviting();
  const ws = await inviting({ baseOrgId: base.orgId });
  const colleague = await passwordUser(w, { orgId: base.orgId });
  const { link } = await ws.invite(colleague.email, 'admin');
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, { email: colleague.email, password: PASSWORD });
  await page.goto(link);
  await page.getByText(`You are signed in as ${colleague.email}.`).waitFor();
  await page.getByRole('button', { name: `Join ${ws.orgName}` }).click();
  await page.getByRole('heading', { name: ASK }).waitFor();
  t.like(await me(page), { email: colleague.email, org_id: ws.orgId, role: 'admin' });
});

test.serial('signed in as someone else, the page says so; signing out keeps the link and the invited person joins', async (t) => {
  const { orgId, invite } = await inviting();
  const other = await passwordUser(w, { orgId: w.org() });
  const email = `switch${++n}@invited.test`;
  const { link } = await invite(email, 'user');
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, { email: other.email, password: PASSWORD });
  await page.goto(link);
  await page.getByText(`You are signed in as ${other.email}, but this invitation is for ${email}.`).waitFor();
  t.is(await page.getByRole('button', { name: /join/i }).count(), 0);
  await checkAccessibility(t, page, 'the invitation page signed in as someone else');
  await page.getByRole('button', { name: 'Sign out and continue' }).click();
  await page.getByRole('button', { name: 'Join without a password' }).click();
  await page.getByRole('heading', { name: ASK }).waitFor();
  t.like(await me(page), { email, org_id: orgId });
  t.is(new URL(page.url()).pathname, '/');
});

test.serial('an account of another organization is told why it cannot join and what it can do', async (t) => {
  const { admin, orgName, invite } = await inviting();
  const outsider = await passwordUser(w, { orgId: w.org() });
  const { link } = await invite(outsider.email, 'user');
  const { page } = await openLink(t, link);
  await page.getByRole('heading', { name: 'This address belongs to another organization' }).waitFor();
  const text = await page.locator('main').innerText();
  t.regex(text, new RegExp(`An account belongs to one organization, so it cannot join ${orgName}`));
  t.true(text.includes(`Ask ${admin.name} (${admin.email}) to invite another address of yours`));
  t.true(text.includes('ask an admin of your organization to remove you from it'));
  t.is(await page.getByRole('button', { name: /join/i }).count(), 0);
  await page.getByRole('link', { name: 'Sign in' }).waitFor();
  await checkAccessibility(t, page, 'an invitation to an account of another organization');
});

test.serial('a used link says it was used; a withdrawn one names whom to ask; an expired one its end; an unknown one what may have happened', async (t) => {
  const { admin, orgName, invite } = await inviting();
  const used = await invite(`used${++n}@invited.test`);
  t.is((await call(w, 'POST', '/api/auth/invitation/accept', { body: { token: used.token, method: 'magic_link' } })).status, 200);
  const revoked = await invite(`revoked${++n}@invited.test`);
  t.is((await call(w, 'DELETE', `/api/admin/invitations/${revoked.id}`, { token: w.session(admin) })).status, 204);
  const expired = await invite(`expired${++n}@invited.test`);
  // A week passed for this invitation only (the clock is shared with the sessions of the other tests).
  w.app.services.store.sqlite!.prepare('UPDATE invitations SET expires_at = ? WHERE id = ?').run(w.clock.now() - 1, expired.id);
  const { page } = await openLink(t, used.link);
  await page.getByRole('heading', { name: 'This invitation was already used' }).waitFor();
  t.true((await page.locator('main').innerText()).includes(`The invitation to ${orgName}`));
  await checkAccessibility(t, page, 'a used invitation');
  await page.goto(revoked.link);
  await page.getByRole('heading', { name: 'This invitation was withdrawn' }).waitFor();
  t.true((await page.locator('main').innerText()).includes(`ask ${admin.name} (${admin.email}) for a new one`));
  await page.goto(expired.link);
  await page.getByRole('heading', { name: 'This invitation has expired' }).waitFor();
  t.true((await page.locator('main').innerText()).includes(`Ask ${admin.name} (${admin.email}) to send it again`));
  await page.goto('/invitation?token=sxt_inv_not-a-real-one');
  await page.getByRole('heading', { name: 'This invitation link does not work' }).waitFor();
  await page.goto('/invitation');
  await page.getByRole('heading', { name: 'This invitation link does not work' }).waitFor();
  for (const link of [used.link, revoked.link, expired.link]) t.is((await call(w, 'POST', '/api/auth/invitation/accept', { body: { token: new URLSearchParams(link.split('?')[1]).get('token'), method: 'magic_link' } })).status, 400);
});
