// The chat history in Chromium: the sidebar's sections and keyset pages loaded as it scrolls, search,
// pin, archive and labels, moving and deleting messages, and the new-answer mark. Each test signs in
// a member of the demo organization of its own, so the lists are its own.
import anyTest, { type TestFn } from 'ava';
import type { Page } from 'playwright-core';
import { archiveChat, pinChat } from '../../src/chats/index.ts';
import { browserTest, checkAccessibility, openPage, type InPage } from '../helpers/browser.ts';
import { deps, seedChat } from '../helpers/chats.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

const history = (page: Page) => page.getByRole('navigation', { name: 'Chat history' });
const section = (page: Page, name: string) => history(page).getByRole('region', { name });

/** The chat as the API returns it to its owner (through the page's own session). */
async function chatOf(page: Page, chatId: string) {
  const res = await page.request.get(`/api/c2/${chatId}?pairs=50`);
  return (await res.json()) as { chat: { pinned: boolean; archived: boolean; labels: string[]; recently_completed: boolean }; messages: { content: string }[] };
}

test('the history shows pinned and archived chats apart and loads older chats page by page as it scrolls', async (t) => {
  const m = await demoMember(w);
  for (let i = 0; i < 70; i++) await seedChat(w, m.principal, `page-${i}`, [{ question: `Question number ${i}`, answer: `Answer ${i}` }]);
  await pinChat(deps(w), m.principal, { chatId: 'page-3' });
  await archiveChat(deps(w), m.principal, { chatId: 'page-5' });
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/');
  const recent = section(page, 'Recent').getByRole('listitem');
  await recent.first().waitFor();
  t.is(await recent.count(), 30);
  t.is(await recent.first().getByRole('link').textContent(), 'Question number 69');
  t.deepEqual(await section(page, 'Pinned').getByRole('link').allTextContents(), ['Question number 3']);
  await checkAccessibility(t, page, 'the Ask page with the history');

  const scrollToEnd = () => page.evaluate('(() => { const el = document.getElementById("chat-history"); el.scrollTop = el.scrollHeight; })()');
  const pageRequest = () => page.waitForRequest((r) => r.url().includes('/api/chat_history') && r.url().includes('cursor='));
  await Promise.all([pageRequest(), scrollToEnd()]);
  await recent.nth(59).waitFor();
  t.is(await recent.count(), 60);
  await Promise.all([pageRequest(), scrollToEnd()]);
  await recent.nth(67).waitFor();
  const titles = await section(page, 'Recent').getByRole('link').allTextContents();
  t.is(titles.length, 68);
  t.is(new Set(titles).size, 68);
  t.is(titles.at(-1), 'Question number 0');
  t.false(titles.includes('Question number 3') || titles.includes('Question number 5'));
  t.is(await history(page).getByRole('button', { name: 'Show older chats' }).count(), 0);
  // (Opened last: clicking it scrolls the history to its end, which loads the next page.)
  await history(page).getByText('Recently archived (1)').click();
  t.deepEqual(await history(page).getByRole('list', { name: 'Recently archived' }).getByRole('link').allTextContents(), ['Question number 5']);
  t.deepEqual(problems, []);
});

test('search finds a chat by a word of its answer, shows it in context and opens it; Escape clears it', async (t) => {
  const m = await demoMember(w);
  await seedChat(w, m.principal, 'search-a', [{ question: 'Where do we ship from?', answer: 'Most parcels leave the Rotterdam warehouse.' }]);
  await seedChat(w, m.principal, 'search-b', [{ question: 'Which carriers do we use?', answer: 'Two carriers <b>bold</b> & friends.' }]);
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/');
  const search = history(page).getByRole('searchbox', { name: 'Search chats' });
  await search.focus();
  await page.keyboard.type('rotterdam');
  const results = history(page).getByRole('region', { name: 'Search results' });
  await results.getByText('1 chat found').waitFor();
  t.is(await results.locator('mark').textContent(), 'Rotterdam');
  await checkAccessibility(t, page, 'search results');
  // Markup in a message is shown as text, never as HTML.
  await search.fill('bold friends');
  await results.getByRole('link', { name: 'Which carriers do we use?' }).waitFor();
  t.regex((await results.locator('.snippet').textContent()) ?? '', /<b>bold<\/b> & friends/);
  t.is(await results.locator('.snippet b').count(), 0);
  await search.fill('rotterdam');
  await results.getByRole('link', { name: 'Where do we ship from?' }).click();
  await page.waitForURL('**/chat/search-a');
  await page.getByText('Most parcels leave the Rotterdam warehouse.').waitFor();
  await search.press('Escape');
  t.is(await search.inputValue(), '');
  await section(page, 'Recent').waitFor();
});

