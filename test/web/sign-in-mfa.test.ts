// Two-factor sign-in in Chromium: enrollment required by the organization (QR code, key, real TOTP,
// the recovery codes shown once), the code step at the next sign-in, and the magic link by mail.
import anyTest, { type TestFn } from 'ava';
import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { addOrgEmailDomain, setSsoConfig } from '../helpers/auth-config.ts';
import { enrollMfa, PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
let smtp: TestSmtp;
test.before(async () => {
  smtp = await startTestSmtp();
  w = await startWebApp({ SEXTANT_SMTP_URL: smtp.url });
});
test.after.always(async () => {
  await w?.stop();
  await smtp?.stop();
});

const code = (secret: string) => generateSync({ secret, epoch: Math.floor(w.clock.now() / 1000) });

async function passwordStep(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test.serial('an organization that enforces MFA enrolls the person with a QR code and a real TOTP, shows 10 recovery codes once, and asks for a code next time', async (t) => {
  const orgId = w.org(undefined, { mfaEnforced: true });
  const user = await passwordUser(w, { orgId });
  const { page, problems } = await openPage(t, w.browser, w.url);
  await passwordStep(page, user.email);
  await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
  await page.getByRole('img', { name: /QR code/ }).locator('svg').waitFor();
  await checkAccessibility(t, page, 'MFA enrollment');
  const secret = (await page.getByTestId('totp-secret').textContent())!;
  await page.getByLabel('Code from the app').fill(code(secret));
  await page.getByRole('button', { name: 'Turn on and continue' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await codes.first().waitFor();
  t.is(await codes.count(), 10);
  const recoveryCode = (await codes.first().textContent())!.trim();
  await checkAccessibility(t, page, 'recovery codes');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download' }).click()]);
  t.is(download.suggestedFilename(), 'sextant-recovery-codes.txt');
  await page.getByRole('button', { name: 'I saved them, continue' }).click();
  await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
  w.clock.advance(30_000);
  await passwordStep(page, user.email);
  await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
  await checkAccessibility(t, page, 'MFA code step');
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('alert').waitFor();
  await page.getByLabel('Authentication code').fill(code(secret));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();

  // A recovery code works in the same field, once.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
  await passwordStep(page, user.email);
  await page.getByLabel('Authentication code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();
  t.deepEqual(problems, []);
});

test.serial('a magic link from the mail signs in, and so does the code from the mail', async (t) => {
  const user = await passwordUser(w);
  const { page, context } = await openPage(t, w.browser, w.url);
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  await checkAccessibility(t, page, 'magic link sent');
  const first = await smtp.next(user.email, /sign-in link/);
  const link = /(http:\/\/\S+\/magic-link\?token=\S+)/.exec(first.text)![1]!;
  t.true(link.startsWith(w.url));
  await page.goto(link);
  await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();

  await context.clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  const second = await smtp.next(user.email, /sign-in link/);
  const fallback = /enter this code: (\d{8})/.exec(second.text)![1]!;
  await page.getByLabel('Code from the mail').fill(fallback);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();
});

test.serial('sign-up sends a verification link that the verify page confirms; the reset link sets a new password', async (t) => {
  const { page } = await openPage(t, w.browser, w.url);
  await page.goto('/signup');
  await checkAccessibility(t, page, '/signup');
  await page.getByLabel('Work email').fill('new.person@example.com');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The server's 422 message sits next to the field; what was typed stays.
  const passwordError = page.locator('#' + (await page.getByLabel('Password').getAttribute('aria-describedby'))!.split(' ').at(-1)!);
  await passwordError.waitFor();
  t.is(await page.getByLabel('Work email').inputValue(), 'new.person@example.com');
  await page.getByLabel('Password').fill('a long enough passphrase for this');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  const mail = await smtp.next('new.person@example.com', /Confirm/);
  await page.goto(/(http:\/\/\S+\/verify\?token=\S+)/.exec(mail.text)![1]!);
  await page.getByText('Your email address is confirmed.').waitFor();
  await checkAccessibility(t, page, '/verify');

  await page.goto('/reset-password');
  await page.getByLabel('Email').fill('new.person@example.com');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const reset = await smtp.next('new.person@example.com', /Reset/);
  await page.goto(/(http:\/\/\S+\/reset-password\?token=\S+)/.exec(reset.text)![1]!);
  await page.getByLabel('New password').fill('another long enough passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Your password is changed').waitFor();
  await checkAccessibility(t, page, '/reset-password');
});

test.serial('without the authenticator or recovery codes, self-service recovery removes MFA after the mailed confirmation', async (t) => {
  const user = await passwordUser(w);
  await enrollMfa(w, w.session(user));
  const { page } = await openPage(t, w.browser, w.url);
  await passwordStep(page, user.email);
  await page.getByRole('button', { name: 'Lost your authenticator and recovery codes?' }).click();
  await page.getByRole('button', { name: 'Send the recovery mail' }).click();
  await page.getByText('a confirmation link is on its way').waitFor();
  const mail = await smtp.next(user.email, /Recover access/);
  await page.goto(/(http:\/\/\S+\/mfa-recovery\?token=\S+)/.exec(mail.text)![1]!);
  await page.getByText(user.email).waitFor();
  await checkAccessibility(t, page, '/mfa-recovery');
  await page.getByRole('button', { name: 'Yes, remove it' }).click();
  await page.getByRole('heading', { name: 'Two-factor authentication removed' }).waitFor();
  await passwordStep(page, user.email);
  await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();
});

test.serial("the sign-in page offers the SSO providers of the organization that owns the address's domain", async (t) => {
  const orgId = w.org('bigcorp-web');
  const db = w.app.services.store.sqlite!;
  const { secretBox } = w.app.services;
  setSsoConfig({ db, clock: w.clock, secretBox }, { orgId, type: 'oidc', issuer: 'http://127.0.0.1:1/idp', clientId: 'sextant' });
  addOrgEmailDomain(db, orgId, 'bigcorp-web.test');
  const { page } = await openPage(t, w.browser, w.url);
  await page.goto('/login?next=%2Fchat%2Fx');
  await page.getByLabel('Email').fill('someone@bigcorp-web.test');
  const sso = page.getByRole('link', { name: /Continue with single sign-on/ });
  await sso.waitFor();
  t.is(await sso.getAttribute('href'), `/api/auth/${orgId}/oidc/login?next=%2Fchat%2Fx`);
  await page.getByLabel('Email').fill('someone@elsewhere.test');
  await sso.waitFor({ state: 'detached' });
  await checkAccessibility(t, page, '/login with SSO');
});
