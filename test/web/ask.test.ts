// Asking in the web client, in Chromium against the demo with the offline model: a streamed answer
// with its table, SQL, chart and credits; downloads; drafts; feedback; uploads.
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import { readFileSync } from 'node:fs';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

async function askedPage(t: ExecutionContext, question: string) {
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context);
  await opened.page.goto('/');
  const box = opened.page.getByRole('textbox', { name: 'Your question' });
  await box.fill(question);
  await box.press('Enter');
  await opened.page.waitForURL('**/chat/*');
  await opened.page.getByText(/credits$/).waitFor();
  return opened;
}

test('a question streams into an answer with steps, text, a sortable table with its SQL, a chart and the credits', async (t) => {
  const { page, problems } = await askedPage(t, 'Total revenue by country');
  t.regex((await page.getByRole('list', { name: 'Steps' }).textContent()) ?? '', /Querying the data/);
  const table = page.getByRole('region', { name: /^Result 1:/ });
  await table.waitFor();
  const header = table.getByRole('columnheader').first();
  t.is(await header.getAttribute('aria-sort'), 'none');
  await header.getByRole('button').click();
  t.is(await header.getAttribute('aria-sort'), 'ascending');
  await table.getByText('SQL', { exact: true }).click();
  t.regex((await table.locator('pre code').textContent()) ?? '', /SELECT/i);
  await page.getByTestId('chart').locator('svg').first().waitFor();
  t.regex((await page.locator('.credits').textContent()) ?? '', /\d+\.\d+ credits/);
  await checkAccessibility(t, page, 'an answered chat with a table and a chart');
  t.deepEqual(problems, []);
});

test('the CSV download holds every row of the result', async (t) => {
  const { page } = await askedPage(t, 'Number of customers per country');
  const table = page.getByRole('region', { name: /^Result 1:/ });
  const rowCount = Number(/(\d+) rows?/.exec((await table.getAttribute('aria-label')) ?? '')?.[1]);
  const [download] = await Promise.all([page.waitForEvent('download'), table.getByRole('link', { name: 'Download CSV' }).click()]);
  const csv = readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
  t.is(csv.length, rowCount + 1);
  t.regex(csv[0]!, /country/i);
  const [xlsx] = await Promise.all([page.waitForEvent('download'), table.getByRole('link', { name: 'Download Excel' }).click()]);
  t.regex(xlsx.suggestedFilename(), /\.xlsx$/);
  t.truthy(await xlsx.path());
});

test('a question typed but not sent survives a reload', async (t) => {
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context);
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Your question' }).fill('How many orders were placed in 2024?\nand by channel');
  await page.reload();
  t.is(await page.getByRole('textbox', { name: 'Your question' }).inputValue(), 'How many orders were placed in 2024?\nand by channel');
});

test('Shift+Enter adds a line, and a rated answer takes a comment', async (t) => {
  const { page } = await askedPage(t, 'How many orders are there?');
  const box = page.getByRole('textbox', { name: 'Your question' });
  await box.press('Shift+Enter');
  t.is(await box.inputValue(), '\n');
  await page.getByRole('button', { name: 'Good answer' }).click();
  await page.getByText('Thanks for the feedback.').waitFor();
  t.is(await page.getByRole('button', { name: 'Good answer' }).getAttribute('aria-pressed'), 'true');
  await page.getByLabel('Comment on this answer').fill('Exactly right');
  await page.getByRole('button', { name: 'Send comment' }).click();
  await page.getByText('Thanks for the feedback.').waitFor();
  const db = w.app.services.store.sqlite!;
  t.truthy(db.prepare("SELECT 1 FROM chat_feedback WHERE comment = 'Exactly right'").get());
});

