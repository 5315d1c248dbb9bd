// Dashboards in Chromium against a real gateway and the demo warehouse: build one from saved
// questions (question and text tiles, a date filter) in edit mode, see every tile with the time its
// data was read, narrow the date range and see the tile with the field update while the other keeps
// its rows, resize a tile by its corner and drag another by its handle in edit mode, save, reload and
// see the layout kept, then share it and open the link signed out; auto-refresh on the page's fake clock;
// a tile's chart fitted to the tile; tiles stacked on a phone.
import anyTest, { type TestFn } from 'ava';
import type { Page } from 'playwright-core';
import { DEMO_CONNECTION_ID } from '../../src/data/index.ts';
import { call } from '../helpers/api.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;

interface TilesInPage {
  document: { querySelectorAll(selector: string): ArrayLike<{ getAnimations(): unknown[]; getBoundingClientRect(): { left: number; top: number; width: number; height: number } }> };
  tilesSeen?: string;
}

/**
 * Waits until the tiles rest: none moving and the same boxes in two frames running. The grid lays the
 * tiles out again a frame after its width changes (a scrollbar coming as the tiles fill) and moves them
 * there with a transition; a box read meanwhile is between two layouts (seen in CI).
 */
async function tilesAtRest(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const g = globalThis as unknown as TilesInPage;
    const tiles = Array.from(g.document.querySelectorAll('.grid-tile'));
    const boxes = JSON.stringify(tiles.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.top, r.width, r.height]));
    const resting = tiles.every((e) => e.getAnimations().length === 0) && g.tilesSeen === boxes;
    g.tilesSeen = boxes;
    return resting;
  });
}

test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

const BY_DAY = "SELECT order_date, count(*) AS orders FROM orders WHERE order_date >= DATE '2026-09-01' GROUP BY order_date ORDER BY order_date";
const BY_CHANNEL = 'SELECT channel, count(*) AS n FROM orders GROUP BY channel ORDER BY channel';

/** The row count a tile's table shows. */
const rowsShown = (page: Page, title: string) => page.getByRole('article', { name: title }).getByRole('region', { name: /^Result: / });

