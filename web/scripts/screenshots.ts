// `npm run screenshots`: PNG screenshots of the main pages into docs/, for the README. Runs the
// gateway with the demo (offline model) and Debian's Chromium, as the browser tests do.
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { findUserByEmail } from '../../src/auth/index.ts';
import { dismissChatCompletion, pinChat } from '../../src/chats/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { deps, principalOf, seedChat } from '../../test/helpers/chats.ts';
import { DEMO, signInAs, startWebApp, type WebTestApp } from '../../test/helpers/web-app.ts';

const DOCS = new URL('../../docs/', import.meta.url).pathname;

/** Earlier chats of the analyst, so the history has something to show. */
const EARLIER = [
  'Monthly revenue by category',
  'Top 10 customers by lifetime value',
  'Return rate by sales channel',
  'Orders shipped late last quarter',
  'Average basket size by country',
  'Which products sell together?',
];

async function seedHistory(w: WebTestApp): Promise<void> {
  const analyst = (await findUserByEmail(w.app.services.executor, DEMO.analyst.email))!;
  const p = principalOf(w, analyst, DEMO_ORG_ID);
  // One after another, each awaited: the history's order is the clock's, and an answer is read only once it is there.
  for (const [i, question] of EARLIER.entries()) {
    w.clock.advance(3_600_000);
    await seedChat(w, p, `earlier-${i}`, [{ question, answer: 'See the table.' }]);
  }
  await pinChat(deps(w), p, { chatId: 'earlier-0' });
  // One answer arrived while the analyst was away; the others were read.
  for (const i of EARLIER.keys()) if (i !== 2) await dismissChatCompletion(deps(w), p, { chatId: `earlier-${i}` });
}

/** Asks on the first pass; later passes open the same chat (its recorded answer). */
async function ask(page: Page, question: string, chat: string | undefined): Promise<void> {
  if (chat) await page.goto(chat);
  else {
    await page.goto('/');
    const box = page.getByRole('textbox', { name: 'Your question' });
    await box.fill(question);
    await box.press('Enter');
  }
  await page.getByTestId('chart').locator('svg').first().waitFor({ timeout: 60_000 });
  await page.getByText(/credits$/).waitFor();
}

/** The chat's head with a label, and the history beside it. */
async function chatWithHistory(page: Page, path: string, first: boolean): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.getByRole('heading', { level: 1 }).waitFor();
  const label = page.getByRole('textbox', { name: 'New label' });
  if (first) {
    await label.fill('finance');
    await label.press('Enter');
  }
  await page.getByRole('list', { name: 'Labels' }).waitFor();
  await label.blur();
  await page.getByRole('region', { name: /^Result 1:/ }).waitFor();
  await page.evaluate('window.scrollTo(0, 0); 0');
  await page.screenshot({ path });
}

/** Settings: the tokens page with an API token in its list (made on the first pass). */
async function tokensPage(page: Page, path: string, first: boolean): Promise<void> {
  await page.goto('/settings/tokens');
  const api = page.getByRole('region', { name: 'API tokens' });
  if (first) {
    await api.getByRole('textbox', { name: 'Name' }).fill('nightly report');
    await api.getByRole('textbox', { name: 'Description' }).fill('Revenue mail at 6:00');
    await api.getByRole('button', { name: 'Create API token' }).click();
    await api.getByRole('button', { name: 'Done' }).click();
  }
  await api.getByRole('row').filter({ hasText: 'nightly report' }).waitFor();
  await page.screenshot({ path });
}

/** Knowledge as the demo admin: a note edited in an environment (made on the first pass), then its diff. */
async function knowledgePages(page: Page, suffix: string, first: boolean): Promise<void> {
  if (first) {
    await page.goto('/knowledge/environments');
    await page.getByRole('textbox', { name: 'Name' }).fill('Fiscal year');
    await page.getByRole('button', { name: 'Create environment' }).click();
    await page.getByRole('heading', { name: 'Environment Fiscal year' }).waitFor();
    await page.goto('/knowledge/items/notes/revenue-definition');
    await page.getByRole('textbox', { name: 'body' }).fill(
      'Revenue is the sum of orders.total_amount for orders with status completed or shipped,\ncounted in the fiscal year the order was placed (fiscal years start on 1 April).\nCancelled and returned orders are excluded.\n',
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
  }
  await page.goto('/knowledge/items/notes/revenue-definition');
  await page.getByRole('textbox', { name: 'body' }).waitFor();
  await page.screenshot({ path: join(DOCS, `web-knowledge${suffix}.png`) });
  await page.getByRole('region', { name: 'Active environment' }).getByRole('link', { name: 'Review and merge' }).click();
  await page.getByRole('article', { name: /notes\/revenue-definition.yaml/ }).waitFor();
  await page.getByText('No conflict').waitFor();
  await page.screenshot({ path: join(DOCS, `web-environment-diff${suffix}.png`) });
}

/** Admin: the members of the demo organization, one of them with their attributes open. */
async function adminMembersPage(page: Page, suffix: string): Promise<void> {
  // In production: the environment of the knowledge pages has nothing to do with members.
  await page.evaluate('localStorage.removeItem("sextant.environment"); 0');
  await page.goto('/admin/members');
  const analyst = page.getByRole('listitem', { name: `Member ${DEMO.analyst.email}` });
  await analyst.getByText('Manage', { exact: true }).click();
  await analyst.getByText('Attributes and groups', { exact: true }).click();
  await analyst.getByRole('textbox', { name: 'Attributes' }).waitFor();
  await page.screenshot({ path: join(DOCS, `web-admin${suffix}.png`) });
}

const w = await startWebApp();
const browser = w.browser;
try {
  await seedHistory(w);
  let chat: string | undefined;
  let adminState: Awaited<ReturnType<BrowserContext['storageState']>> | undefined;
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL: w.url, viewport: { width: 1280, height: 860 }, colorScheme, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const suffix = colorScheme === 'dark' ? '-dark' : '';
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.analyst.email);
    await page.screenshot({ path: join(DOCS, `web-sign-in${suffix}.png`) });
    await signInAs(context);
    const first = chat === undefined;
    await ask(page, 'Total revenue by country', chat);
    chat = new URL(page.url()).pathname;
    await page.getByRole('region', { name: /^Result 1:/ }).getByText('SQL', { exact: true }).click();
    // A tall window rather than a full-page capture, which would draw the docked composer mid-page.
    await page.setViewportSize({ width: 1280, height: 1500 });
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight); 0');
    await page.screenshot({ path: join(DOCS, `web-ask${suffix}.png`) });
    await page.goto(chat);
    await chatWithHistory(page, join(DOCS, `web-chats${suffix}.png`), first);
    await tokensPage(page, join(DOCS, `web-settings${suffix}.png`), first);
    await context.close();
    // The admin's pass keeps its storage (the active environment) from the light pass to the dark one.
    const admin = await browser.newContext({ baseURL: w.url, viewport: { width: 1280, height: 860 }, colorScheme, deviceScaleFactor: 1, ...(adminState ? { storageState: adminState } : {}) });
    if (first) await signInAs(admin, DEMO.admin);
    const adminPage = await admin.newPage();
    await knowledgePages(adminPage, suffix, first);
    adminState = await admin.storageState();
    await adminMembersPage(adminPage, suffix);
    await admin.close();
  }
  console.log(`Screenshots written to ${DOCS}`);
} finally {
  await w.stop();
}
