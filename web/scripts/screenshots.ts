// `npm run screenshots`: PNG screenshots of the main pages into docs/, for the README. Runs the
// gateway with the demo (offline model) and Debian's Chromium, as the browser tests do.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DEMO, signInAs, startWebApp } from '../../test/helpers/web-app.ts';

const DOCS = new URL('../../docs/', import.meta.url).pathname;

async function ask(page: Page, question: string): Promise<void> {
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Your question' });
  await box.fill(question);
  await box.press('Enter');
  await page.getByTestId('chart').locator('svg').first().waitFor({ timeout: 60_000 });
  await page.getByText(/credits$/).waitFor();
}

const w = await startWebApp();
const browser = w.browser;
try {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ baseURL: w.url, viewport: { width: 1280, height: 860 }, colorScheme, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const suffix = colorScheme === 'dark' ? '-dark' : '';
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.analyst.email);
    await page.screenshot({ path: join(DOCS, `web-sign-in${suffix}.png`) });
    await signInAs(context);
    await ask(page, 'Total revenue by country');
    await page.getByRole('region', { name: /^Result 1:/ }).getByText('SQL', { exact: true }).click();
    // A tall window rather than a full-page capture, which would draw the docked composer mid-page.
    await page.setViewportSize({ width: 1280, height: 1500 });
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight); 0');
    await page.screenshot({ path: join(DOCS, `web-ask${suffix}.png`) });
    await context.close();
  }
  console.log(`Screenshots written to ${DOCS}`);
} finally {
  await w.stop();
}
