// Words people understand, in Chromium against the demo with the offline model: the result grid
// formats its numbers and the download has a readable name; errors say what happened and what to
// do, where the person looks; operator advice reaches admins only; suggestions are questions the
// model answers, never a refused input, and follow-ups follow the answer; the history has dates.
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import type { Page } from 'playwright-core';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

async function signedIn(t: ExecutionContext, role: 'user' | 'admin' = 'user') {
  const m = await demoMember(w, role);
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, m.login);
  return opened;
}

/** Asks in a new chat and waits for the answer to finish. */
async function ask(page: Page, question: string, n = 1): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Your question' });
  await box.fill(question);
  await box.press('Enter');
  await page.waitForURL('**/chat/*');
  await page.locator('.credits').nth(n - 1).waitFor();
}

test('the result grid formats amounts and the download is named after the chat', async (t) => {
  const { page, problems } = await signedIn(t);
  await page.goto('/');
  await ask(page, 'Total revenue by country');
  const table = page.getByRole('region', { name: /^Result 1:/ });
  const cells = await table.locator('td.num').allTextContents();
  t.true(cells.length > 0);
  // Revenue is a governed metric in USD: its column reads in dollars, with separators and cents.
  t.true(cells.some((c) => /^\$\d{1,3}(,\d{3})+\.\d{2}$/.test(c)), `amounts with separators: ${cells.slice(0, 4).join(' | ')}`);
  t.false(cells.some((c) => /\.\d{3,}$/.test(c)), 'no raw decimals');
  // The raw value stays with the cell (copy and downloads carry it).
  const raw = await table.locator('td.num').first().getAttribute('data-raw');
  t.regex(raw ?? '', /^-?\d+(\.\d+)?$/);
  const [download] = await Promise.all([page.waitForEvent('download'), table.getByRole('link', { name: 'Download CSV' }).click()]);
  t.regex(download.suggestedFilename(), /^Total revenue by country \d{4}-\d{2}-\d{2}\.csv$/);
  // The history tells chats apart by date.
  await page.getByRole('navigation', { name: 'Chat history' }).locator('time').first().waitFor();
  t.deepEqual(problems, []);
});

test('errors say what happened and what to do, in the composer', async (t) => {
  const { page, problems } = await signedIn(t);
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Your question' });
  // A question past the limit: the limit and its length.
  await box.fill('x'.repeat(20_001));
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  const alert = page.locator('.composer').getByRole('alert');
  await alert.waitFor();
  t.regex((await alert.textContent()) ?? '', /at most 20,000 characters.*Yours has 20,001/);
  t.is((await box.inputValue()).length, 20_001, 'what was typed stays');
  // The server cannot be reached: said in the composer, the question kept.
  await page.route('**/api/agentic/stream', (route) => route.abort('connectionrefused'));
  await box.fill('Total revenue by country');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await alert.filter({ hasText: 'Could not reach Sextant' }).waitFor();
  t.is(await box.inputValue(), 'Total revenue by country');
  await checkAccessibility(t, page, 'an error in the composer');
  t.deepEqual(problems, []);
});

test('the sign-up hint gives the length the server requires, and the SSO form refuses an issuer that is no address in words', async (t) => {
  const guest = await openPage(t, w.browser, w.url);
  await guest.page.goto('/signup');
  const policy = (await (await guest.page.request.get('/api/auth/password_policy')).json()) as { min_length: number };
  await guest.page.getByText(`At least ${policy.min_length} characters; a long phrase is best.`).waitFor();

  const admin = await passwordUser(w, { orgId: w.org(), role: 'admin' });
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, { email: admin.email, password: PASSWORD });
  await page.goto('/admin/sso');
  const form = page.getByRole('form', { name: 'New provider' });
  let sent = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/admin/sso/providers') && r.method() === 'POST') sent += 1;
  });
  await form.getByRole('textbox', { name: 'Type' }).fill('corp');
  await form.getByRole('textbox', { name: 'Issuer URL' }).fill('not a url');
  await form.getByRole('button', { name: 'Add provider' }).click();
  await form.getByText('Enter the issuer as an https address').waitFor();
  await form.getByText('Give the provider a name').waitFor();
  t.false(((await form.textContent()) ?? '').includes('Too small'), 'no schema text');
  t.is(sent, 0, 'nothing is sent while the form can tell what is wrong');
  t.is(await form.getByRole('textbox', { name: 'Issuer URL' }).getAttribute('aria-invalid'), 'true');
  t.deepEqual(problems, []);
});

test('operator advice in a refusal is shown to admins only', async (t) => {
  const analyst = await signedIn(t);
  await analyst.page.goto('/');
  await ask(analyst.page, 'Why did revenue drop?');
  const answer = analyst.page.locator('.answer').first();
  await answer.getByText(/can't answer/).waitFor();
  t.false(((await answer.textContent()) ?? '').includes('SEXTANT_LLM_PROVIDER'));

  const admin = await signedIn(t, 'admin');
  await admin.page.goto('/');
  await ask(admin.page, 'Why did revenue drop?');
  await admin.page.locator('.answer').first().getByText(/For the operator:.*SEXTANT_LLM_PROVIDER/).waitFor();
  t.pass();
});

test('suggestions are questions the model answers, never a refused input, and follow-ups follow the answer', async (t) => {
  const { page, problems } = await signedIn(t);
  // A refused input and a mistyped one, each in a chat of its own.
  for (const question of ['Why did revenue drop?', 'catalg']) {
    await page.goto('/');
    await ask(page, question);
  }
  await page.goto('/');
  const suggested = page.getByRole('region', { name: 'Suggested questions' });
  await suggested.getByRole('button').first().waitFor();
  const offered = await suggested.getByRole('button').allTextContents();
  t.false(offered.some((q) => q === 'Why did revenue drop?' || q === 'catalg'), offered.join(' | '));
  // A suggestion, asked, is answered with data.
  await suggested.getByRole('button').first().click();
  await page.waitForURL('**/chat/*');
  await page.locator('.credits').first().waitFor();
  await page.getByRole('region', { name: /^Result 1:/ }).waitFor();

  await page.goto('/');
  await ask(page, 'Total revenue by country');
  const followUps = page.getByRole('region', { name: 'Suggested follow-ups' });
  await followUps.getByRole('button').first().waitFor();
  const next = await followUps.getByRole('button').allTextContents();
  t.true(next.every((q) => /^and (by|in) /.test(q)), next.join(' | '));
  await followUps.getByRole('button').first().click();
  await page.locator('.credits').nth(1).waitFor();
  await page.getByRole('region', { name: /^Result 1:/ }).nth(1).waitFor();
  t.deepEqual(problems, []);
});
