// The SQL editor and chart controls in Chromium: an analyst opens an answer's table in the editor
// ("Edit SQL"), rewrites its SQL with the catalog's table and column names completed as they type,
// runs it through the governed path (a write is refused and said so, as in the chat; Stop cancels a
// long query), picks a chart, saves it as a saved question, opens it and sees the chart, and
// reopening it in the editor brings back the SQL and the chart's choices. Bars over months are a
// month wide, and sorted by the value they are drawn in the value's order.
import anyTest, { type TestFn } from 'ava';
import type { Page } from 'playwright-core';
import { DEMO_CONNECTION_ID } from '../../src/data/index.ts';
import { call } from '../helpers/api.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { seedChat } from '../helpers/chats.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

const ANSWER_SQL = 'SELECT count(*) AS orders FROM orders';
const NEW_SQL = 'SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status';

/** Picks the completion offered for what was typed, by its label. */
async function complete(page: Page, label: string): Promise<void> {
  await page.getByRole('listbox').getByRole('option', { name: new RegExp(`^${label}`) }).first().click();
}

/** Types into the editor as a person does (CodeMirror closes brackets itself; typing the closing one steps over it). */
async function typeSql(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text, { delay: 5 });
}

test('an analyst edits an answer\'s SQL with completion, runs it, charts it, saves it and sees the chart on the saved question', async (t) => {
  const m = await demoMember(w, 'user');
  await seedChat(w, m.principal, 'sql-1', [
    {
      question: 'How many orders?',
      answer: 'This many.',
      answerData: { tables: [{ df_key: 'df_count', sql: ANSWER_SQL, connection_id: DEMO_CONNECTION_ID, dialect: 'duckdb', columns: ['orders'], row_count: 1, preview: [[3000]] }] },
    },
  ]);
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/chat/sql-1');
  await page.getByRole('region', { name: 'Result 1: 1 row' }).getByRole('link', { name: 'Edit SQL' }).click();

  // The answer's SQL opens and runs at once.
  await page.getByRole('heading', { name: 'SQL editor' }).waitFor();
  const editor = page.getByRole('textbox', { name: 'SQL' });
  await page.getByRole('region', { name: 'Result 1: 1 row' }).waitFor();
  t.is((await editor.textContent())?.trim(), ANSWER_SQL);

  // Rewritten with completion: the table from the catalog, then a column of the table the query reads.
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await typeSql(page, 'SELECT count(*) AS n FROM ord');
  await complete(page, 'orders');
  await page.keyboard.press('ControlOrMeta+Home');
  for (let i = 0; i < 'SELECT '.length; i++) await page.keyboard.press('ArrowRight');
  await typeSql(page, 'sta');
  await complete(page, 'status');
  await typeSql(page, ', ');
  await page.keyboard.press('ControlOrMeta+End');
  await typeSql(page, ' GROUP BY status ORDER BY status');
  t.is((await editor.textContent())?.trim(), NEW_SQL);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('region', { name: /^Result 1: \d+ rows$/ });
  await result.waitFor();
  const statuses = await result.locator('tbody tr td:first-child').allTextContents();
  t.true(statuses.includes('completed'), statuses.join(', '));

  // The chart: a pie of the orders by status, the largest slice first.
  await page.getByLabel('Chart type').selectOption('pie');
  await page.getByLabel('Slices').selectOption('status');
  await page.getByLabel('Y axis').selectOption('n');
  await page.getByLabel('Sort').selectOption('y-descending');
  await page.getByLabel('Number format').selectOption('integer');
  await page.getByTestId('chart').locator('svg').first().waitFor();
  await checkAccessibility(t, page, 'the SQL editor with a result and a chart');

  await page.getByRole('button', { name: 'Save as saved question' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save this query as a question' });
  await dialog.getByLabel('Title').fill('Orders by status, as a pie');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('dialog', { name: 'Question saved' }).getByRole('link', { name: 'Open the saved question' }).click();

  await page.getByRole('heading', { name: 'Orders by status, as a pie' }).waitFor();
  await page.getByTestId('chart').locator('svg path').first().waitFor();
  const id = decodeURIComponent(page.url().split('/').at(-1)!);
  const saved = await call(w, 'GET', `/api/saved_questions/${id}`, { token: w.session(m.user) });
  t.like(saved.body, { sql: NEW_SQL, connection_id: DEMO_CONNECTION_ID, visibility: 'private', chart: { mark: { type: 'arc' }, encoding: { theta: { field: 'n', format: ',.0f' }, color: { field: 'status' } } } });

  // Reopened in the editor: the saved SQL and the chart's choices as they were left.
  await page.getByRole('link', { name: 'Edit SQL and chart' }).click();
  await page.getByRole('heading', { name: 'Edit SQL: Orders by status, as a pie' }).waitFor();
  t.is((await page.getByRole('textbox', { name: 'SQL' }).textContent())?.trim(), NEW_SQL);
  await page.getByTestId('chart').locator('svg').first().waitFor();
  t.is(await page.getByLabel('Chart type').inputValue(), 'pie');
  t.is(await page.getByLabel('Sort').inputValue(), 'y-descending');
  t.is(await page.getByLabel('Number format').inputValue(), 'integer');
  t.deepEqual(problems, []);
});

test('a write (run with Ctrl+Enter) is refused by the guard and said so, and so is saving it; Stop cancels a long query', async (t) => {
  const m = await demoMember(w, 'user');
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/sql');
  const editor = page.getByRole('textbox', { name: 'SQL' });
  await editor.click();
  await typeSql(page, 'DELETE FROM orders');
  await page.keyboard.press('ControlOrMeta+Enter');
  await page.getByRole('alert').filter({ hasText: /read-only|SELECT|refused|not allowed/i }).waitFor();
  const left = await call(w, 'POST', '/api/execute_query', { token: w.session(m.user), body: { sql: 'SELECT count(*) AS n FROM orders' } });
  t.is(Number(left.body.rows[0][0]), 3000, 'nothing was deleted');
  // Saving it is refused the same way, in the dialog, and nothing is saved.
  await page.getByRole('button', { name: 'Save as saved question' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title').fill('A delete');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.getByRole('alert').filter({ hasText: /SELECT|refused|not allowed/i }).waitFor();
  const mine = await call(w, 'GET', '/api/saved_questions?q=A%20delete', { token: w.session(m.user) });
  t.deepEqual(mine.body.questions, [], 'nothing saved');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  await editor.click(); // the focus went back to the Save button with the dialog

  await page.keyboard.press('ControlOrMeta+a');
  await typeSql(page, 'SELECT count(*) AS n FROM orders a, orders b, orders c, orders d');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Running the query…' }).waitFor();
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('status').filter({ hasText: 'Stopped: the query was cancelled.' }).waitFor();
  t.true(await page.getByRole('button', { name: 'Run', exact: true }).isEnabled());
});

test('the owner saves changes to an opened question as its next version; another member may only save a copy', async (t) => {
  const owner = await demoMember(w, 'modeler');
  const token = w.session(owner.user);
  const agentChart = { mark: 'bar', encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } } };
  const created = await call(w, 'POST', '/api/saved_questions', { token, body: { title: 'Statuses', connection_id: DEMO_CONNECTION_ID, sql: NEW_SQL, chart: agentChart, visibility: 'organization' } });
  t.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;

  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, owner.login);
  await page.goto(`/sql?question=${encodeURIComponent(id)}`);
  await page.getByRole('heading', { name: 'Edit SQL: Statuses' }).waitFor();
  await page.getByTestId('chart').locator('svg').first().waitFor();
  t.is(await page.getByLabel('Chart type').inputValue(), 'bar', 'read from the encoding of a chart made elsewhere');
  await page.getByLabel('Chart type').selectOption('line');
  await page.getByLabel('Date format').selectOption('auto');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await page.getByRole('status').filter({ hasText: 'Saved as version 2.' }).waitFor();
  const after = await call(w, 'GET', `/api/saved_questions/${id}`, { token });
  t.like(after.body, { version: 2, sql: NEW_SQL, chart: { mark: { type: 'line' }, encoding: { x: { field: 'status' }, y: { field: 'n' } } } });

  const analyst = await demoMember(w, 'user');
  const other = await openPage(t, w.browser, w.url);
  await signInAs(other.context, analyst.login);
  await other.page.goto(`/sql?question=${encodeURIComponent(id)}`);
  await other.page.getByRole('button', { name: 'Save as a new question' }).waitFor();
  t.is(await other.page.getByRole('button', { name: 'Save changes' }).count(), 0);
  t.deepEqual([...problems, ...other.problems], []);
});

/** A drawn mark as the page shows it: where it is and what it says. */
interface Mark {
  getBoundingClientRect(): { x: number };
  getAttribute(name: string): string | null;
}

test('bars over months are drawn a month wide and, sorted by the value, in the value\'s order', async (t) => {
  const m = await demoMember(w, 'user');
  const token = w.session(m.user);
  const sql = "SELECT date_trunc('month', order_date) AS m, sum(total_amount) AS revenue FROM orders GROUP BY 1 ORDER BY 1 LIMIT 3";
  const created = await call(w, 'POST', '/api/saved_questions', { token, body: { title: 'Monthly revenue', connection_id: DEMO_CONNECTION_ID, sql } });
  t.is(created.status, 201, JSON.stringify(created.body));
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto(`/sql?question=${created.body.id as string}`);
  const result = page.getByRole('region', { name: /^Result 1: 3 rows$/ });
  await result.waitFor();
  const revenues = (await result.locator('tbody tr td:nth-child(2)').allTextContents()).map((v) => Number(v.replace(/[^\d.]/g, '')));
  await page.getByLabel('Chart type').selectOption('bar');
  await page.getByLabel('X axis').selectOption('m');
  await page.getByLabel('Y axis').selectOption('revenue');
  await page.getByLabel('Date format').selectOption('auto');
  const bars = page.getByTestId('chart').locator('svg path[aria-label^="m"]');
  await bars.nth(2).waitFor();
  const plot = (await page.getByTestId('chart').locator('svg').first().boundingBox())!;
  const boxes = await Promise.all([0, 1, 2].map(async (i) => (await bars.nth(i).boundingBox())!));
  for (const box of boxes) t.true(box.width > plot.width / 8, `a bar a month wide: ${box.width} px of ${plot.width}`);
  t.true(Math.max(...boxes.map((b) => b.x + b.width)) < plot.x + plot.width, 'the last bar inside the chart');
  t.regex((await bars.nth(0).getAttribute('aria-label')) ?? '', /^m \(year-month\): [A-Z][a-z]{2} \d{4};/, 'labelled by the month');

  await page.getByLabel('Sort').selectOption('y-descending');
  // Redrawn in the value's order: the bars' revenues read left to right, largest first (waits until so).
  const leftToRight = await page
    .waitForFunction(
      (expected) => {
        const { document } = globalThis as unknown as { document: { querySelectorAll(selector: string): ArrayLike<Mark> } };
        const drawn = Array.from(document.querySelectorAll('[data-testid=chart] svg path[aria-label^="m"]'))
          .map((e) => ({ x: e.getBoundingClientRect().x, revenue: Math.round(Number(/revenue: ([\d,.]+)/.exec(e.getAttribute('aria-label') ?? '')?.[1]?.replace(/,/g, ''))) }))
          .sort((a, b) => a.x - b.x)
          .map((b) => b.revenue);
        return drawn.join() === expected.join() && drawn;
      },
      [...revenues].sort((a, b) => b - a).map(Math.round),
      { timeout: 5000 },
    )
    .then((h) => h.jsonValue())
    .catch(() => 'not in the value\'s order');
  t.deepEqual(leftToRight, [...revenues].sort((a, b) => b - a).map(Math.round));
  t.deepEqual(problems, []);
});
