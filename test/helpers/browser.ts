// Browser tests in the ava suite: Debian's Chromium driven by playwright-core against a real gateway.
// One browser per test file, a fresh context (cookies, storage) per test. Without Chromium the tests
// skip with a message, except under CI=true where they must run.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ExecutionContext, TestFn } from 'ava';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { HANG_MS } from './patience.ts';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // The browser's own address-bar popup, a WebUI page that headless Chromium loads in a renderer of its
  // own for every context (chrome://omnibox-popup.top-chrome/): about as much CPU as the page under test.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

/** ava's `test`, or `test.skip` with a message when Chromium is missing (an error under CI=true). */
export function browserTest<T>(test: TestFn<T>): TestFn<T> {
  if (existsSync(CHROMIUM)) return test;
  if (process.env['CI'] === 'true') throw new Error(`${CHROMIUM} is missing: browser tests must run in CI (apt-get install chromium)`);
  console.warn(`Skipping browser tests: ${CHROMIUM} is not installed (apt-get install -y chromium chromium-driver).`);
  return test.skip as unknown as TestFn<T>;
}

/** Starts Chromium (Playwright gives each launch a fresh temporary profile). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: HANG_MS });
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Page errors, failed console errors and CSP violations seen so far. */
  problems: string[];
}

/** A fresh context and page for one test, closed at its end; the test fails on CSP violations or page errors. */
export async function openPage(t: ExecutionContext, browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<TestPage> {
  const context = await browser.newContext({ baseURL, acceptDownloads: true, ...options });
  const page = await context.newPage();
  // Page loads and waits for an element end on the condition; the limit only tells a hang (see patience.ts).
  page.setDefaultTimeout(HANG_MS);
  const problems: string[] = [];
  // What the browser's requests met, told only when the test fails: "Could not reach Sextant" on a
  // phone page in two CI runs of nine said nothing of why (refused, reset, or an answer cut short).
  const traffic: string[] = [];
  page.on('requestfailed', (r) => traffic.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText ?? 'failed'}`));
  page.on('response', (r) => void (r.status() >= 500 && traffic.push(`${r.request().method()} ${r.url()}: ${r.status()}`)));
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text())) problems.push(`CSP: ${msg.text()}`);
  });
  t.teardown(async () => {
    if (!t.passed) await describeFailure(t, page, baseURL, traffic);
    await context.close();
  });
  return { context, page, problems };
}

/**
 * What the gateway behind a base URL can tell about a failed browser test (its recent warnings and
 * runs), registered by the fixture that started it: a hang seen once in CI says what it waited on.
 */
export const gatewayDiagnosis = new Map<string, () => string>();

/** Logs the page's address and text, the requests that failed, and the gateway's side, for a failed test. */
async function describeFailure(t: ExecutionContext, page: Page, baseURL: string, traffic: string[]): Promise<void> {
  try {
    const text = await page.locator('body').innerText({ timeout: 5000 });
    t.log(`page ${page.url()} shows:\n${text.slice(-4000)}`);
  } catch (err) {
    t.log(`page ${page.url()} could not be read: ${String(err)}`);
  }
  if (traffic.length > 0) t.log(`requests that failed:\n${traffic.slice(-20).join('\n')}`);
  const gateway = gatewayDiagnosis.get(baseURL);
  if (gateway) t.log(gateway());
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core on the page as it is now: no violation of impact serious or critical. */
export async function checkAccessibility(t: ExecutionContext, page: Page, where: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(`${axeSource};0`);
  // A string, since this file is compiled without the DOM library.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) })))`)) as AxeViolation[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  t.deepEqual(serious, [], `accessibility violations on ${where}`);
}

/**
 * The page's globals as predicates of `page.waitForFunction` read them: write the predicate as a
 * function, `() => (globalThis as unknown as InPage).document...`, never as a string. Playwright evals
 * a string predicate at every poll, which the gateway's Content-Security-Policy (no 'unsafe-eval')
 * refuses once the first, DevTools-run, poll has failed; a function is evaled once, on that first poll.
 * (The tests compile without the DOM's types, hence this narrow view of it.)
 */
export interface InPage {
  document: {
    querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
    querySelector(selector: string): { value?: string } | null;
    activeElement: { getAttribute(name: string): string | null } | null;
  };
}
