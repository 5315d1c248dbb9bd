// Signing in through the web client in Chromium: password, the page asked for, wrong password,
// sign-out, and an expired session that comes back with the draft kept.
import anyTest, { type TestFn } from 'ava';
import { endSession } from '../../src/auth/credentials/sessions.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { call } from '../helpers/api.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { DEMO, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

test('a person signs in with the keyboard and lands on the Ask page; both pages pass axe', async (t) => {
  const { page, problems } = await openPage(t, w.browser, w.url);
  await page.goto('/');
  await page.waitForURL('**/login');
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await checkAccessibility(t, page, '/login');
  // Keyboard only: the email field has focus; Tab to the password; Enter submits.
  await page.keyboard.type(DEMO.analyst.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(DEMO.analyst.password);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();
  t.is(new URL(page.url()).pathname, '/');
  await checkAccessibility(t, page, '/ (Ask)');
  t.deepEqual(problems, []);
});

test('after signing in the person returns to the same-origin page they asked for, never another site', async (t) => {
  const { page } = await openPage(t, w.browser, w.url);
  await page.goto('/chat/some-chat?x=1');
  await page.waitForURL('**/login?next=*');
  await signIn(page);
  await page.waitForURL('**/chat/some-chat?x=1');
  const other = await openPage(t, w.browser, w.url);
  for (const next of ['https://evil.test/x', '//evil.test/x', '/\\evil.test']) {
    await other.page.goto(`/login?next=${encodeURIComponent(next)}`);
    await signIn(other.page);
    await other.page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();
    t.is(new URL(other.page.url()).origin, w.url, next);
    await other.context.clearCookies();
  }
});

test('a wrong password shows the server message and keeps the email typed', async (t) => {
  const { page } = await openPage(t, w.browser, w.url);
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO.analyst.email);
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: /incorrect/i }).waitFor();
  t.is(await page.getByLabel('Email').inputValue(), DEMO.analyst.email);
  await checkAccessibility(t, page, '/login with an error');
});

test('a deactivated member with the right password is told their access was removed and whom to ask; a wrong password is not', async (t) => {
  const orgId = w.org();
  const admin = await passwordUser(w, { orgId, role: 'admin', email: 'hopper.admin@removed.test' });
  const member = await passwordUser(w, { orgId });
  t.is((await call(w, 'POST', `/api/admin/members/${member.id}/deactivate`, { token: w.session(admin) })).status, 200);
  const { page } = await openPage(t, w.browser, w.url);
  await page.goto('/login');
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'Incorrect email or password' }).waitFor();
  t.false((await page.locator('main').innerText()).includes('removed'));
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'access' });
  await alert.waitFor();
  t.is(await alert.innerText(), `Your access to Org ${orgId} was removed by an admin. Ask an admin of Org ${orgId} (hopper.admin) to restore it.`);
  t.is(new URL(page.url()).pathname, '/login');
  await checkAccessibility(t, page, '/login refusing a deactivated member');
});

test('signing out ends the session and shows the sign-in page', async (t) => {
  const { page, context } = await openPage(t, w.browser, w.url);
  await page.goto('/login');
  await signIn(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
  const me = await context.request.get('/api/auth/me');
  t.is(me.status(), 401);
});

test('an expired session sends the person to sign in and back, with the unsent question kept', async (t) => {
  const { page } = await openPage(t, w.browser, w.url);
  await page.goto('/login');
  await signIn(page);
  const box = page.getByRole('textbox', { name: 'Your question' });
  await box.fill('How many orders are there?');
  // The server ends every session of the person (as a password change would).
  const session = (await page.context().cookies()).find((c) => c.name === 'sextant_session')!.value;
  const sid = JSON.parse(Buffer.from(session.split('.')[1]!, 'base64url').toString()) as { sid: string };
  await endSession({ store: w.app.services.executor, clock: w.clock }, sid.sid);
  await box.press('Enter');
  await page.waitForURL('**/login?*expired=1*');
  await page.getByText('Your session ended').waitFor();
  await signIn(page);
  await page.waitForURL((url) => url.pathname === '/');
  t.is(await page.getByRole('textbox', { name: 'Your question' }).inputValue(), 'How many orders are there?');
});

async function signIn(page: import('playwright-core').Page, who = DEMO.analyst): Promise<void> {
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
