// A new chat's address: given once its answer's first text is on screen, or a second after the
// question when that text is slow, and never over another chat the person opened meanwhile. A scripted
// model runs a query, then holds its text until the test lets it go; the page's timers run on a clock
// the test moves.
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import { openAiProvider } from '../../src/agent/providers/openai-provider.ts';
import { browserTest, openPage } from '../helpers/browser.ts';
import { startScriptedServer, type ScriptedReply, type ScriptedServer } from '../helpers/llm-servers.ts';
import { signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
const ANSWER = 'There are five hundred orders.';

let w: WebTestApp;
let llm: ScriptedServer;
const held: (() => void)[] = [];
const releaseAll = () => held.splice(0).forEach((release) => release());

/** A query without text first; then the answer, held before its first piece until released. */
function script(body: Record<string, unknown>): ScriptedReply {
  const messages = body['messages'] as { role: string }[];
  if (!messages.some((m) => m.role === 'tool')) return { toolCalls: [{ id: 'c1', name: 'run_sql', args: { connection_id: 'demo_warehouse', sql: 'SELECT COUNT(*) AS n FROM orders' } }] };
  return { text: ANSWER, pause: { frames: 0, until: new Promise<void>((resolve) => held.push(resolve)) } };
}

test.before(async () => {
  llm = await startScriptedServer('openai', script);
  w = await startWebApp({}, { llmProvider: openAiProvider({ model: 'scripted', apiKey: 'k', baseUrl: llm.url, maxRetries: 0 }) });
});
test.after.always(async () => {
  releaseAll();
  await w?.stop();
  await llm?.close();
});

/** Asks on a fresh page with its clock paused; resolves once the query's table shows, the text still held. */
async function askHeld(t: ExecutionContext, question: string) {
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context);
  await opened.page.clock.install();
  await opened.page.goto('/');
  // Installed, the page's clock still flows; paused, its timers wait for the test however slow the machine.
  await opened.page.clock.pauseAt(Date.now() + 1_000);
  const box = opened.page.getByRole('textbox', { name: 'Your question' });
  await box.fill(question);
  await box.press('Enter');
  await opened.page.getByRole('region', { name: /^Result 1:/ }).waitFor();
  return opened;
}

const pathOf = (url: string) => new URL(url).pathname;

test.serial('the address comes with the first text', async (t) => {
  const { page, problems } = await askHeld(t, 'How many orders, with the text on time?');
  t.is(pathOf(page.url()), '/', 'no address before the first text');
  releaseAll();
  await page.getByText(ANSWER).waitFor();
  await page.waitForURL('**/chat/*');
  await page.getByText(/credits$/).waitFor();
  await page.reload();
  await page.getByText(ANSWER).waitFor();
  t.deepEqual(problems, []);
});

test.serial('a slow first text does not hold the address back more than a second', async (t) => {
  const { page, problems } = await askHeld(t, 'How many orders, with a slow text?');
  await page.clock.runFor(900);
  t.is(pathOf(page.url()), '/');
  await page.clock.runFor(100);
  await page.waitForURL('**/chat/*');
  // The history learns of the chat at the same time.
  await page.getByRole('navigation', { name: 'Chat history' }).getByRole('link', { name: 'How many orders, with a slow text?' }).waitFor();
  t.is(await page.getByText(ANSWER).count(), 0);
  releaseAll();
  await page.getByText(/credits$/).waitFor();
  t.deepEqual(problems, []);
});

test.serial('a chat opened before the first text keeps the person there', async (t) => {
  const earlier = await askHeld(t, 'How many orders were there earlier?');
  releaseAll();
  await earlier.page.getByText(/credits$/).waitFor();
  const { page, problems } = await askHeld(t, 'How many orders, while I look elsewhere?');
  const link = page.getByRole('navigation', { name: 'Chat history' }).getByRole('link', { name: 'How many orders were there earlier?' });
  const before = await link.getAttribute('href');
  if (!before) return t.fail('the earlier chat has no link');
  await link.click();
  await page.waitForURL(`**${before}`);
  await page.clock.runFor(1_000);
  releaseAll();
  // The earlier chat stays on screen; the new one got its answer all the same.
  await page.getByText('How many orders were there earlier?').first().waitFor();
  t.is(pathOf(page.url()), before);
  await page.getByRole('navigation', { name: 'Chat history' }).getByRole('link', { name: 'How many orders, while I look elsewhere?' }).waitFor();
  t.is(pathOf(page.url()), before);
  t.deepEqual(problems, []);
});

test.serial('New chat before the first text starts a new chat; the first one gets its answer and its mark in the history', async (t) => {
  const question = 'How many orders before I start over?';
  const { page, problems } = await askHeld(t, question);
  const history = page.getByRole('navigation', { name: 'Chat history' });
  // Where the question shows outside the history (one query: the history may list the chat at any moment).
  const outsideHistory = () => page.locator('body *:not(#chat-history, #chat-history *, :has(#chat-history))', { hasText: question }).count();
  t.true((await outsideHistory()) > 0);
  await history.getByRole('link', { name: 'New chat' }).click();
  await page.getByRole('heading', { name: 'What would you like to know?' }).waitFor();
  t.is(await outsideHistory(), 0);
  await page.clock.runFor(1_000);
  releaseAll();
  // The history has the first chat, but the person stays on the new one.
  const first = history.getByRole('listitem').filter({ hasText: question }).first();
  await first.getByRole('link').waitFor();
  t.is(pathOf(page.url()), '/');
  t.is(await outsideHistory(), 0);
  // Its answer ends (its stream, read to the end through the API), and the history, which watches a
  // chat left while its answer ran, marks it at its next look.
  const href = await first.getByRole('link').getAttribute('href');
  if (!href) return t.fail('the first chat has no link');
  const stream = await page.context().request.get(`/api/agentic/subscribe/${href.split('/').at(-1)}`);
  t.regex(await stream.text(), /completed/);
  await page.clock.runFor(4_000);
  await first.getByText('New answer').waitFor();
  await first.getByRole('link').click();
  await page.getByText(ANSWER).waitFor();
  t.deepEqual(problems, []);
});
