// The usage and credit-limit page in Chromium against a real gateway with the demo: members show by
// name and email instead of ids, the usage is filtered by picking a member, and a member's monthly
// limit is set by picking them from the organization's members.
import anyTest, { type TestFn } from 'ava';
import { call } from '../helpers/api.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

test('usage rows and credit limits name the member, and an admin picks a member to filter and to limit', async (t) => {
  const analyst = await demoMember(w, 'user');
  const admin = await demoMember(w, 'admin');
  const token = w.session(admin.user);
  const asked = await call(w, 'POST', '/api/agentic', { token: w.session(analyst.user), body: { chat_id: `usage-${analyst.user.id}`, messages: [{ role: 'user', content: 'How many orders?' }] } });
  t.is(asked.status, 200);
  // The test clock stands still: "now" as the range's end would leave out an answer of this instant, so the day is given.
  const today = ((await call(w, 'GET', '/api/admin/usage', { token })).body.to as string).slice(0, 10);
  const named = (await call(w, 'GET', `/api/admin/members/${analyst.user.id}`, { token })).body as { name: string; email: string };
  const label = named.name && named.name !== named.email ? `${named.name} (${named.email})` : named.email;

  const { page, context, problems } = await openPage(t, w.browser, w.url);
  await signInAs(context, admin.login);
  await page.goto('/admin/usage');
  await page.getByLabel('To', { exact: true }).fill(today);
  await page.getByRole('combobox', { name: 'Member' }).selectOption({ label });
  await page.getByRole('button', { name: 'Show usage' }).click();
  const rows = page.getByRole('region', { name: 'Usage table' }).getByRole('row');
  await rows.filter({ hasText: label }).first().waitFor();
  t.is(await rows.filter({ hasText: analyst.user.id }).count(), 0, 'the raw id is not shown');
  t.is(await rows.count(), (await rows.filter({ hasText: label }).count()) + 1, 'a header and only the picked member');
  // Seven columns beside the admin menu: the credits are in sight, not past a horizontal scroll.
  t.true(await page.getByRole('region', { name: 'Usage table' }).evaluate((e: { scrollWidth: number; clientWidth: number }) => e.scrollWidth <= e.clientWidth + 1), 'no column out of sight');

  await page.getByRole('combobox', { name: 'Limit of' }).selectOption({ label });
  await page.getByRole('spinbutton', { name: 'Monthly credits' }).fill('40');
  await page.getByRole('button', { name: 'Save limit' }).click();
  await page.getByText(`Limit set for ${label}.`).waitFor();
  const limit = page.getByRole('list', { name: 'Credit limits' }).getByRole('listitem').filter({ hasText: label });
  await limit.getByText('of 40 credits used this month').waitFor();
  const limits = (await call(w, 'GET', '/api/admin/credit-limits', { token })).body.limits as { user_id: string | null; monthly_credits: number }[];
  t.deepEqual(limits.filter((l) => l.user_id === analyst.user.id).map((l) => l.monthly_credits), [40]);
  await checkAccessibility(t, page, 'usage and credit limits by member');
  t.deepEqual(problems, []);
});