test('reopening a finished chat shows its recorded answer, and a suggested follow-up asks it', async (t) => {
  const { page } = await askedPage(t, 'How many customers do we have?');
  await page.reload();
  await page.getByRole('article').getByText('How many customers do we have?').waitFor();
  await page.getByText(/credits$/).waitFor();
  const followUps = page.getByRole('region', { name: 'Suggested follow-ups' });
  if (await followUps.count()) {
    await followUps.getByRole('button').first().click();
    await page.locator('.credits').nth(1).waitFor();
  }
  t.pass();
});

test('files are attached by button or by drag and drop, and a refused type shows the server message', async (t) => {
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context);
  await page.goto('/');
  const input = page.locator('input[type=file]');
  await input.setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from('sku,price\na,1\nb,2\n') });
  await page.getByRole('list', { name: 'Attached files' }).getByText('prices.csv').waitFor();
  // Dropped on the composer.
  const dataTransfer = await page.evaluateHandle(`(() => { const dt = new DataTransfer(); dt.items.add(new File(['a,b\\n1,2\\n'], 'dropped.csv', { type: 'text/csv' })); return dt; })()`);
  await page.locator('.composer').dispatchEvent('drop', { dataTransfer });
  await page.getByRole('list', { name: 'Attached files' }).getByText('dropped.csv').waitFor();
  await input.setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ....') });
  await page.getByRole('alert').filter({ hasText: /tool\.exe: Unsupported file type/ }).waitFor();
  t.pass();
});

test('a result longer than the answer brought is paged from the server as the person moves on', async (t) => {
  const { page } = await askedPage(t, 'Top 150 customers by revenue');
  const table = page.getByRole('region', { name: /^Result 1:/ });
  const rowCount = Number(/(\d+) rows?/.exec((await table.getAttribute('aria-label')) ?? '')?.[1]);
  t.true(rowCount > 100, `the question gives ${rowCount} rows`);
  const fetched = page.waitForResponse((r) => r.url().includes('/api/agentic/table_rows'));
  for (let i = 0; i < 5; i++) await table.getByRole('button', { name: 'Next page' }).click();
  t.is((await fetched).status(), 200);
  await table.getByText('Page 6 of').waitFor();
  t.is(await table.locator('tbody tr').count(), Math.min(20, rowCount - 100));
});

test('a value the knowledge does not list is looked up: the step says so, the answer names its reading, and only the answer is a table', async (t) => {
  const { page, problems } = await askedPage(t, 'Revenue in Munich');
  t.regex((await page.getByRole('list', { name: 'Steps' }).textContent()) ?? '', /Looking up values in the data/);
  await page.getByText("Reading 'munich' as the city 'Munich', found in the data.").waitFor();
  t.is(await page.getByRole('region', { name: /^Result \d+:/ }).count(), 1);
  t.deepEqual(problems, []);
});

test('a day-of-week breakdown is drawn as named days, and a change by month shows each change as a percentage', async (t) => {
  const { page, problems } = await askedPage(t, 'Orders by weekday');
  const days = page.getByRole('region', { name: /^Result 1:/ });
  await days.waitFor();
  t.deepEqual((await days.getByRole('row').allTextContents()).slice(1, 3).map((r) => r.replace(/[\d,]+$/, '')), ['Monday', 'Tuesday']);
  // Vega-Lite draws the day names as a category axis (a date axis would have failed to parse them).
  await page.getByTestId('chart').getByText('Wednesday').first().waitFor();
  const box = page.getByRole('textbox', { name: /question/i }).last();
  await box.fill('Revenue growth by month in 2025');
  await box.press('Enter');
  // Each answer numbers its own results: the second answer's table is its result 1, of 12 months.
  const months = page.getByRole('region', { name: /^Result 1: 12 rows/ });
  await months.waitFor();
  const headers = await months.getByRole('columnheader').allTextContents();
  t.true(headers.some((h) => /revenue_change_pct/.test(h)), headers.join(', '));
  t.regex((await months.getByRole('row').nth(2).textContent()) ?? '', /Feb 2025.*\$[\d,]+\.\d{2}.*[-+]?\d+(\.\d)?%/);
  t.deepEqual(problems, []);
});
