// The web client's figures (issue 24): the gzip size of the JavaScript the first page loads (goal
// <= 200 KB; chart code only once a chart appears), and, in Chromium on the demo, the time from
// sending a question to the first answer text on screen beside the same time for a bare SSE client
// in the same run (issue 24's goal: the page adds < 50 ms; issue 38's: at most 1.3x the bare client).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.ts';
import { buildGateway, freePort, startGateway, treeCpuMsOf } from './gateway-process.ts';
import { startWireTap, type WireTap } from './wire-tap.ts';

const QUESTIONS = ['How many orders are there?', 'Total revenue by channel', 'Number of customers per country', 'What is the average order value?', 'How many orders by status?', 'Top 3 customers by revenue'];
const ROUNDS = 3;
const ANALYST = { email: 'analyst@demo.sextant.local', password: 'demo-analyst-password' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Gzip size of every script the page loads while `action` runs (by URL, each counted once). */
async function scriptsLoaded(page: Page, action: () => Promise<void>): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const pending: Promise<void>[] = [];
  const onResponse = (res: import('playwright-core').Response) => {
    if (res.request().resourceType() !== 'script') return;
    pending.push(res.body().then((b) => void sizes.set(new URL(res.url()).pathname, gzipSync(b, { level: 9 }).length)));
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  page.off('response', onResponse);
  return sizes;
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** Milliseconds from Enter in the composer to the first answer text in the page. */
async function pageFirstText(page: Page, question: string): Promise<number> {
  await page.goto('/');
  const box = page.getByRole('textbox', { name: 'Your question' });
  await box.fill(question);
  // The page's own start-up requests (session, suggestions) are done before the clock starts.
  await page.waitForLoadState('networkidle');
  await page.evaluate(`window.__firstText = new Promise((resolve) => {
    let start = 0;
    document.querySelector('textarea').addEventListener('keydown', (e) => { if (e.key === 'Enter') start = performance.now(); }, { capture: true });
    const seen = () => { const md = document.querySelector('.answer .markdown'); if (start && md && md.textContent.trim()) { observer.disconnect(); resolve(performance.now() - start); } };
    const observer = new MutationObserver(seen);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  }); 0`);
  if (TIMELINE) await page.evaluate(PROBE);
  const cpu = cpuFrom('page');
  await box.press('Enter');
  const ms = (await page.evaluate('window.__firstText')) as number;
  await page.getByText(/credits$/).waitFor({ timeout: 60_000 });
  cpu();
  if (TIMELINE) timelines.push((await page.evaluate(RESOURCES)) as [string, number][]);
  wire('page');
  // The page's work after the answer (the chart drawn, the history read again) ends here, so that it
  // does not run into the bare client's question that follows.
  await page.goto('about:blank');
  return ms;
}

/**
 * BENCH_WEB_TIMELINE=1: where the page's time goes. Timestamps (ms after Enter) of every request the
 * page sends, the stream's response head, each chunk of the stream with the events it carries, and
 * the first text on screen; printed as medians per mark after the run.
 */
const TIMELINE = process.env['BENCH_WEB_TIMELINE'] === '1';
const timelines: [string, number][][] = [];
const PROBE = `(() => {
  const marks = (window.__marks = []);
  let start = 0;
  const mark = (name) => start && marks.push([name, performance.now() - start]);
  document.querySelector('textarea').addEventListener('keydown', (e) => { if (e.key === 'Enter') window.__enterAt = start = performance.now(); }, { capture: true });
  window.__firstText.then(() => mark('text on screen'));
  const fetch0 = window.__fetch0 ??= window.fetch;
  window.fetch = async (input, init) => {
    const path = String(input instanceof Request ? input.url : input).replace(location.origin, '').split('?')[0];
    mark('request ' + path);
    const res = await fetch0(input, init);
    mark('head ' + path);
    if (!path.startsWith('/api/agentic/stream')) return res;
    const decoder = new TextDecoder();
    const probe = new TransformStream({ transform(chunk, c) { const events = [...decoder.decode(chunk, { stream: true }).matchAll(/event: (\\w+)/g)].map((m) => m[1]); mark('chunk ' + events.join(',')); c.enqueue(chunk); } });
    return new Response(res.body.pipeThrough(probe), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
})(); 0`;

/** The probe's marks with every request the page sent after Enter (resource timing: sent, head, end). */
const RESOURCES = `(() => {
  const start = window.__enterAt;
  const rel = (t) => t - start;
  const marks = [...window.__marks];
  for (const r of performance.getEntriesByType('resource')) {
    if (r.startTime < start) continue;
    const path = new URL(r.name).pathname;
    marks.push(['sent ' + path, rel(r.startTime)], ['head ' + path + ' (timing)', rel(r.responseStart)], ['end ' + path, rel(r.responseEnd)]);
  }
  return marks;
})()`;

const cpuRuns: { side: 'page' | 'bare'; gateway: number; rest: number }[] = [];

let gatewayPid = 0;

/**
 * With BENCH_WEB_TIMELINE=1, the CPU (ms, ticks of 10 ms) that the gateway's tree and the rest
 * (Chromium, this process) spend from now to the call of the function returned: from Enter (or the
 * bare client's request) to the answer's end.
 */
function cpuFrom(side: 'page' | 'bare'): () => void {
  if (!TIMELINE) return () => {};
  const [all0, gw0] = [treeCpuMsOf(process.pid), treeCpuMsOf(gatewayPid)];
  return () => {
    const [all1, gw1] = [treeCpuMsOf(process.pid), treeCpuMsOf(gatewayPid)];
    cpuRuns.push({ side, gateway: gw1 - gw0, rest: all1 - all0 - (gw1 - gw0) });
  };
}

/** Medians of each mark over the runs that had it, in order of time. */
function printTimelines(): void {
  const byName = new Map<string, number[]>();
  for (const marks of timelines) {
    const seen = new Map<string, number>();
    for (const [name, at] of marks) {
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      const key = n === 1 ? name : `${name} #${n}`;
      byName.set(key, [...(byName.get(key) ?? []), at]);
    }
  }
  const rows = [...byName].map(([name, ats]) => ({ mark: name, median_ms: Number(median(ats).toFixed(1)), runs: ats.length }));
  console.table(rows.sort((a, b) => a.median_ms - b.median_ms));
}

/** The same with a bare client: POST the question, parse SSE, stop at the first text. */
async function bareFirstText(url: string, token: string, question: string): Promise<number> {
  const cpu = cpuFrom('bare');
  const start = performance.now();
  const res = await fetch(`${url}/api/agentic/stream`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ chat_id: `bench-${Math.random().toString(36).slice(2)}`, message: question }),
  });
  let first = NaN;
  const reader = res.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (Number.isNaN(first) && value.event === 'text_delta') first = performance.now() - start;
    if (value.event === 'completed') break;
  }
  await reader.cancel();
  cpu();
  wire('bare');
  return first;
}