test('pin, archive and labels from the head of a chat move it in the history, with the keyboard alone', async (t) => {
  const m = await demoMember(w);
  await seedChat(w, m.principal, 'flags', [{ question: 'Monthly churn', answer: 'Churn was 2%.' }]);
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/chat/flags');
  await page.getByRole('heading', { level: 1, name: 'Monthly churn' }).waitFor();
  await page.getByRole('button', { name: 'Pin', exact: true }).focus();
  await page.keyboard.press('Enter');
  await section(page, 'Pinned').getByRole('link', { name: 'Monthly churn' }).waitFor();
  t.true((await chatOf(page, 'flags')).chat.pinned);
  await page.keyboard.press('Enter');
  await section(page, 'Recent').getByRole('link', { name: 'Monthly churn' }).waitFor();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await history(page).getByText('Recently archived (1)').waitFor();
  t.true((await chatOf(page, 'flags')).chat.archived);
  await page.getByRole('button', { name: 'Unarchive' }).press('Enter');
  await section(page, 'Recent').getByRole('link', { name: 'Monthly churn' }).waitFor();

  const label = page.getByRole('textbox', { name: 'New label' });
  await label.focus();
  await page.keyboard.type('finance');
  await page.keyboard.press('Enter');
  await page.getByRole('list', { name: 'Labels' }).getByText('finance').waitFor();
  await section(page, 'Recent').getByText('finance').waitFor();
  // Too long: the server's message sits next to the field and the text stays.
  await label.fill('x'.repeat(51));
  await label.press('Enter');
  await label.and(page.locator('[aria-invalid="true"]')).waitFor();
  t.regex((await page.locator(`[id="${await label.getAttribute('aria-describedby')}"]`).textContent()) ?? '', /50/);
  t.is(await label.inputValue(), 'x'.repeat(51));
  await checkAccessibility(t, page, 'a chat with a label and a field error');
  t.deepEqual((await chatOf(page, 'flags')).chat.labels, ['finance']);
  await page.getByRole('button', { name: 'Remove label finance' }).press('Enter');
  await page.getByRole('list', { name: 'Labels' }).waitFor({ state: 'detached' });
  t.deepEqual((await chatOf(page, 'flags')).chat.labels, []);
});

test('a question moves up with its answer, and deleted messages stay deleted after a reload', async (t) => {
  const m = await demoMember(w);
  await seedChat(w, m.principal, 'order', [
    { question: 'First question', answer: 'First answer' },
    { question: 'Second question', answer: 'Second answer' },
    { question: 'Third question', answer: 'Third answer' },
  ]);
  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/chat/order');
  const questions = page.locator('.turn .question');
  await questions.nth(2).waitFor();
  const third = page.getByRole('article').filter({ hasText: 'Third question' });
  // The actions sit behind a menu button, folded until asked for.
  t.false(await third.getByRole('button', { name: 'Move up, with its answer' }).isVisible());
  await third.getByRole('button', { name: 'More actions on this question' }).click();
  await third.getByRole('button', { name: 'Move up, with its answer' }).click();
  await page.waitForFunction(() => (globalThis as unknown as InPage).document.querySelectorAll('.turn .question')[1]?.textContent === 'Third question');
  t.deepEqual(await questions.allTextContents(), ['First question', 'Third question', 'Second question']);
  // The keyboard stays on the moved question's button (focused once the move's re-render has committed).
  await page.waitForFunction(() => /^Move (up|down), with its answer$/.test((globalThis as unknown as InPage).document.activeElement?.getAttribute('aria-label') ?? ''));
  t.regex((await page.evaluate('document.activeElement?.getAttribute("aria-label")')) as string, /^Move (up|down), with its answer$/);
  t.deepEqual(
    (await chatOf(page, 'order')).messages.map((x) => x.content),
    ['First question', 'First answer', 'Third question', 'Third answer', 'Second question', 'Second answer'],
  );

  // The last answer: afterwards the chat ends on a question, with no run behind it.
  const last = page.getByRole('article').filter({ hasText: 'Second question' });
  await last.getByRole('group', { name: 'Answer actions' }).getByRole('button', { name: 'Delete this answer' }).click();
  await last.getByRole('button', { name: 'Yes, delete' }).click();
  await last.getByText('No answer.').waitFor();
  const first = page.getByRole('article').filter({ hasText: 'First question' });
  await first.getByRole('button', { name: 'More actions on this question' }).click();
  await first.getByRole('button', { name: 'Delete this question' }).click();
  await first.getByRole('button', { name: 'Yes, delete' }).click();
  await questions.filter({ hasText: 'First question' }).waitFor({ state: 'detached' });
  await page.reload();
  await page.getByText('Third answer').waitFor();
  t.deepEqual(await questions.allTextContents(), ['Third question', 'Second question']);
  await page.getByText('First answer').waitFor();
  t.is(await page.getByText('Second answer').count(), 0);
  t.is(await page.getByText('No answer.').count(), 1);
  t.is(await page.getByRole('alert').count(), 0);
  await checkAccessibility(t, page, 'a chat with deleted messages');
  t.deepEqual(problems, []);
});

test('the new-answer mark is dismissed from the history, and opening a marked chat clears its mark', async (t) => {
  const m = await demoMember(w);
  await seedChat(w, m.principal, 'marked-a', [{ question: 'Marked A', answer: 'A' }]);
  await seedChat(w, m.principal, 'marked-b', [{ question: 'Marked B', answer: 'B' }]);
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/');
  const recent = section(page, 'Recent');
  await recent.getByText('New answer').nth(1).waitFor();
  // The mark goes under the title, which keeps most of the row: beside it, a few letters were left.
  const link = (await recent.getByRole('link', { name: 'Marked A' }).boundingBox())!;
  const row = (await recent.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Marked A' }) }).boundingBox())!;
  t.true(link.width >= row.width * 0.6, `the title is ${link.width} px of a ${row.width} px row`);
  await recent.getByRole('button', { name: 'Dismiss the new-answer mark of Marked A' }).click();
  await recent.getByRole('button', { name: 'Dismiss the new-answer mark of Marked A' }).waitFor({ state: 'detached' });
  t.false((await chatOf(page, 'marked-a')).chat.recently_completed);
  t.true((await chatOf(page, 'marked-b')).chat.recently_completed);
  const cleared = page.waitForResponse((r) => r.url().endsWith('/api/dismiss_chat_completion') && r.ok());
  await recent.getByRole('link', { name: 'Marked B' }).click();
  await cleared;
  // The page drops the mark when it renders the answer to that request, a moment after it arrives.
  await recent.getByText('New answer').first().waitFor({ state: 'detached' });
  t.is(await recent.getByText('New answer').count(), 0);
  t.false((await chatOf(page, 'marked-b')).chat.recently_completed);
});