test('a dashboard is built from saved questions with a date filter, and its tiles update when the range changes; tiles resized and dragged in edit mode keep their layout after a save and a reload', async (t) => {
  t.timeout(180_000);
  const m = await demoMember(w, 'modeler');
  const token = w.session(m.user);
  for (const [title, sql] of [['Orders by day', BY_DAY], ['Orders by channel', BY_CHANNEL]]) {
    const res = await call(w, 'POST', '/api/saved_questions', { token, body: { title, connection_id: DEMO_CONNECTION_ID, sql } });
    t.is(res.status, 201, JSON.stringify(res.body));
  }
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/');
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboards' }).click();
  // The demo's dashboard is listed with what it shows.
  await page.getByRole('list', { name: 'Dashboards' }).getByRole('listitem').filter({ hasText: 'Sales overview' }).getByText('Revenue over time, by channel and by country').waitFor();
  await page.getByRole('textbox', { name: 'New dashboard' }).fill('Autumn sales');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL('**/dashboards/db_*');
  await page.getByText('No tiles yet').waitFor();

  await page.getByRole('button', { name: 'Edit' }).click();
  for (const title of ['Orders by day', 'Orders by channel']) {
    await page.getByRole('combobox', { name: 'Saved question' }).selectOption({ label: title });
    await page.getByRole('button', { name: 'Add question tile' }).click();
  }
  await page.getByRole('textbox', { name: 'Text' }).fill('Orders since September');
  await page.getByRole('button', { name: 'Add text tile' }).click();
  await page.getByRole('combobox', { name: 'Filter type' }).selectOption('date_range');
  await page.getByRole('textbox', { name: 'Field' }).fill('order_date');
  await page.getByRole('textbox', { name: 'Label' }).fill('Order date');
  await page.getByRole('button', { name: 'Add filter' }).click();
  // The page runs the tiles it starts together as one streamed whole-dashboard request, not one per tile.
  const requests = { whole: 0, tile: 0 };
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (/^\/api\/dashboards\/[^/]+\/run$/.test(path)) requests.whole++;
    if (/\/tiles\/[^/]+\/run$/.test(path)) requests.tile++;
  });
  await page.getByRole('button', { name: 'Save' }).click();

  const id = decodeURIComponent(page.url().split('/').at(-1)!);
  await page.getByRole('button', { name: 'Edit' }).waitFor();
  const stored = (await call(w, 'GET', `/api/dashboards/${id}`, { token })).body as { tiles: { id: string; question: { title: string } | null; text: string | null }[]; filters: unknown[] };
  t.deepEqual(stored.tiles.map((x) => x.question?.title ?? x.text), ['Orders by day', 'Orders by channel', 'Orders since September']);
  t.like(stored.filters[0], { type: 'date_range', field: 'order_date', label: 'Order date' });
  const [dayTile, channelTile] = stored.tiles;

  // Every tile ran, as the viewer, and says when its data was read.
  const run = async (tile: string, filters: unknown[] = []) => ((await call(w, 'POST', `/api/dashboards/${id}/tiles/${tile}/run`, { token, body: { filters } })).body as { rows: unknown[][] }).rows.length;
  const allDays = await run(dayTile!.id);
  const channels = await run(channelTile!.id);
  await rowsShown(page, 'Orders by day').getByText(`Result: ${allDays} rows`).waitFor();
  await rowsShown(page, 'Orders by channel').getByText(`Result: ${channels} rows`).waitFor();
  t.is(await page.getByRole('article', { name: 'Orders by day' }).getByText(/^Data read at /).count(), 1);
  await page.getByText('Orders since September').waitFor();

  // A date range: the tile with order_date narrows, the other keeps its rows.
  const range = { id: (stored.filters[0] as { id: string }).id, from: '2026-10-01', to: '2026-10-07' };
  const weekDays = await run(dayTile!.id, [range]);
  t.true(weekDays > 0 && weekDays < allDays);
  const bar = page.getByRole('form', { name: 'Filters' });
  await bar.getByLabel('From').fill(range.from);
  await bar.getByLabel('To').fill(range.to);
  await bar.getByRole('button', { name: 'Apply filters' }).click();
  await rowsShown(page, 'Orders by day').getByText(`Result: ${weekDays} rows`).waitFor();
  t.is(await rowsShown(page, 'Orders by channel').getByText(`Result: ${channels} rows`).count(), 1);
  t.true(requests.whole >= 2, JSON.stringify(requests));
  t.is(requests.tile, 0, 'no request per tile');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await rowsShown(page, 'Orders by day').getByText(`Result: ${weekDays} rows`).waitFor();
  await checkAccessibility(t, page, 'a dashboard with a filter applied');

  // Edit mode: a tile grows by its corner handle, and the new width is what Save writes.
  await page.getByRole('button', { name: 'Edit' }).click();
  const handle = page.locator(`[data-tile-id="${channelTile!.id}"] .react-resizable-handle`);
  await handle.scrollIntoViewIfNeeded();
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 200, box.y + 80, { steps: 8 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Edit' }).waitFor();
  const resized = ((await call(w, 'GET', `/api/dashboards/${id}`, { token })).body as { tiles: { id: string; w: number; h: number }[] }).tiles.find((x) => x.id === channelTile!.id)!;
  t.true(resized.w < 6 && resized.h > 5, JSON.stringify(resized));

  // A tile dragged by its handle to the right half keeps its place, and every tile its size, across a
  // save and a reload: what the grid draws after the reload is what was saved.
  await page.getByRole('button', { name: 'Edit' }).click();
  const grid = (await page.locator('.dashboard-grid').boundingBox())!;
  const move = page.locator(`[data-tile-id="${dayTile!.id}"] .tile-drag`);
  await move.scrollIntoViewIfNeeded();
  const from = (await move.boundingBox())!;
  await page.mouse.move(from.x + 10, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(grid.x + grid.width * 0.75, from.y + from.height / 2, { steps: 10 });
  await page.mouse.up();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Edit' }).waitFor();
  const layoutOf = async () => ((await call(w, 'GET', `/api/dashboards/${id}`, { token })).body as { tiles: { id: string; x: number; y: number; w: number; h: number }[] }).tiles.map(({ id: tile, x, y, w: width, h }) => ({ tile, x, y, w: width, h }));
  const saved = await layoutOf();
  t.like(saved.find((x) => x.tile === dayTile!.id), { x: 6, w: 6, h: 5 }, JSON.stringify(saved));
  t.like(saved.find((x) => x.tile === channelTile!.id), { w: resized.w, h: resized.h });
  const drawn = () =>
    page.locator('.grid-tile').evaluateAll((els) =>
      els.map((e) => {
        const [box, at] = [e.getBoundingClientRect(), e.closest('.dashboard-grid')!.getBoundingClientRect()];
        // Across: shares of the grid's width, which a scrollbar coming or going between loads changes.
        return { tile: e.getAttribute('data-tile-id'), left: (box.left - at.left) / at.width, top: Math.round(box.top - at.top), width: box.width / at.width, height: Math.round(box.height) };
      }),
    );
  await rowsShown(page, 'Orders by channel').getByText(`Result: ${channels} rows`).waitFor();
  await tilesAtRest(page);
  const before = await drawn();
  await page.reload();
  await rowsShown(page, 'Orders by channel').getByText(`Result: ${channels} rows`).waitFor();
  await rowsShown(page, 'Orders by day').getByText(/^Result: \d+ rows$/).waitFor();
  await tilesAtRest(page);
  // The grid's width may differ between two loads (a scrollbar comes or goes: 1228 vs 1242 px seen in CI),
  // so across the boxes are compared as shares of it (to 1 %), down to 2 px; the saved grid units exactly below.
  const after = await drawn();
  t.deepEqual(after.map((b) => b.tile), before.map((b) => b.tile));
  const close = (k: 'left' | 'top' | 'width' | 'height', a: number, b: number) => Math.abs(a - b) <= (k === 'left' || k === 'width' ? 0.01 : 2);
  const near = after.every((b, i) => (['left', 'top', 'width', 'height'] as const).every((k) => close(k, b[k], before[i]![k])));
  t.true(near, `the grid draws the saved layout after a reload: ${JSON.stringify(after)} vs ${JSON.stringify(before)}`);
  t.deepEqual(await layoutOf(), saved);

  // Shared: the link opens signed out, read-only, and says whose permissions its data is read with.
  await page.getByRole('button', { name: 'Share' }).click();
  await page.getByRole('button', { name: 'Create a link' }).click();
  const link = await page.getByRole('list', { name: 'Links' }).getByRole('link').getAttribute('href');
  const guest = await openPage(t, w.browser, w.url);
  await guest.page.goto(new URL(link!).pathname);
  await guest.page.getByText('with the permissions of the person who shared it').waitFor();
  await rowsShown(guest.page, 'Orders by channel').getByText(`Result: ${channels} rows`).waitFor();
  t.is(await guest.page.getByRole('button', { name: 'Edit' }).count(), 0);
  t.deepEqual([...problems, ...guest.problems], []);
});

