// Every page on a phone, in Chromium at 390x844 against a real gateway with the demo: the page never
// scrolls sideways (wide tables and diffs scroll inside their own box), the sections fold behind a
// button the keyboard opens, and the composer leaves the answer room with its Ask button in view.
// The pages come from web/src/routes.tsx, so a page added there is visited here; a page with a
// parameter needs its sample in `samples` below (the test says which one is missing).
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import type { Page } from 'playwright-core';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { call } from '../helpers/api.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';
import { webRoutePaths } from '../helpers/web-routes.ts';

const test = browserTest(anyTest as TestFn<unknown>);
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

interface InPhone {
  innerWidth: number;
  document: {
    documentElement: { scrollWidth: number };
    body: { textContent: string | null };
    querySelector(s: string): unknown;
    querySelectorAll(s: string): ArrayLike<{ tagName: string; className: string; getBoundingClientRect(): { right: number } }>;
  };
}

/**
 * How far the page reaches, how wide the window is, and the elements past the phone's width. A phone
 * lays out a page wider than itself at that width and zooms out (innerWidth grows with it), hence
 * the phone's own width beside innerWidth.
 */
function overflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number; culprits: string[] }> {
  return page.evaluate((phoneWidth) => {
    const g = globalThis as unknown as InPhone;
    const culprits = Array.from(g.document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > phoneWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    return { scrollWidth: g.document.documentElement.scrollWidth, innerWidth: g.innerWidth, culprits };
  }, PHONE.viewport.width);
}

/** Waits until the page has drawn its content: its reads answered (the network idle), a heading or a form, and no "Loading…" left. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => {
    const d = (globalThis as unknown as InPhone).document;
    return d.querySelector('h1, h2, form, [role="alert"]') !== null && !(d.body.textContent ?? '').includes('Loading…');
  });
}

/** A question asked on the phone, answered with a table: the chat's id. */
async function askOnPhone(page: Page): Promise<string> {
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Your question' });
  await box.fill('Total revenue by country');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await page.waitForURL('**/chat/*');
  await page.getByText(/credits$/).waitFor();
  return decodeURIComponent(page.url().split('/').at(-1)!);
}

/** Values for the pages' parameters: a chat with a table, its share, an item, an environment with a wide diff, a run. */
async function samples(page: Page, token: string): Promise<Record<string, string>> {
  const chatId = await askOnPhone(page);
  const share = (await call(w, 'POST', '/api/share_chat', { token, body: { chat_id: chatId } })).body as { chat_id: string };
  const tables = (await call(w, 'GET', '/api/knowledge/tables', { token })).body as { items: { id: string }[] };
  const env = (await call(w, 'POST', '/api/environments', { token, body: { name: `Phone ${Date.now()}`, color: '#1769aa' } })).body as { id: string };
  const note = await call(w, 'POST', '/api/knowledge/notes?id=phone-wide', { token, env: env.id, body: { title: 'A wide note', body: `One long line: ${'revenue_by_country_and_month '.repeat(12)}` } });
  if (note.status !== 201) throw new Error(JSON.stringify(note.body));
  const evaluationId = ((await call(w, 'GET', '/api/evaluations', { token })).body as { evaluations: { id: string }[] }).evaluations[0]!.id;
  const run = (await call(w, 'POST', `/api/evaluations/${evaluationId}/runs`, { token, body: { target: 'production', trigger: 'manual' } })).body as { id: string };
  const saved = await call(w, 'POST', '/api/saved_questions', { token, body: { title: 'Revenue by country, on a phone', chat_id: chatId } });
  if (saved.status !== 201) throw new Error(JSON.stringify(saved.body));
  const dashboard = await call(w, 'POST', '/api/dashboards', {
    token,
    body: {
      title: 'Revenue on a phone, with a long title that has to wrap somewhere',
      filters: [{ id: 'when', type: 'date_range', field: 'order_date' }, { id: 'where', type: 'values', field: 'country' }],
      tiles: [{ saved_question_id: (saved.body as { id: string }).id, x: 0, y: 0, w: 8, h: 5 }, { text: 'Notes of the week', x: 8, y: 0, w: 4, h: 5 }],
    },
  });
  if (dashboard.status !== 201) throw new Error(JSON.stringify(dashboard.body));
  const dashboardId = (dashboard.body as { id: string }).id;
  const dashboardShare = (await call(w, 'POST', `/api/dashboards/${dashboardId}/shares`, { token })).body as { share_id: string };
  return {
    '/chat/:chatId': `/chat/${chatId}`,
    '/share/:shareId': `/share/${share.chat_id}`,
    '/knowledge/items/:kind': '/knowledge/items/tables',
    '/knowledge/items/:kind/:id': `/knowledge/items/tables/${encodeURIComponent(tables.items[0]!.id)}`,
    '/knowledge/environments/:id': `/knowledge/environments/${env.id}`,
    '/knowledge/evaluations/runs/:id': `/knowledge/evaluations/runs/${run.id}`,
    '/saved/:id': `/saved/${(saved.body as { id: string }).id}`,
    '/dashboards/:id': `/dashboards/${dashboardId}`,
    '/shared-dashboard/:shareId': `/shared-dashboard/${dashboardShare.share_id}`,
    '/*': '/no-such-page',
  };
}

function concrete(t: ExecutionContext, path: string, values: Record<string, string>): string {
  const value = path.includes(':') || path.includes('*') ? values[path] : path;
  if (!value) t.fail(`no sample for ${path}: add one to samples() in test/web/phone.test.ts`);
  return value ?? path;
}

/** How many pages of one visitor are visited at once: each waits for its network to go quiet, mostly idle time. */
const AT_ONCE = 3;

/**
 * Visits every path on a phone in `AT_ONCE` pages of their own (each from `open`, a signed-in or
 * signed-out context) and returns the paths drawn wider than the phone, or not drawn at all.
 */
async function widePages(t: ExecutionContext, paths: string[], values: Record<string, string>, label: string, open: () => Promise<{ page: Page; problems: string[] }>): Promise<{ wide: string[]; problems: string[] }> {
  const wide: string[] = [];
  const problems: string[] = [];
  const queue = [...paths];
  const visitor = async () => {
    const opened = await open();
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const { page } = opened;
      await page.goto(concrete(t, path, values));
      await settled(page).catch(async () => wide.push(`${label}${path}: drew nothing at ${page.url()}: ${(await page.locator('body').textContent())?.slice(0, 300)}`));
      const o = await overflow(page);
      if (o.scrollWidth > o.innerWidth || o.innerWidth > PHONE.viewport.width) wide.push(`${label}${path}: ${o.scrollWidth} px in ${o.innerWidth} (${o.culprits.join(', ')})`);
    }
    problems.push(...opened.problems);
  };
  await Promise.all(Array.from({ length: AT_ONCE }, visitor));
  return { wide: wide.sort(), problems };
}