/** With BENCH_WEB_TIMELINE=1 both clients reach the gateway through a relay that times the first text on the wire. */
let tap: WireTap | undefined;
const onWire: Record<'page' | 'bare', number[]> = { page: [], bare: [] };
const wire = (side: 'page' | 'bare') => void (tap && onWire[side].push(tap.lastFirstText()));

export async function run(): Promise<void> {
  // BENCH_NO_BUILD=1 serves the build already there (A/B runs of two builds of the web client).
  if (process.env['BENCH_NO_BUILD'] !== '1') buildGateway();
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-bench-web-'));
  const gateway = await startGateway({ SEXTANT_PORT: String(await freePort()), SEXTANT_DATA_DIR: dataDir, SEXTANT_LOG_LEVEL: 'warn' });
  gatewayPid = gateway.pid;
  tap = TIMELINE ? await startWireTap(gateway.url) : undefined;
  const url = tap?.url ?? gateway.url;
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ baseURL: url });
    const page = await context.newPage();
    const signedOut = await scriptsLoaded(page, async () => void (await page.goto('/login')));
    const signIn = await context.request.post('/api/auth/token', { data: ANALYST });
    const token = ((await signIn.json()) as { access_token: string }).access_token;
    await context.clearCookies();
    await context.request.post('/api/auth/token', { data: ANALYST });
    const firstPage = await scriptsLoaded(page, async () => void (await page.goto('/')));
    const charts = await scriptsLoaded(page, async () => {
      await page.getByRole('textbox', { name: 'Your question' }).fill('Total revenue by country');
      await page.getByRole('textbox', { name: 'Your question' }).press('Enter');
      await page.getByTestId('chart').locator('svg').first().waitFor({ timeout: 60_000 });
    });
    const chartCodeOnFirstPage = [...firstPage.keys()].filter((p) => /embed|vega/i.test(p));
    console.log(`JavaScript, gzip: first page signed in (Ask) ${kb(total(firstPage))} in ${firstPage.size} files (goal <= 200 KB); sign-in page ${kb(total(signedOut))}`);
    console.log(`  chart code loaded with the first chart: ${kb(total(charts))}; chart code on the first page: ${chartCodeOnFirstPage.length === 0 ? 'none' : chartCodeOnFirstPage.join(', ')}`);

    const inPage: number[] = [];
    const bare: number[] = [];
    // Warm-up of both paths (model code, warehouse caches), then alternating measured runs.
    await pageFirstText(page, QUESTIONS[0]!);
    await bareFirstText(url, token, QUESTIONS[0]!);
    for (let round = 0; round < ROUNDS; round++) {
      for (const q of QUESTIONS) {
        inPage.push(await pageFirstText(page, q));
        bare.push(await bareFirstText(url, token, q));
      }
    }
    const p = median(inPage);
    const b = median(bare);
    if (TIMELINE) {
      printTimelines();
      for (const side of ['page', 'bare'] as const) {
        const runs = cpuRuns.filter((r) => r.side === side);
        console.log(`${side}: CPU per question (to the answer's end), median: gateway and its query processes ${median(runs.map((r) => r.gateway))} ms, Chromium and the bench ${median(runs.map((r) => r.rest))} ms`);
        // Warm-up runs are in the lists too: the medians are over every run of the side.
        console.log(`${side}: first text left the gateway after ${median(onWire[side]).toFixed(1)} ms (median, from the request reaching the relay)`);
      }
    }
    console.log(`Question to first answer text, median of ${inPage.length}: page ${p.toFixed(1)} ms, bare SSE client ${b.toFixed(1)} ms: ${(p / b).toFixed(2)}x (goal <= 1.3x); the page adds ${(p - b).toFixed(1)} ms (goal < 50 ms)`);
  } finally {
    await browser.close();
    await tap?.close();
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
