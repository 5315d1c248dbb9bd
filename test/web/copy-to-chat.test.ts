// Copying an answer into another chat in Chromium, on answers of the demo's offline model: the copy
// lands at the end of the chosen chat with its question and table, marked as copied instead of
// showing credits; a new chat can be the target too.
import anyTest, { type TestFn } from 'ava';
import { browserTest, checkAccessibility, openPage, type InPage } from '../helpers/browser.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

test('an answer is copied into another chat and into a new one, marked as copied instead of costing credits', async (t) => {
  const m = await demoMember(w);
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  const ask = async (question: string) => {
    await page.goto('/');
    const box = page.getByRole('textbox', { name: 'Your question' });
    await box.fill(question);
    await box.press('Enter');
    await page.waitForURL('**/chat/*');
    await page.getByText(/credits$/).waitFor();
    return page.url();
  };
  const collection = await ask('How many customers are there?');
  await ask('Total revenue by country');

  await page.getByRole('button', { name: 'Copy to chat' }).click();
  const dialog = page.getByRole('dialog', { name: 'Copy this answer to a chat' });
  await dialog.getByRole('combobox', { name: 'Chat' }).selectOption({ label: 'How many customers are there?' });
  await checkAccessibility(t, page, 'the copy dialog');
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await dialog.getByRole('status').getByText('Copied to How many customers are there?').waitFor();
  await dialog.getByRole('link', { name: 'Open it' }).click();
  await page.waitForURL(collection);
  // The chosen chat now ends with the copied pair, its table, and no second charge.
  await page.getByText('Total revenue by country', { exact: true }).first().waitFor();
  await page.getByRole('region', { name: /^Result \d+: 8 rows/ }).waitFor();
  await page.getByText('Copied from another chat.').waitFor();
  t.is(await page.getByText(/credits$/).count(), 1, 'only the chat’s own answer shows credits');

  // Into a new chat (here the chat's own first answer): the new chat holds the copied pair only.
  await page.getByRole('button', { name: 'Copy to chat' }).first().click();
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await dialog.getByRole('status').getByText('Copied to a new chat.').waitFor();
  await dialog.getByRole('link', { name: 'Open it' }).click();
  await page.waitForURL((url) => url.href !== collection && url.pathname.startsWith('/chat/'));
  // The page stays mounted across chats: for a moment after the address changes it still shows the
  // chat just left (which holds a copy too), then none while the new one loads. Waited for: one answer.
  await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelectorAll('[role="group"][aria-label="Answer actions"]').length === 1);
  await page.getByText('Copied from another chat.').waitFor();
  t.is(await page.getByRole('button', { name: 'Copy to chat' }).count(), 1, 'one answer');
  t.is(await page.getByText(/credits$/).count(), 0);
});
