// The knowledge lists in Chromium against a real gateway, with an organization that documents 3,000
// tables: the tables page and the row security page each load one page (never the whole list),
// search on the server and page through the results with counts.
import anyTest, { type TestFn } from 'ava';
import type { Page } from 'playwright-core';
import { writeSyncedTables } from '../../src/knowledge/index.ts';
import { call } from '../helpers/api.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { principalOf } from '../helpers/chats.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const TABLES = 3_000;
const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
let orgId: string;
let token: string;

test.before(async () => {
  w = await startWebApp();
  orgId = w.org();
  const admin = await passwordUser(w, { orgId, role: 'admin' });
  token = w.session(admin);
  const tables = Array.from({ length: TABLES }, (_, i) => ({ connection: 'wh', schema: 'main', name: `model_${String(i).padStart(5, '0')}`, description: `Model ${i}`, columns: [{ name: 'id', type: 'BIGINT' }] }));
  await writeSyncedTables(w.app.services.knowledge, principalOf(w, admin, orgId), undefined, tables);
});
test.after.always(() => w?.stop());

async function signedIn(t: Parameters<typeof openPage>[0]) {
  const user = await passwordUser(w, { orgId, role: 'admin' });
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, { email: user.email, password: PASSWORD });
  return opened;
}

/** The query of every request the page makes for the tables list. */
function listRequests(page: Page): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname === '/api/knowledge/tables') seen.push(url.searchParams);
  });
  return seen;
}

test.serial('the tables page loads one page of 3,000 tables, pages forward and back, and searches on the server', async (t) => {
  const { page, problems } = await signedIn(t);
  const requests = listRequests(page);
  await page.goto('/knowledge/items/tables');
  await page.getByText('Showing 1 to 50 of 3,000').waitFor();
  const list = page.getByRole('list', { name: 'Tables' });
  t.is(await list.getByRole('listitem').count(), 50);
  await list.getByRole('link', { name: 'model_00000', exact: true }).waitFor();

  const pages = page.getByRole('navigation', { name: 'Tables pages' });
  await pages.getByRole('button', { name: 'Next page' }).click();
  await page.getByText('Showing 51 to 100 of 3,000').waitFor();
  await list.getByRole('link', { name: 'model_00050', exact: true }).waitFor();
  t.is(await list.getByRole('listitem').count(), 50);
  await pages.getByRole('button', { name: 'Previous page' }).click();
  await page.getByText('Showing 1 to 50 of 3,000').waitFor();
  await list.getByRole('link', { name: 'model_00000', exact: true }).waitFor();

  const search = page.getByRole('search', { name: 'Tables' });
  await search.getByRole('searchbox', { name: 'Search by name or path' }).fill('MODEL_0123');
  await search.getByRole('button', { name: 'Search' }).click();
  await page.getByText('Showing 1 to 10 of 10 matching “MODEL_0123”').waitFor();
  t.deepEqual(await list.getByRole('link').allInnerTexts(), Array.from({ length: 10 }, (_, i) => `model_0123${i}`));
  t.is(await pages.getByRole('button').count(), 0);
  await checkAccessibility(t, page, 'a searched list of tables');

  await search.getByRole('searchbox', { name: 'Search by name or path' }).fill('no such table');
  await search.getByRole('button', { name: 'Search' }).click();
  await page.getByText('No table matches “no such table”.').waitFor();

  // Every read asked the server for one page; the search went to the server, not through the pages.
  t.true(requests.length >= 5);
  t.true(requests.every((q) => q.get('limit') === '50'), requests.map(String).join('\n'));
  t.deepEqual(requests.map((q) => q.get('q')).filter(Boolean), ['MODEL_0123', 'no such table']);
  t.deepEqual(problems, []);
});

test.serial('the row security page lists only the tables with row filters and finds a table among 3,000 by a search', async (t) => {
  for (const name of ['guarded_a', 'guarded_b']) {
    const body = { connection: 'wh', schema: 'main', name, columns: [{ name: 'country', type: 'VARCHAR' }], row_filters: [{ filter: 'country = {{user.country}}' }] };
    t.is((await call(w, 'POST', '/api/knowledge/tables', { token, body })).status, 201);
  }
  const { page, problems } = await signedIn(t);
  const requests = listRequests(page);
  await page.goto('/admin/row-security');
  await page.getByText('2 tables have row filters.').waitFor();
  const withFilters = page.getByRole('list', { name: 'Tables with row filters' });
  t.deepEqual(await withFilters.getByRole('heading').allInnerTexts(), ['wh/main.guarded_a', 'wh/main.guarded_b']);

  await page.getByText('The first 20 of 3,002 tables: narrow the search to find others.').waitFor();
  const found = page.getByRole('list', { name: 'Tables found' });
  t.is(await found.getByRole('button').count(), 20);
  const finder = page.getByRole('search', { name: 'Tables' });
  await finder.getByRole('searchbox', { name: 'Find a table by name or path' }).fill('model_02999');
  await finder.getByRole('button', { name: 'Find' }).click();
  await page.getByText('1 table matching “model_02999”.').waitFor();
  await found.getByRole('button', { name: 'wh/main.model_02999' }).click();
  const editor = page.getByRole('form', { name: 'Row filters of wh/main.model_02999' });
  await editor.getByText('No filter: every member sees every row of this table.').waitFor();
  await checkAccessibility(t, page, 'the row security page at 3,000 tables');

  t.true(requests.every((q) => q.get('limit') !== null), requests.map(String).join('\n'));
  t.true(requests.some((q) => q.get('row_filters') === 'true'));
  t.true(requests.some((q) => q.get('q') === 'model_02999'));
  t.deepEqual(problems, []);
});
