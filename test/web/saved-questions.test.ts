// Saved questions in Chromium: an analyst saves an answer from its actions (privately: publishing to
// the organization is not theirs), finds it on the Saved page, and opening it reads the warehouse
// again (rows the answer never had, the chart over them) and says when; running it again later
// says the new time. An edited question's page lists its versions. A title of one long word wraps
// inside its card and its page's heading instead of widening the page.
import anyTest, { type TestFn } from 'ava';
import { DEMO_CONNECTION_ID } from '../../src/data/index.ts';
import { call } from '../helpers/api.ts';
import { browserTest, checkAccessibility, openPage, type InPage } from '../helpers/browser.ts';
import { seedChat } from '../helpers/chats.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

const SQL = 'SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status';
// What the answer showed back then: a status the warehouse does not have.
const STALE = { status: 'long gone', n: 1 };

test('an analyst saves an answer privately, opens it from the Saved page and sees fresh data with the time it was read', async (t) => {
  const m = await demoMember(w, 'user');
  await seedChat(w, m.principal, 'saved-1', [
    {
      question: 'Orders by status?',
      answer: 'Here they are.',
      answerData: {
        tables: [{ df_key: 'df_status', sql: SQL, connection_id: DEMO_CONNECTION_ID, dialect: 'duckdb', columns: ['status', 'n'], row_count: 1, preview: [[STALE.status, STALE.n]] }],
        charts: [{ chart_id: 'ch_status', df_key: 'df_status', type: 'bar', spec: { mark: 'bar', data: { values: [STALE] }, encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } } } }],
      },
    },
  ]);
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/chat/saved-1');
  await page.getByRole('group', { name: 'Answer actions' }).getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save this answer as a question' });
  await dialog.getByLabel('Title').fill('Orders by status');
  await dialog.getByLabel('Description').fill('How many orders are in each status');
  t.true(await dialog.getByRole('radio', { name: 'Only me' }).isChecked());
  t.true(await dialog.getByRole('radio', { name: 'Everyone in the organization' }).isDisabled(), 'an analyst cannot publish to the organization');
  const radio = (await dialog.getByRole('radio', { name: 'Only me' }).boundingBox())!;
  t.true(radio.width < 40, `a radio button the size of one, at the start of its line: ${JSON.stringify(radio)}`);
  await checkAccessibility(t, page, 'the save dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('dialog', { name: 'Question saved' }).getByRole('button', { name: 'Close' }).click();

  await page.getByRole('link', { name: 'Saved', exact: true }).click();
  const list = page.getByRole('list', { name: 'Saved questions' });
  await list.getByRole('listitem').filter({ hasText: 'Private' }).getByText('How many orders are in each status').waitFor();
  await list.getByRole('listitem').filter({ hasText: 'Private' }).getByRole('link', { name: 'Orders by status' }).click();

  await page.getByRole('heading', { name: 'Orders by status' }).waitFor();
  const result = page.getByRole('region', { name: /^Result: \d+ rows?$/ });
  await result.waitFor();
  const statuses = await result.locator('tbody tr td:first-child').allTextContents();
  t.true(statuses.includes('completed'), `fresh rows from the warehouse: ${statuses.join(', ')}`);
  t.false(statuses.includes(STALE.status), 'not the rows the answer had');
  await page.getByTestId('chart').locator('svg').first().waitFor();
  const readAt = page.getByRole('status').filter({ hasText: 'Data read at' });
  const first = (await readAt.textContent()) ?? '';
  t.regex(first, /^Data read at .+/);
  await checkAccessibility(t, page, 'a saved question');

  // A day later, running it again reads again and says so.
  w.clock.advance(24 * 3600_000);
  await page.getByRole('button', { name: 'Run again' }).click();
  await page.waitForFunction(
    (before) => [...Array.from((globalThis as unknown as InPage).document.querySelectorAll('[role=status]'))].some((e) => /^Data read at /.test(e.textContent ?? '') && e.textContent !== before),
    first,
  );
  t.not(await readAt.textContent(), first);
  t.deepEqual(problems, []);
});