test('every page fits a 390 px phone signed in as an admin, and the same pages signed out', async (t) => {
  t.timeout(240_000);
  const admin = await passwordUser(w, { orgId: DEMO_ORG_ID, role: 'admin' });
  const { page, context, problems } = await openPage(t, w.browser, w.url, PHONE);
  await signInAs(context, { email: admin.email, password: PASSWORD });
  const values = await samples(page, w.session(admin));
  const paths = webRoutePaths();
  t.true(paths.includes('/admin/members') && paths.includes('/chat/:chatId'), 'the routes are read from web/src/routes.tsx');
  // Each visitor of the admin signs in on its own context (one session each); the guests never do.
  const signedIn = async () => {
    const opened = await openPage(t, w.browser, w.url, PHONE);
    await signInAs(opened.context, { email: admin.email, password: PASSWORD });
    return opened;
  };
  const [asAdmin, signedOut] = await Promise.all([widePages(t, paths, values, '', signedIn), widePages(t, paths, values, 'signed out ', () => openPage(t, w.browser, w.url, PHONE))]);
  t.deepEqual([...asAdmin.wide, ...signedOut.wide], [], 'pages wider than the phone');
  t.deepEqual([...problems, ...asAdmin.problems, ...signedOut.problems], []);
});

test('on a phone the sections fold behind a menu button that the keyboard opens and closes', async (t) => {
  const { page, context, problems } = await openPage(t, w.browser, w.url, PHONE);
  const admin = await passwordUser(w, { orgId: DEMO_ORG_ID, role: 'admin' });
  await signInAs(context, { email: admin.email, password: PASSWORD });
  await page.goto('/admin/members');
  await settled(page);
  const menu = page.getByRole('button', { name: 'Menu' });
  const sections = page.getByRole('navigation', { name: 'Sections' });
  t.is(await menu.getAttribute('aria-expanded'), 'false');
  t.false(await sections.getByRole('link', { name: 'Knowledge' }).isVisible());
  await menu.focus();
  await page.keyboard.press('Enter');
  t.is(await menu.getAttribute('aria-expanded'), 'true');
  await sections.getByRole('link', { name: 'Knowledge' }).waitFor();
  await checkAccessibility(t, page, 'the open menu on a phone');
  // Escape closes it and gives the focus back to the button.
  await page.keyboard.press('Escape');
  t.is(await menu.getAttribute('aria-expanded'), 'false');
  t.true(await menu.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement));
  // Following a link closes the menu on the new page.
  await menu.click();
  await sections.getByRole('link', { name: 'Knowledge' }).click();
  await page.waitForURL('**/knowledge/**');
  t.is(await menu.getAttribute('aria-expanded'), 'false');
  t.deepEqual(problems, []);
});

test('on a phone the composer stays compact with its Ask button in view', async (t) => {
  const { page, context, problems } = await openPage(t, w.browser, w.url, PHONE);
  await signInAs(context);
  await askOnPhone(page);
  const composer = await page.locator('.composer-dock').boundingBox();
  t.truthy(composer);
  t.true(composer!.height <= 844 / 5, `the composer takes ${composer!.height} px of 844`);
  const ask = await page.getByRole('button', { name: 'Ask', exact: true }).boundingBox();
  t.truthy(ask);
  t.true(ask!.x >= 0 && ask!.x + ask!.width <= 390 && ask!.y + ask!.height <= 844, 'the Ask button is inside the window');
  await checkAccessibility(t, page, 'a chat on a phone');
  t.deepEqual(problems, []);
});
