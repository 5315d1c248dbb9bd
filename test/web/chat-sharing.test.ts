// Sharing and lineage in Chromium, on answers of the demo's offline model: a chat and a single answer
// shared and opened at their own random address (never the chat's id, and without the owner's
// credits) in a browser without a session; the tables and columns an answer read, and one result
// column traced to its source.
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

/** A new demo member's page with one answered question; returns the chat's id too. */
async function answered(t: ExecutionContext, question: string) {
  const m = await demoMember(w);
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, m.login);
  await opened.page.goto('/');
  const box = opened.page.getByRole('textbox', { name: 'Your question' });
  await box.fill(question);
  await box.press('Enter');
  await opened.page.waitForURL('**/chat/*');
  await opened.page.getByText(/credits$/).waitFor();
  return { ...opened, chatId: decodeURIComponent(new URL(opened.page.url()).pathname.split('/').pop()!) };
}

test('a shared chat and a shared answer open at their own random address without a session and without credits, and show nothing once unshared, even after sharing again', async (t) => {
  const { page, chatId, problems } = await answered(t, 'Total revenue by country');
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share this chat' });
  await dialog.getByRole('button', { name: 'Create a link to the whole chat' }).click();
  const chatLink = dialog.getByRole('group', { name: 'Link to the whole chat' }).getByRole('link');
  await chatLink.waitFor();
  const chatUrl = (await chatLink.getAttribute('href'))!;
  // The link is the share's own random id (128 bits), not the chat's id.
  t.regex(chatUrl, new RegExp(`^${w.url}/share/[\\w-]{22,}$`));
  t.not(chatUrl, `${w.url}/share/${chatId}`);
  await checkAccessibility(t, page, 'the share dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  t.is(await page.evaluate('document.activeElement?.textContent'), 'Share');

  await page.getByRole('button', { name: 'Share this answer' }).click();
  const answerLink = page.getByRole('group', { name: 'Link to this answer' }).getByRole('link');
  const answerUrl = (await answerLink.getAttribute('href'))!;
  t.regex(answerUrl, new RegExp(`^${w.url}/share/[\\w-]{22,}$`));
  t.not(answerUrl, `${w.url}/share/${chatId}`);
  t.not(answerUrl, chatUrl);

  // A stranger: a fresh browser context without any cookie.
  const stranger = await openPage(t, w.browser, w.url);
  await stranger.page.goto(`/share/${chatId}`);
  await stranger.page.getByRole('alert').getByText('This link shows nothing').waitFor();
  await stranger.page.goto(chatUrl);
  await stranger.page.getByRole('heading', { level: 1, name: 'Total revenue by country' }).waitFor();
  await stranger.page.getByRole('region', { name: /^Result 1: 8 rows/ }).waitFor();
  await stranger.page.getByTestId('chart').locator('svg').first().waitFor();
  t.is(await stranger.page.getByRole('link', { name: 'Download CSV' }).count(), 0);
  t.is(await stranger.page.getByRole('button', { name: 'Good answer' }).count(), 0);
  t.is(stranger.page.url(), chatUrl);
  // The owner's credits stay the owner's: the page shows none.
  t.is(await stranger.page.getByText(/credits/).count(), 0);
  await checkAccessibility(t, stranger.page, 'the public view of a shared chat');
  await stranger.page.goto(answerUrl);
  await stranger.page.getByText('Total revenue by country', { exact: true }).first().waitFor();
  await stranger.page.getByRole('region', { name: /^Result 1:/ }).waitFor();
  t.is(await stranger.page.getByText(/credits/).count(), 0);

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await dialog.getByRole('group', { name: 'Link to the whole chat' }).getByRole('button', { name: 'Stop sharing' }).click();
  await dialog.getByRole('button', { name: 'Create a link to the whole chat' }).waitFor();
  t.is(await dialog.getByRole('group', { name: /^Link to shared answer/ }).count(), 1);
  await stranger.page.goto(chatUrl);
  await stranger.page.getByRole('alert').getByText('This link shows nothing').waitFor();
  // Sharing again makes a new address; the stopped one stays dead.
  await dialog.getByRole('button', { name: 'Create a link to the whole chat' }).click();
  await chatLink.waitFor();
  const newUrl = (await chatLink.getAttribute('href'))!;
  t.not(newUrl, chatUrl);
  await stranger.page.goto(chatUrl);
  await stranger.page.getByRole('alert').getByText('This link shows nothing').waitFor();
  await stranger.page.goto(newUrl);
  await stranger.page.getByRole('heading', { level: 1, name: 'Total revenue by country' }).waitFor();
  t.deepEqual([...problems, ...stranger.problems], []);
});

test('the lineage of an answer lists the tables and columns it read and traces a result column, with the keyboard', async (t) => {
  const { page } = await answered(t, 'Total revenue by country');
  const lineage = page.getByText('Data lineage: tables and columns read');
  await lineage.focus();
  const loaded = page.waitForResponse((r) => /\/lineage\/[^/]+$/.test(r.url()) && r.ok());
  await page.keyboard.press('Enter');
  await loaded;
  const query = page.getByRole('region', { name: 'Lineage of Result 1' });
  await query.waitFor();
  t.deepEqual((await query.getByRole('list').first().getByRole('listitem').allTextContents()).sort(), ['main.customers', 'main.orders']);
  t.true((await query.textContent())!.includes('main.orders.total_amount'));
  const trace = query.getByRole('button', { name: 'Trace column country' });
  await trace.focus();
  await page.keyboard.press('Enter');
  await query.getByText('comes from main.customers.country').waitFor();
  await checkAccessibility(t, page, 'the lineage of an answer');
});