test('a modeler publishes an answer to the organization, and an analyst finds it on the Saved page and runs it', async (t) => {
  const modeler = await demoMember(w, 'modeler');
  await seedChat(w, modeler.principal, 'saved-2', [
    { question: 'How many orders?', answer: 'This many.', answerData: { tables: [{ df_key: 'df_count', sql: 'SELECT count(*) AS orders FROM orders', connection_id: DEMO_CONNECTION_ID, dialect: 'duckdb', columns: ['orders'], row_count: 1, preview: [[1]] }] } },
  ]);
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, modeler.login);
  await page.goto('/chat/saved-2');
  await page.getByRole('group', { name: 'Answer actions' }).getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save this answer as a question' });
  await dialog.getByLabel('Title').fill('Order count');
  await dialog.getByRole('radio', { name: 'Everyone in the organization' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('dialog', { name: 'Question saved' }).waitFor();

  const analyst = await demoMember(w, 'user');
  const other = await openPage(t, w.browser, w.url);
  await signInAs(other.context, analyst.login);
  await other.page.goto('/saved');
  await other.page.getByRole('list', { name: 'Saved questions' }).getByRole('listitem').filter({ hasText: 'Organization' }).getByRole('link', { name: 'Order count' }).click();
  const result = other.page.getByRole('region', { name: 'Result: 1 row' });
  await result.waitFor();
  t.is(await result.locator('tbody td').getAttribute('data-raw'), '3000', 'every order of the demo warehouse, read now');
  t.is(await result.locator('tbody td').textContent(), '3,000', 'shown as the chat shows it');
  t.deepEqual([...problems, ...other.problems], []);
});

test('an edited question keeps its versions: its page lists them newest first, each with its SQL, the current one marked', async (t) => {
  const m = await demoMember(w, 'user');
  const token = w.session(m.user);
  const made = await call(w, 'POST', '/api/saved_questions', { token, body: { title: 'Orders by status', connection_id: DEMO_CONNECTION_ID, sql: SQL } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id as string;
  const edited = await call(w, 'PATCH', `/api/saved_questions/${id}`, { token, body: { title: 'Orders by channel', sql: 'SELECT channel, count(*) AS n FROM orders GROUP BY channel' } });
  t.is(edited.status, 200, JSON.stringify(edited.body));
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto(`/saved/${id}`);
  await page.getByText('History (2 versions)').click();
  const versions = page.getByRole('list', { name: 'Versions' }).getByRole('listitem');
  await versions.nth(1).waitFor();
  t.regex((await versions.nth(0).textContent()) ?? '', /^Version 2 \(current\) · .+ · by you · Orders by channel.*GROUP BY channel/);
  t.regex((await versions.nth(1).textContent()) ?? '', /^Version 1 · .+ · by you · Orders by status.*GROUP BY status/);
  await checkAccessibility(t, page, 'a saved question with its history open');
  t.deepEqual(problems, []);
});

/** What the page says of an element's width: its content's, and its own. */
interface Box {
  scrollWidth: number;
  clientWidth: number;
}

test('a 200-character title without spaces wraps inside its card and its heading: the Saved, question and Dashboards pages do not scroll sideways', async (t) => {
  const m = await demoMember(w, 'user');
  const token = w.session(m.user);
  const title = 'Revenue'.repeat(29).slice(0, 200);
  const made = await call(w, 'POST', '/api/saved_questions', { token, body: { title, connection_id: DEMO_CONNECTION_ID, sql: SQL } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const board = await call(w, 'POST', '/api/dashboards', { token, body: { title, tiles: [] } });
  t.is(board.status, 201, JSON.stringify(board.body));
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  /** How far the page, and the widest card or heading, reach past their width (0 when nothing overflows). */
  const overflow = () =>
    page.evaluate(() => {
      // No named functions in here: the compiled suite would wrap them in a helper the page lacks.
      const { document } = globalThis as unknown as { document: { documentElement: Box; querySelectorAll(selector: string): ArrayLike<Box> } };
      const root = document.documentElement;
      return { page: root.scrollWidth - root.clientWidth, boxes: Math.max(0, ...Array.from(document.querySelectorAll('.card, h1')).map((e) => e.scrollWidth - e.clientWidth)) };
    });
  for (const [path, name] of [['/saved', 'Saved questions'], [`/saved/${made.body.id as string}`, title], ['/dashboards', 'Dashboards']] as const) {
    await page.goto(path);
    await page.getByRole('heading', { name, exact: true }).waitFor();
    await page.getByText(title).first().waitFor();
    t.deepEqual(await overflow(), { page: 0, boxes: 0 }, path);
  }
  t.deepEqual(problems, []);
});

test("a chart whose spec asks for a height of millions of pixels is drawn capped on a colleague's page", async (t) => {
  const modeler = await demoMember(w, 'modeler');
  const chart = { mark: 'bar', height: 5_000_000, encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'n', type: 'quantitative', axis: { tickCount: 1_000_000 } } } };
  const made = await call(w, 'POST', '/api/saved_questions', { token: w.session(modeler.user), body: { title: 'Tall chart', connection_id: DEMO_CONNECTION_ID, sql: SQL, chart, visibility: 'organization' } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const analyst = await demoMember(w, 'user');
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, analyst.login);
  await page.goto(`/saved/${made.body.id as string}`);
  const svg = page.getByTestId('chart').locator('svg').first();
  await svg.waitFor();
  const height = await svg.evaluate((e) => e.getBoundingClientRect().height);
  t.true(height > 100 && height < 2200, `drawn ${height} px tall`);
  t.true((await page.getByTestId('chart').locator('svg text').count()) < 500, 'not an axis of a million ticks');
  t.deepEqual(problems, []);
});

test("a question's rows are shown as the chat's table shows them: dates at the query's grain, amounts with separators; the raw value stays in the cell's data", async (t) => {
  const modeler = await demoMember(w, 'modeler');
  const sql = "SELECT date_trunc('month', DATE '2024-03-17') AS month, 1234567.5 AS revenue, 10115 AS customer_id";
  const made = await call(w, 'POST', '/api/saved_questions', { token: w.session(modeler.user), body: { title: 'Formatted', connection_id: DEMO_CONNECTION_ID, sql } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, modeler.login);
  await page.goto(`/saved/${made.body.id as string}`);
  const cells = page.getByRole('region', { name: 'Result: 1 row' }).locator('tbody td');
  await cells.first().waitFor();
  t.deepEqual(await cells.allTextContents(), ['Mar 2024', '1,234,567.50', '10115']);
  t.deepEqual(await cells.evaluateAll((tds) => tds.map((td) => (td as unknown as { dataset: Record<string, string> }).dataset['raw'])), ['2024-03-01 00:00:00', '1234567.5', '10115']);
  t.deepEqual(problems, []);
});

test('the Saved page searches titles and descriptions, in pages of 50', async (t) => {
  const m = await demoMember(w, 'user');
  const token = w.session(m.user);
  const tag = `zebra${Date.now()}`;
  for (let i = 0; i < 51; i++) {
    const body = { title: i === 0 ? `Orders ${tag.toUpperCase()}` : `Paged ${i}`, description: i === 0 ? '' : `One of the ${tag} pages`, connection_id: DEMO_CONNECTION_ID, sql: SQL };
    t.is((await call(w, 'POST', '/api/saved_questions', { token, body })).status, 201);
  }
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/saved');
  const items = page.getByRole('list', { name: 'Saved questions' }).getByRole('listitem');
  await items.first().waitFor();
  await page.getByRole('searchbox', { name: 'Search by title or description' }).fill(tag);
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => (globalThis as unknown as InPage).document.querySelectorAll('[aria-label="Saved questions"] > li').length === n, 50);
  t.is(await items.filter({ hasText: tag }).count(), 50, 'the first page: every one matches, by its title in another case or its description');
  await page.getByRole('button', { name: 'Next page' }).click();
  await page.waitForFunction((n) => (globalThis as unknown as InPage).document.querySelectorAll('[aria-label="Saved questions"] > li').length === n, 1);
  t.is(await page.getByRole('button', { name: 'Next page' }).count(), 0);
  await checkAccessibility(t, page, 'a searched Saved page');
  await page.getByRole('searchbox', { name: 'Search by title or description' }).fill(`${tag}-nothing`);
  await page.keyboard.press('Enter');
  await page.getByText(`No saved question matches “${tag}-nothing”.`).waitFor();
  t.deepEqual(problems, []);
});