test('auto-refresh runs every tile again on its interval, and stops when turned off', async (t) => {
  t.timeout(180_000);
  const m = await demoMember(w, 'modeler');
  const token = w.session(m.user);
  const q = await call(w, 'POST', '/api/saved_questions', { token, body: { title: 'Orders by channel', connection_id: DEMO_CONNECTION_ID, sql: BY_CHANNEL } });
  const made = await call(w, 'POST', '/api/dashboards', { token, body: { title: 'Live orders', tiles: [{ saved_question_id: q.body.id, x: 0, y: 0, w: 6, h: 4 }] } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  // The page's timers run on a clock the test moves: no waiting for a minute to pass.
  await page.clock.install();
  const runs: string[] = [];
  page.on('request', (r) => void (/\/api\/dashboards\/[^/]+\/tiles\/[^/]+\/run$/.test(new URL(r.url()).pathname) && runs.push(r.url())));
  await page.goto(`/dashboards/${encodeURIComponent(made.body.id as string)}`);
  await rowsShown(page, 'Orders by channel').getByText(/^Result: \d+ rows$/).waitFor();
  t.is(runs.length, 1);
  await page.getByLabel('Auto-refresh').selectOption({ label: 'Every minute' });
  await page.clock.runFor(59_000);
  t.is(runs.length, 1, 'not before the minute');
  const again = page.waitForRequest((r) => /\/tiles\/[^/]+\/run$/.test(r.url()));
  await page.clock.runFor(1_000);
  await again;
  const next = page.waitForRequest((r) => /\/tiles\/[^/]+\/run$/.test(r.url()));
  await page.clock.runFor(60_000);
  await next;
  t.is(runs.length, 3);
  await rowsShown(page, 'Orders by channel').getByText(/^Result: \d+ rows$/).waitFor();
  await page.getByLabel('Auto-refresh').selectOption({ label: 'Off' });
  await page.clock.runFor(5 * 60_000);
  t.is(runs.length, 3, 'off: no more runs');
  t.deepEqual(problems, []);
});

test("a tile's chart fits the tile: its axes are drawn inside it, with nothing to scroll to", async (t) => {
  const m = await demoMember(w, 'modeler');
  const token = w.session(m.user);
  const chart = { mark: 'bar', encoding: { x: { field: 'channel', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } } };
  const q = await call(w, 'POST', '/api/saved_questions', { token, body: { title: 'Orders by channel', connection_id: DEMO_CONNECTION_ID, sql: 'SELECT channel, count(*) AS n FROM orders GROUP BY channel ORDER BY channel', chart } });
  const made = await call(w, 'POST', '/api/dashboards', { token, body: { title: 'Charted', tiles: [{ saved_question_id: q.body.id, x: 0, y: 0, w: 6, h: 3 }] } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto(`/dashboards/${encodeURIComponent(made.body.id as string)}`);
  const tile = page.getByRole('article', { name: 'Orders by channel' });
  await tile.getByTestId('chart').locator('svg').first().waitFor();
  await tilesAtRest(page);
  const box = (await tile.boundingBox())!;
  const svg = (await tile.getByTestId('chart').locator('svg').first().boundingBox())!;
  t.true(svg.y + svg.height <= box.y + box.height + 1, `the chart ends at ${svg.y + svg.height}, the tile at ${box.y + box.height}`);
  t.true(svg.height >= box.height / 2, `the chart takes the tile's height (${svg.height} of ${box.height} px)`);
  t.true(await tile.evaluate((e: { scrollHeight: number; clientHeight: number }) => e.scrollHeight <= e.clientHeight + 1), 'nothing to scroll to');
  t.deepEqual(problems, []);
});

test("in edit mode each tile's Remove button shows inside the tile, however long its text", async (t) => {
  const m = await demoMember(w, 'modeler');
  const token = w.session(m.user);
  const long = Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of a note longer than its tile.`).join('\n');
  const made = await call(w, 'POST', '/api/dashboards', { token, body: { title: 'Long note', tiles: [{ text: long, x: 0, y: 0, w: 6, h: 2 }] } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto(`/dashboards/${encodeURIComponent(made.body.id as string)}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  const remove = page.getByRole('button', { name: 'Remove tile' });
  await remove.waitFor();
  await tilesAtRest(page);
  const tile = (await page.locator('.grid-tile').boundingBox())!;
  const button = (await remove.boundingBox())!;
  t.true(button.y >= tile.y && button.y + button.height <= tile.y + tile.height, `the button at ${button.y}..${button.y + button.height}, the tile at ${tile.y}..${tile.y + tile.height}`);
  t.deepEqual(problems, []);
});

test('on a phone the tiles stack in reading order, each the whole width; the saved layout is left as it is', async (t) => {
  const m = await demoMember(w, 'modeler');
  const token = w.session(m.user);
  const q = await call(w, 'POST', '/api/saved_questions', { token, body: { title: 'Orders by channel', connection_id: DEMO_CONNECTION_ID, sql: BY_CHANNEL } });
  const tiles = [
    { text: 'Second, on the right', x: 6, y: 0, w: 6, h: 2 },
    { saved_question_id: q.body.id, x: 0, y: 0, w: 6, h: 3 },
    { text: 'Third, below', x: 0, y: 3, w: 4, h: 2 },
  ];
  const made = await call(w, 'POST', '/api/dashboards', { token, body: { title: 'On a phone', tiles } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const { page, context, problems } = await openPage(t, w.browser, w.url, { viewport: { width: 390, height: 844 } });
  await signInAs(context, m.login);
  await page.goto(`/dashboards/${encodeURIComponent(made.body.id as string)}`);
  await page.getByRole('article', { name: 'Orders by channel' }).getByText(/^Data read at/).waitFor();
  await tilesAtRest(page);
  const grid = (await page.locator('.dashboard-grid').boundingBox())!;
  const boxes = await Promise.all(['Orders by channel', 'Second, on the right', 'Third, below'].map(async (text) => (await page.locator('.grid-tile').filter({ hasText: text }).boundingBox())!));
  for (const b of boxes) t.true(b.width >= grid.width * 0.9, `a tile ${b.width} px wide in a grid of ${grid.width} px`);
  t.true(boxes[0]!.y < boxes[1]!.y && boxes[1]!.y < boxes[2]!.y, 'one under another, by row and then column');
  const saved = await call(w, 'GET', `/api/dashboards/${made.body.id as string}`, { token });
  t.deepEqual(saved.body.tiles.map((x: { x: number; w: number }) => [x.x, x.w]), [[6, 6], [0, 6], [0, 4]]);
  t.deepEqual(problems, []);
});

test("Edit and Share show only to whom the server lets use them; a Save over someone else's newer edit says so and undoes nothing", async (t) => {
  t.timeout(180_000);
  const m = await demoMember(w, 'modeler');
  const token = w.session(m.user);
  const made = await call(w, 'POST', '/api/dashboards', { token, body: { title: 'Team board', visibility: 'organization', tiles: [{ id: 'note', text: 'Hello', x: 0, y: 0, w: 6, h: 2 }] } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const path = `/dashboards/${encodeURIComponent(made.body.id as string)}`;
  const buttonsFor = async (login: { email: string; password: string }) => {
    const { page, context, problems } = await openPage(t, w.browser, w.url);
    await signInAs(context, login);
    await page.goto(path);
    await page.getByRole('heading', { name: 'Team board' }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).waitFor();
    const shown = [await page.getByRole('button', { name: 'Edit' }).count(), await page.getByRole('button', { name: 'Share' }).count()];
    return { page, problems, shown };
  };
  // An analyst reads the modeler's organization dashboard but may neither edit nor share it; an admin may both.
  t.deepEqual((await buttonsFor((await demoMember(w, 'user')).login)).shown, [0, 0], 'analyst');
  const admin = await demoMember(w, 'admin');
  t.deepEqual((await buttonsFor(admin.login)).shown, [1, 1], 'admin');
  // A modeler may not change an admin's organization dashboard either.
  const adminsBoard = await call(w, 'POST', '/api/dashboards', { token: w.session(admin.user), body: { title: 'Admin board', visibility: 'organization', tiles: [] } });
  const other = await openPage(t, w.browser, w.url);
  await signInAs(other.context, m.login);
  await other.page.goto(`/dashboards/${encodeURIComponent(adminsBoard.body.id as string)}`);
  await other.page.getByRole('heading', { name: 'Admin board' }).waitFor();
  await other.page.getByRole('button', { name: 'Refresh' }).waitFor();
  t.is(await other.page.getByRole('button', { name: 'Edit' }).count(), 0, "modeler on an admin's dashboard");

  // The owner starts an edit; meanwhile the admin renames the dashboard; the owner's Save is refused, not applied over it.
  const owner = await buttonsFor(m.login);
  t.deepEqual(owner.shown, [1, 1], 'owner');
  await owner.page.getByRole('button', { name: 'Edit' }).click();
  await owner.page.getByRole('button', { name: 'Remove tile' }).click();
  t.is((await call(w, 'PATCH', `/api/dashboards/${made.body.id}`, { token: w.session(admin.user), body: { title: 'Renamed by the admin', version: 1 } })).status, 200);
  await owner.page.getByRole('button', { name: 'Save' }).click();
  await owner.page.getByRole('alert').getByText(/edited meanwhile/i).waitFor();
  const now = await call(w, 'GET', `/api/dashboards/${made.body.id}`, { token });
  t.like(now.body, { title: 'Renamed by the admin', version: 2 });
  t.is(now.body.tiles.length, 1, "the admin's version stands, the tile not removed over it");
  // Loaded again, the owner saves from the new version, and again from the one saved.
  await owner.page.reload();
  await owner.page.getByRole('button', { name: 'Edit' }).click();
  await owner.page.getByRole('button', { name: 'Remove tile' }).click();
  await owner.page.getByRole('button', { name: 'Save' }).click();
  await owner.page.getByText('No tiles yet').waitFor();
  await owner.page.getByRole('button', { name: 'Edit' }).click();
  await owner.page.getByRole('textbox', { name: 'Text' }).fill('Back');
  await owner.page.getByRole('button', { name: 'Add text tile' }).click();
  await owner.page.getByRole('button', { name: 'Save' }).click();
  await owner.page.getByRole('button', { name: 'Edit' }).waitFor();
  t.like((await call(w, 'GET', `/api/dashboards/${made.body.id}`, { token })).body, { version: 4 });
  t.deepEqual(owner.problems, []);
});

test('the Dashboards page searches titles and descriptions', async (t) => {
  const m = await demoMember(w, 'user');
  const token = w.session(m.user);
  const tag = `okapi${Date.now()}`;
  for (const body of [{ title: `Board ${tag.toUpperCase()}` }, { title: 'Another board', description: `About the ${tag}` }, { title: 'Unrelated board' }])
    t.is((await call(w, 'POST', '/api/dashboards', { token, body: { ...body, tiles: [] } })).status, 201);
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/dashboards');
  const items = page.getByRole('list', { name: 'Dashboards' }).getByRole('listitem');
  await items.filter({ hasText: 'Unrelated board' }).waitFor();
  await page.getByRole('searchbox', { name: 'Search by title or description' }).fill(tag);
  await page.keyboard.press('Enter');
  await items.filter({ hasText: 'Unrelated board' }).waitFor({ state: 'detached' });
  t.deepEqual((await items.getByRole('link').allTextContents()).sort(), ['Another board', `Board ${tag.toUpperCase()}`]);
  await checkAccessibility(t, page, 'a searched Dashboards page');
  await page.getByRole('searchbox', { name: 'Search by title or description' }).fill(`${tag}-nothing`);
  await page.keyboard.press('Enter');
  await page.getByText(`No dashboard matches “${tag}-nothing”.`).waitFor();
  t.deepEqual(problems, []);
});
