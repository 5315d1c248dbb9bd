// Settings in Chromium against a real gateway: profile and memories, every kind of token created
// and revoked (and an OAuth-connected app disconnected), two-factor authentication with real TOTP
// codes, workspaces, and a dismissed note brought back. Each test has a demo member of its own.
import anyTest, { type TestFn } from 'ava';
import { generateSync } from 'otplib';
import type { Locator, Page } from 'playwright-core';
import { setMembership } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { mcpInitialize } from '../auth/tokens/requests.ts';
import { PASSWORD } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { connectV1, MemoryOAuthProvider } from '../helpers/oauth-browser.ts';
import { demoMember, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
let w: WebTestApp;
test.before(async () => {
  w = await startWebApp();
});
test.after.always(() => w?.stop());

async function settingsPage(t: Parameters<typeof openPage>[0], path: string) {
  const m = await demoMember(w);
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, m.login);
  await opened.page.goto(path);
  return { ...opened, m };
}

/** The message tied to a field by aria-describedby (the server's 422 message, or a hint). */
async function fieldMessage(field: Locator): Promise<string> {
  await field.and(field.page().locator('[aria-invalid="true"]')).waitFor();
  const ids = (await field.getAttribute('aria-describedby'))!.split(' ');
  return (await field.page().locator(`[id="${ids.at(-1)}"]`).textContent()) ?? '';
}

const me = async (page: Page) => (await (await page.request.get('/api/auth/me')).json()) as { name: string; slack_title: string; org_id: string; default_workspace_id: string | null };

