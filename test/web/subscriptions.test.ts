// Subscriptions in Chromium: an analyst opens a saved question, subscribes to it every week by mail
// to themselves, sends a test from the dialog and receives the report on a real SMTP server on
// loopback; the Subscriptions page lists it with its run log; the mail's unsubscribe link opens a
// page that stops the mails in one click, signed out. A dashboard is subscribed to from its page, its
// tiles in one mail. An admin sees every subscription of the organization and pauses a member's.
import anyTest, { type TestFn } from 'ava';
import { DEMO_CONNECTION_ID } from '../../src/data/index.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { call } from '../helpers/api.ts';
import { mimeParts } from '../helpers/mime.ts';
import { startTestSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
let smtp: TestSmtp;
test.before(async () => {
  smtp = await startTestSmtp();
  w = await startWebApp({ SEXTANT_SMTP_URL: smtp.url, SEXTANT_SUBSCRIPTION_TICK_MS: '0' });
});
test.after.always(async () => {
  await w?.stop();
  await smtp?.stop();
});

test('an analyst subscribes to a saved question, sends a test, receives the mail and unsubscribes from its link', async (t) => {
  const m = await demoMember(w, 'user');
  const token = w.session(m.user);
  const saved = await call(w, 'POST', '/api/saved_questions', {
    token,
    body: { title: 'Orders by status', connection_id: DEMO_CONNECTION_ID, sql: 'SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status', chart: { mark: 'bar', encoding: { x: { field: 'status', type: 'nominal' }, y: { field: 'n', type: 'quantitative' } } } },
  });
  t.is(saved.status, 201, JSON.stringify(saved.body));
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto(`/saved/${saved.body.id as string}`);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  const dialog = page.getByRole('dialog', { name: 'Subscribe to this question' });
  await dialog.getByLabel('How often', { exact: true }).selectOption('week');
  await dialog.getByLabel('Day', { exact: true }).selectOption('1');
  await dialog.getByLabel('At', { exact: true }).fill('08:30');
  await dialog.getByLabel('Time zone').fill('Europe/Paris');
  t.is(await dialog.getByLabel('Mail to (members of the organization)').inputValue(), m.user.email);
  await checkAccessibility(t, page, 'the subscribe dialog');
  await dialog.getByRole('button', { name: 'Subscribe' }).click();
  const done = page.getByRole('dialog', { name: 'Subscribed' });
  await done.getByRole('button', { name: 'Send a test now' }).click();
  await done.getByRole('status').filter({ hasText: 'Test sent.' }).waitFor();
  const mail = await smtp.next(m.user.email, /Orders by status/);
  const parts = mimeParts(mail.raw);
  t.true(parts.some((p) => p.contentType === 'image/png'), 'the chart as an image');
  t.true(parts.some((p) => p.contentType === 'text/csv'), 'the rows as CSV');
  await done.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('link', { name: 'Subscriptions', exact: true }).click();
  const card = page.getByRole('list', { name: 'Subscriptions' }).getByRole('listitem').first();
  // Said as the dialog offered it, the next run in the schedule's zone.
  await card.getByText('Every Monday at 08:30 (Europe/Paris)', { exact: false }).waitFor();
  await card.getByText(/^Next: .*8:30/).waitFor();
  await card.getByRole('link', { name: 'Orders by status', exact: true }).waitFor();
  const name = (await card.getByRole('link', { name: 'Orders by status', exact: true }).boundingBox())!;
  const kind = (await card.getByText('saved question', { exact: true }).boundingBox())!;
  t.true(kind.x - (name.x + name.width) >= 4, `the title and its kind apart on one line: ${JSON.stringify([name, kind])}`);
  await card.getByText('Run log').click();
  await card.getByRole('table', { name: 'Runs' }).getByText('sent', { exact: true }).first().waitFor();
  await checkAccessibility(t, page, 'the subscriptions page');

  const text = parts.find((p) => p.contentType === 'text/plain')!.body.toString();
  const link = /Unsubscribe: (\S+)/.exec(text)![1]!;
  const signedOut = await w.browser.newContext({ baseURL: w.url });
  const outside = await signedOut.newPage();
  await outside.goto(new URL(link).pathname + new URL(link).search);
  await outside.getByRole('button', { name: 'Unsubscribe' }).click();
  await outside.getByRole('status').filter({ hasText: 'will receive no more mail' }).waitFor();
  await signedOut.close();
  const after = await call(w, 'GET', '/api/subscriptions', { token });
  t.deepEqual(after.body.subscriptions[0].unsubscribed, [m.user.email.toLowerCase()]);
});

test('an analyst subscribes to a dashboard from its page and receives every tile in one mail', async (t) => {
  const m = await demoMember(w, 'user');
  const token = w.session(m.user);
  const question = (title: string, sql: string) => call(w, 'POST', '/api/saved_questions', { token, body: { title, connection_id: DEMO_CONNECTION_ID, sql } });
  const byStatus = await question('Orders by status', 'SELECT status, count(*) AS n FROM orders GROUP BY status ORDER BY status');
  const byChannel = await question('Orders by channel', 'SELECT channel, count(*) AS n FROM orders GROUP BY channel ORDER BY channel');
  const tiles = [byStatus, byChannel].map((q, i) => ({ saved_question_id: q.body.id as string, x: i * 6, y: 0, w: 6, h: 4 }));
  const made = await call(w, 'POST', '/api/dashboards', { token, body: { title: 'Weekly orders', tiles } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto(`/dashboards/${made.body.id as string}`);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  const dialog = page.getByRole('dialog', { name: 'Subscribe to this dashboard' });
  // Alerts watch one question's first row: a dashboard's dialog does not offer one.
  t.is(await dialog.getByText(/^Alert/).count(), 0);
  await dialog.getByLabel('How often', { exact: true }).selectOption('week');
  await checkAccessibility(t, page, 'the subscribe dialog of a dashboard');
  await dialog.getByRole('button', { name: 'Subscribe' }).click();
  const done = page.getByRole('dialog', { name: 'Subscribed' });
  await done.getByRole('button', { name: 'Send a test now' }).click();
  await done.getByRole('status').filter({ hasText: 'Test sent.' }).waitFor();
  const mail = await smtp.next(m.user.email, /Weekly orders/);
  const csv = mimeParts(mail.raw).filter((p) => p.contentType === 'text/csv');
  t.is(csv.length, 2, 'each tile\'s rows as CSV');
  await done.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('link', { name: 'Subscriptions', exact: true }).click();
  // Named by the dashboard's title, which leads back to it.
  const card = page.getByRole('list', { name: 'Subscriptions' }).getByRole('listitem').filter({ hasText: 'dashboard' });
  await card.getByRole('link', { name: 'Weekly orders', exact: true }).click();
  await page.getByRole('heading', { name: 'Weekly orders' }).waitFor();
});

test("an admin sees every subscription of the organization and pauses a member's, who sees it paused; only its owner may delete it", async (t) => {
  const member = await demoMember(w, 'user');
  const admin = await demoMember(w, 'admin');
  const token = w.session(member.user);
  const saved = await call(w, 'POST', '/api/saved_questions', { token, body: { title: 'Orders by channel', connection_id: DEMO_CONNECTION_ID, sql: 'SELECT channel, count(*) AS n FROM orders GROUP BY channel' } });
  t.is(saved.status, 201, JSON.stringify(saved.body));
  const sub = await call(w, 'POST', '/api/subscriptions', { token, body: { saved_question_id: saved.body.id, schedule: { cron: '15 7 * * 2', timezone: 'UTC' }, channels: [{ type: 'email', to: [member.user.email] }] } });
  t.is(sub.status, 201, JSON.stringify(sub.body));

  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, admin.login);
  await page.goto('/subscriptions');
  const cards = page.getByRole('list', { name: 'Subscriptions' }).getByRole('listitem');
  const theirs = cards.filter({ hasText: 'Every Tuesday at 07:15 (UTC)' });
  // A new admin: their own list is empty.
  await page.getByText('No subscriptions yet.').waitFor();
  t.is(await theirs.count(), 0, "an admin's own list holds their own only");
  // The box sits at the start of its label's line, as every check box of the client does.
  const box = (await page.getByLabel('Every subscription of the organization').boundingBox())!;
  const line = (await page.locator('label', { hasText: 'Every subscription of the organization' }).boundingBox())!;
  t.true(box.x - line.x < 8 && box.width < 40 && box.y >= line.y && box.y + box.height <= line.y + line.height, `the box at ${JSON.stringify(box)} in its label at ${JSON.stringify(line)}`);
  await page.getByLabel('Every subscription of the organization').check();
  await theirs.waitFor();
  t.is(await theirs.getByRole('button', { name: 'Delete' }).count(), 0, 'admins pause, only owners delete');
  await theirs.getByRole('button', { name: 'Pause' }).click();
  await theirs.getByText('Paused', { exact: true }).waitFor();
  await theirs.getByRole('button', { name: 'Resume' }).waitFor();
  t.like((await call(w, 'GET', `/api/subscriptions/${sub.body.id as string}`, { token })).body, { status: 'paused', next_run_at: null });

  const own = await openPage(t, w.browser, w.url);
  await signInAs(own.context, member.login);
  await own.page.goto('/subscriptions');
  const mine = own.page.getByRole('list', { name: 'Subscriptions' }).getByRole('listitem').filter({ hasText: 'Every Tuesday at 07:15 (UTC)' });
  await mine.getByText('Paused', { exact: true }).waitFor();
  t.is(await own.page.getByLabel('Every subscription of the organization').count(), 0, 'members see no such choice');
  await mine.getByRole('button', { name: 'Delete' }).waitFor();
  t.deepEqual([...problems, ...own.problems], []);
});