test('the profile keeps what was typed through a refused save, and memories are added, edited and deleted', async (t) => {
  const { page, problems } = await settingsPage(t, '/settings');
  await page.waitForURL('**/settings/profile');
  const name = page.getByRole('textbox', { name: 'Name' });
  const background = page.getByRole('textbox', { name: 'Background' });
  await name.fill('   ');
  await background.fill('Head of pricing, works in euros');
  await page.getByRole('button', { name: 'Save profile' }).click();
  t.truthy(await fieldMessage(name));
  t.is(await background.inputValue(), 'Head of pricing, works in euros');
  await checkAccessibility(t, page, 'the profile with a field error');
  // Unsaved edits survive a reload (and so a sign-in detour).
  await page.reload();
  t.is(await background.inputValue(), 'Head of pricing, works in euros');
  await name.fill('Rita Analyst');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.getByText('Profile saved.').waitFor();
  await page.getByRole('banner').getByText('Rita Analyst').waitFor();
  t.like(await me(page), { name: 'Rita Analyst', slack_title: 'Head of pricing, works in euros' });
  t.is(await page.evaluate('Object.keys(localStorage).filter((k) => k.startsWith("sextant.draft.profile")).length'), 0);

  const newNote = page.getByRole('form', { name: 'Add a memory' }).getByRole('textbox', { name: 'Note' });
  await page.getByRole('button', { name: 'Add memory' }).click();
  t.truthy(await fieldMessage(newNote));
  await newNote.fill('Fiscal years start in April');
  await page.getByRole('button', { name: 'Add memory' }).click();
  const memories = page.getByRole('list', { name: 'Your memories' });
  await memories.getByRole('heading', { name: 'Fiscal years start in April' }).waitFor();
  t.is(await newNote.inputValue(), '');
  await memories.getByRole('button', { name: 'Edit memory Fiscal years start in April' }).click();
  const edit = page.getByRole('form', { name: 'Edit memory Fiscal years start in April' });
  await edit.getByRole('textbox', { name: 'Note' }).fill('Fiscal years start on 1 April');
  await edit.getByRole('textbox', { name: 'Title' }).fill('Fiscal year');
  await edit.getByRole('button', { name: 'Save memory' }).click();
  await memories.getByRole('heading', { name: 'Fiscal year' }).waitFor();
  await memories.getByText('Fiscal years start on 1 April').waitFor();
  const stored = (await (await page.request.get('/api/auth/user_profile')).json()) as { memories: { title: string; content: string }[] };
  t.deepEqual(stored.memories.map((x) => [x.title, x.content]), [['Fiscal year', 'Fiscal years start on 1 April']]);
  await memories.getByRole('button', { name: 'Delete memory Fiscal year' }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await page.getByText('No memory yet.').waitFor();
  t.deepEqual(((await (await page.request.get('/api/auth/user_profile')).json()) as { memories: unknown[] }).memories, []);
  t.deepEqual(problems, []);
});

test('the MCP, CLI and API tokens are created, shown once, work, and stop working once revoked; a connected app is disconnected', async (t) => {
  const m = await demoMember(w);
  const { client, provider } = await connectV1(w, w.session(m.user), new MemoryOAuthProvider(undefined, 'Claude Desktop'));
  await client.close();
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, m.login);
  await page.goto('/settings/tokens');
  const section = (name: string) => page.getByRole('region', { name });
  const newValue = async (s: Locator) => (await s.getByTestId('new-token').textContent())!;
  const apiKey = (value: string) => w.fetch('/api/auth/me', { headers: { 'API-KEY': value } });

  await section('MCP token').getByRole('button', { name: 'Create MCP token' }).click();
  const mcp = await newValue(section('MCP token'));
  t.is((await mcpInitialize(w, mcp)).status, 200);
  await checkAccessibility(t, page, 'the tokens page with a new token');
  await section('MCP token').getByRole('button', { name: 'Done' }).click();
  t.is(await page.getByText(mcp).count(), 0);
  await section('MCP token').getByRole('button', { name: /^Revoke token/ }).click();
  await section('MCP token').getByRole('button', { name: 'Yes, revoke' }).click();
  await section('MCP token').getByText('No active token.').waitFor();
  t.is((await mcpInitialize(w, mcp)).status, 401);

  const apps = section('Connected MCP apps');
  await apps.getByText('Claude Desktop').waitFor();
  await apps.getByRole('button', { name: 'Disconnect Claude Desktop' }).click();
  await apps.getByRole('button', { name: 'Yes, disconnect' }).click();
  await apps.getByText('No app is connected.').waitFor();
  const refused = await w.fetch('/ai/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${provider.saved!.access_token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  t.is(refused.status, 401);

  await section('CLI token').getByRole('button', { name: 'Create CLI token' }).click();
  const cli = await newValue(section('CLI token'));
  t.is((await apiKey(cli)).status, 200);
  await section('CLI token').getByRole('button', { name: /^Revoke token/ }).click();
  await section('CLI token').getByRole('button', { name: 'Yes, revoke' }).click();
  await section('CLI token').getByText('No active token.').waitFor();
  t.is((await apiKey(cli)).status, 401);

  const apiTokens = section('API tokens');
  await apiTokens.getByRole('button', { name: 'Create API token' }).click();
  t.truthy(await fieldMessage(apiTokens.getByRole('textbox', { name: 'Name' })));
  await apiTokens.getByRole('textbox', { name: 'Description' }).fill('Runs every night');
  await apiTokens.getByRole('textbox', { name: 'Name' }).fill('nightly report');
  await apiTokens.getByRole('combobox', { name: 'Expires after' }).selectOption('30');
  await apiTokens.getByRole('button', { name: 'Create API token' }).click();
  const api = await newValue(apiTokens);
  t.is((await apiKey(api)).status, 200);
  const row = apiTokens.getByRole('row').filter({ hasText: 'nightly report' });
  await row.getByText('Runs every night').waitFor();
  t.is(await row.getByRole('cell').nth(3).textContent(), new Date(w.clock.now() + 30 * 86_400_000).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' }));
  await row.getByRole('button', { name: 'Revoke token nightly report' }).click();
  await row.getByRole('button', { name: 'Yes, revoke' }).click();
  await apiTokens.getByText('No active token.').waitFor();
  t.is((await apiKey(api)).status, 401);
});

test('two-factor authentication is turned on with a real TOTP code, gets new recovery codes and is turned off with one', async (t) => {
  const { page, problems } = await settingsPage(t, '/settings/security');
  const code = (secret: string) => generateSync({ secret, epoch: Math.floor(w.clock.now() / 1000) });
  await page.getByText('Two-factor authentication is off').waitFor();
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await page.getByRole('img', { name: /QR code/ }).locator('svg').waitFor();
  const secret = (await page.getByTestId('totp-secret').textContent())!;
  const first = page.getByRole('textbox', { name: 'Code from the app' });
  await first.fill('000000');
  await first.press('Enter');
  t.truthy(await fieldMessage(first));
  await checkAccessibility(t, page, 'MFA setup with a refused code');
  await first.fill(code(secret));
  await first.press('Enter');
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await codes.first().waitFor();
  t.is(await codes.count(), 10);
  const firstCodes = await codes.allTextContents();
  await page.getByRole('button', { name: 'I saved them, continue' }).click();
  await page.getByText('10 recovery codes left').waitFor();

  w.clock.advance(30_000);
  const regenerate = page.getByRole('form', { name: 'New recovery codes' });
  await regenerate.getByRole('textbox', { name: 'Password' }).fill('not the password');
  await regenerate.getByRole('textbox', { name: 'Code from the app, or a recovery code' }).fill(code(secret));
  await regenerate.getByRole('button', { name: 'Make new recovery codes' }).click();
  t.truthy(await fieldMessage(regenerate.getByRole('textbox', { name: 'Password' })));
  await regenerate.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await regenerate.getByRole('button', { name: 'Make new recovery codes' }).click();
  await page.getByText('Your new recovery codes are ready.').waitFor();
  const newCodes = await codes.allTextContents();
  t.is(newCodes.length, 10);
  t.false(newCodes.some((c) => firstCodes.includes(c)));
  await page.getByRole('button', { name: 'I saved them, continue' }).click();

  // An old recovery code no longer works; a new one turns MFA off.
  const disable = page.getByRole('form', { name: 'Turn off two-factor authentication' });
  await disable.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
  await disable.getByRole('textbox', { name: 'Code from the app, or a recovery code' }).fill(firstCodes[0]!);
  await disable.getByRole('button', { name: 'Turn off' }).click();
  t.truthy(await fieldMessage(disable.getByRole('textbox', { name: 'Code from the app, or a recovery code' })));
  t.is(await disable.getByRole('textbox', { name: 'Password' }).inputValue(), PASSWORD);
  await disable.getByRole('textbox', { name: 'Code from the app, or a recovery code' }).fill(newCodes[0]!);
  await disable.getByRole('button', { name: 'Turn off' }).click();
  await page.getByText('Two-factor authentication is off.').first().waitFor();
  t.like(await (await page.request.get('/api/auth/mfa/status')).json(), { enabled: false });
  await checkAccessibility(t, page, 'MFA turned off');
  t.deepEqual(problems, []);
});

test('a person switches into a workspace and back, and chooses where new sign-ins start', async (t) => {
  const { page, m } = await settingsPage(t, '/settings/workspaces');
  const workspace = w.org(`ws-${m.user.id}`, { baseOrgId: DEMO_ORG_ID });
  await setMembership(w.app.services.executor, w.clock, { userId: m.user.id, orgId: workspace, role: 'user', permissions: [] });
  await page.reload();
  const here = page.getByRole('row').filter({ hasText: 'You are here' });
  await here.getByText('(base organization)').waitFor();
  await checkAccessibility(t, page, 'the workspaces page');
  await page.getByRole('button', { name: `Switch to Org ${workspace}` }).click();
  await here.getByText(`Org ${workspace}`).waitFor();
  t.is((await me(page)).org_id, workspace);

  await page.getByRole('combobox', { name: 'New sign-ins start in' }).selectOption(workspace);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Saved: your next sign-in starts there.').waitFor();
  t.is((await me(page)).default_workspace_id, workspace);

  await page.getByRole('button', { name: /^Switch to Demo/ }).click();
  await here.getByText('(base organization)').waitFor();
  t.is((await me(page)).org_id, DEMO_ORG_ID);
});

test('a dismissed note stays away until Settings shows it again', async (t) => {
  const { page } = await settingsPage(t, '/');
  const note = page.getByRole('note').filter({ hasText: 'Answers are written by an AI model' });
  await note.waitFor();
  await note.getByRole('button', { name: 'Dismiss this note' }).click();
  await note.waitFor({ state: 'detached' });
  await page.reload();
  await page.getByRole('textbox', { name: 'Your question' }).waitFor();
  await page.getByRole('banner').getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Dismissed notes' }).click();
  const dismissed = page.getByRole('list', { name: 'Dismissed notes' });
  await dismissed.getByText('Answers are written by an AI model', { exact: false }).waitFor();
  t.is(await note.count(), 0);
  await checkAccessibility(t, page, 'the dismissed notes');
  await dismissed.getByRole('button', { name: 'Show it again' }).click();
  await page.getByText('You have not dismissed any note.').waitFor();
  await page.getByRole('banner').getByRole('link', { name: 'Ask' }).click();
  await note.waitFor();
});
