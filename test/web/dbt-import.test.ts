// Knowledge → Import from dbt in Chromium against a real gateway with the demo: an admin uploads the
// jaffle shop's artifacts for a DuckDB warehouse built from them, sees the summary (counts per kind,
// skipped nodes with their reasons) and opens the new environment's diff; a modeler at phone size
// picks an environment and is told in plain words what is wrong with a bad file, and nothing is
// written; a modeler imports through the organization's connections as the catalog lists them (no
// settings or secrets); an analyst sees no entry and cannot reach the page.
import anyTest, { type ExecutionContext, type TestFn } from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Role } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { PASSWORD, passwordUser } from '../helpers/auth.ts';
import { browserTest, checkAccessibility, openPage } from '../helpers/browser.ts';
import { buildJaffleWarehouse, JAFFLE_DIR } from '../helpers/jaffle-warehouse.ts';
import { DEMO, signInAs, startWebApp, type WebTestApp } from '../helpers/web-app.ts';

const test = browserTest(anyTest as TestFn<unknown>);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const MANIFEST = join(JAFFLE_DIR, 'manifest.json');
const CATALOG = join(JAFFLE_DIR, 'catalog.json');
const OTHER_ORG = 'dbt-web-other';
let w: WebTestApp;
let admin: string;

test.before(async () => {
  const root = tempDir();
  const warehouse = await buildJaffleWarehouse();
  placeOrgFile(root, DEMO_ORG_ID, 'jaffle_shop.duckdb', warehouse);
  placeOrgFile(root, OTHER_ORG, 'jaffle_shop.duckdb', warehouse);
  w = await startWebApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  admin = w.session(await passwordUser(w, { orgId: DEMO_ORG_ID, role: 'admin' }));
  const res = await call(w, 'POST', '/api/connections', { token: admin, body: { id: 'jaffle', name: 'Jaffle shop', type: 'duckdb', settings: { path: 'jaffle_shop.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
});
test.after.always(() => w?.stop());

async function signedIn(t: ExecutionContext, role: Role, viewport = DESKTOP) {
  const user = await passwordUser(w, { orgId: DEMO_ORG_ID, role });
  const opened = await openPage(t, w.browser, w.url, { viewport });
  await signInAs(opened.context, { email: user.email, password: PASSWORD });
  return { ...opened, token: w.session(user) };
}

/** The page scrolls only downwards: nothing is wider than the window. */
async function noSideScroll(t: ExecutionContext, page: Page, where: string) {
  const widths = await page.evaluate(() => {
    interface Box { getBoundingClientRect(): { right: number }; tagName: string; className: string; id: string }
    const doc = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelectorAll(s: string): ArrayLike<Box> } }).document;
    const client = doc.documentElement.clientWidth;
    const wide = Array.from(doc.querySelectorAll('body *')).filter((e) => e.getBoundingClientRect().right > client + 1);
    return { scroll: doc.documentElement.scrollWidth, client, wide: wide.slice(0, 5).map((e) => `${e.tagName}.${e.className}#${e.id}`) };
  });
  t.true(widths.scroll <= widths.client, `${where}: the page is ${widths.scroll}px wide in a ${widths.client}px window (${widths.wide.join(', ')})`);
}

const environmentCount = async (token: string) => ((await call(w, 'GET', '/api/environments', { token })).body as unknown[]).length;

test.serial('an admin imports the jaffle shop, sees what became what and what was skipped, and opens the diff of the new environment', async (t) => {
  const { page, problems } = await signedIn(t, 'admin');
  await page.goto('/knowledge');
  await page.getByRole('navigation', { name: 'Knowledge' }).getByRole('link', { name: 'Import from dbt' }).click();
  await page.getByRole('heading', { name: 'Import from dbt', level: 1 }).waitFor();
  await page.getByLabel('Manifest (manifest.json)').setInputFiles(MANIFEST);
  await page.getByLabel('Catalog (catalog.json, optional)').setInputFiles(CATALOG);
  await page.getByRole('combobox', { name: 'Connection' }).selectOption('jaffle');
  t.is(await page.getByRole('combobox', { name: 'Environment' }).inputValue(), '', 'a new environment unless one is picked');
  await checkAccessibility(t, page, 'the import form');
  await noSideScroll(t, page, 'the import form');
  // The request is held until the page has shown its progress, then let through. The page shows it
  // as the upload starts, which may be before the request reaches the route: its type is awaited.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let routed!: (contentType: string) => void;
  const contentType = new Promise<string>((resolve) => (routed = resolve));
  await page.route('**/api/import/dbt', async (route) => {
    routed(route.request().headers()['content-type'] ?? '');
    await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByRole('status').filter({ hasText: /^(Uploading|Importing)/ }).getByRole('progressbar').waitFor();
  release();
  t.regex(await contentType, /^multipart\/form-data/);

  await page.getByRole('heading', { name: 'Imported jaffle_shop' }).waitFor({ timeout: 60_000 });
  await page.getByText('dbt jaffle_shop 2025-10-11 00:05').waitFor();
  const counts = page.getByRole('table', { name: 'Items by kind' });
  t.deepEqual(await counts.getByRole('row', { name: /Table documentation/ }).getByRole('cell').allTextContents(), ['19', '0', '0', '0']);
  t.deepEqual(await counts.getByRole('row', { name: /Relationships/ }).getByRole('cell').allTextContents(), ['6', '0', '0', '0']);
  await page.getByText('15 governed metrics on the table documentation.').waitFor();
  const skipped = page.getByRole('list', { name: 'Skipped nodes' });
  for (const m of ['median_revenue', 'revenue_growth_mom', 'cumulative_revenue']) await skipped.getByText(`metric.jaffle_shop.${m}`).waitFor();
  await checkAccessibility(t, page, 'the summary of an import');
  await noSideScroll(t, page, 'the summary of an import');
  await page.setViewportSize(PHONE);
  await noSideScroll(t, page, 'the summary of an import at phone size');

  await page.getByRole('link', { name: 'Review the changes against production' }).click();
  await page.getByRole('heading', { name: 'Environment dbt jaffle_shop 2025-10-11 00:05' }).waitFor();
  await page.getByRole('article', { name: 'tables/jaffle/main.orders.yaml, added' }).waitFor();
  // Production is untouched until the merge.
  t.is((await call(w, 'GET', `/api/knowledge/tables/${encodeURIComponent('jaffle/main.orders')}`, { token: admin })).status, 404);
  t.deepEqual(problems, []);
});

test.serial('a modeler, who may not read the connections API, picks the connection from the organization\'s list (ids and names only) and imports', async (t) => {
  const { page, problems, token } = await signedIn(t, 'modeler');
  t.is((await call(w, 'GET', '/api/connections', { token })).status, 403, 'the admin API stays closed to modelers');
  const catalog = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/cli/catalog');
  await page.goto('/knowledge/import/dbt');
  const listed = (await (await catalog).json()) as { connections: Record<string, unknown>[] };
  const ids = listed.connections.map((c) => c['id']);
  t.true(ids.includes('jaffle'));
  for (const c of listed.connections) t.deepEqual(Object.keys(c).sort(), ['dialect', 'documented_tables', 'id', 'name', 'type'], 'no settings, host, user or password');
  const connection = page.getByRole('combobox', { name: 'Connection' });
  t.deepEqual(await connection.locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value)), ids);
  t.true((await connection.locator('option').allTextContents()).includes('Jaffle shop (duckdb)'));
  await page.getByLabel('Manifest (manifest.json)').setInputFiles(MANIFEST);
  await connection.selectOption('jaffle');
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByRole('heading', { name: 'Imported jaffle_shop' }).waitFor({ timeout: 60_000 });
  const counts = page.getByRole('table', { name: 'Items by kind' });
  t.deepEqual(await counts.getByRole('row', { name: /Table documentation/ }).getByRole('cell').allTextContents(), ['19', '0', '0', '0']);
  t.deepEqual(problems, []);
});

test.serial('at phone size a modeler picks an existing environment and is told in plain words what is wrong with a bad file, and nothing is written', async (t) => {
  const { page, problems, token } = await signedIn(t, 'modeler', PHONE);
  const env = await call(w, 'POST', '/api/environments', { token, body: { name: 'dbt bad files', color: '#1e88e5', source_env_id: null } });
  t.is(env.status, 201, JSON.stringify(env.body));
  const before = await environmentCount(token);
  await page.goto('/knowledge/import/dbt');
  // Modelers may not read the connections API; the page lists the catalog's connections instead.
  await page.getByRole('combobox', { name: 'Connection' }).selectOption('jaffle');
  await page.getByRole('combobox', { name: 'Environment' }).selectOption(env.body.id as string);
  const manifestField = page.getByLabel('Manifest (manifest.json)');

  // Nothing chosen: said at once, without a request.
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await page.getByText("Choose the manifest.json file from your dbt project's target folder.").waitFor();

  await manifestField.setInputFiles({ name: 'manifest.json', mimeType: 'application/json', buffer: Buffer.from('{"metadata": ') });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Nothing was imported.' });
  await alert.getByText(/This file is not JSON/).waitFor();
  t.is(await manifestField.getAttribute('aria-invalid'), 'true');
  await checkAccessibility(t, page, 'a refused manifest');
  await noSideScroll(t, page, 'a refused manifest at phone size');

  const old = JSON.parse(readFileSync(MANIFEST, 'utf8')) as { metadata: Record<string, unknown> };
  old.metadata['dbt_schema_version'] = 'https://schemas.getdbt.com/dbt/manifest/v7.json';
  await manifestField.setInputFiles({ name: 'manifest.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(old)) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await alert.getByText(/a dbt version Sextant cannot read \(manifest schema v7\)/).waitFor();
  t.false(await alert.getByText(/dbt_schema_version|value_error|body\./).isVisible(), 'no schema text');

  await manifestField.setInputFiles(MANIFEST);
  const otherProject = { metadata: { dbt_schema_version: 'https://schemas.getdbt.com/dbt/catalog/v1.json', project_name: 'other' }, nodes: { 'model.other.x': { metadata: { name: 'x' }, columns: {} } }, sources: {} };
  await page.getByLabel('Catalog (catalog.json, optional)').setInputFiles({ name: 'catalog.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(otherProject)) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await alert.getByText(/This catalog belongs to another dbt project/).waitFor();
  t.is(await environmentCount(token), before, 'no environment was made');
  t.deepEqual((await call(w, 'GET', `/api/environments/${env.body.id as string}/diff`, { token })).body.files, [], 'nothing was written');
  t.deepEqual(problems, []);
});

test('an analyst sees no way to the import and is turned away at its address', async (t) => {
  const opened = await openPage(t, w.browser, w.url);
  await signInAs(opened.context, DEMO.analyst);
  const { page } = opened;
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  t.is(await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Knowledge' }).count(), 0);
  await page.goto('/knowledge/import/dbt');
  await page.getByText('The knowledge pages are for admins and modelers.', { exact: false }).waitFor();
  t.is(await page.getByRole('button', { name: 'Import', exact: true }).count(), 0);
  t.is(await page.getByLabel('Manifest (manifest.json)').count(), 0);
});

test('an admin of another organization is offered only its own connections and environments, and cannot import into the demo\'s', async (t) => {
  w.org(OTHER_ORG);
  const user = await passwordUser(w, { orgId: OTHER_ORG, role: 'admin' });
  const token = w.session(user);
  const conn = await call(w, 'POST', '/api/connections', { token, body: { id: 'other-wh', name: 'Other shop', type: 'duckdb', settings: { path: 'jaffle_shop.duckdb' } } });
  t.is(conn.status, 201, JSON.stringify(conn.body));
  const demoEnv = await call(w, 'POST', '/api/environments', { token: admin, body: { name: 'demo only', color: '#1e88e5', source_env_id: null } });
  t.is(demoEnv.status, 201, JSON.stringify(demoEnv.body));
  const { page, context } = await openPage(t, w.browser, w.url);
  await signInAs(context, { email: user.email, password: PASSWORD });
  await page.goto('/knowledge/import/dbt');
  const connection = page.getByRole('combobox', { name: 'Connection' });
  await connection.waitFor();
  t.deepEqual(await connection.locator('option').evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value)), ['other-wh']);
  const envs = await page.getByRole('combobox', { name: 'Environment' }).locator('option').allTextContents();
  t.false(envs.some((e) => e.includes('demo only')), 'the demo organization\'s environments are not offered');
  // Naming the demo's environment anyway: refused as not found, nothing written there.
  const res = await call(w, 'POST', '/api/import/dbt', { token, body: { connection_id: 'other-wh', environment_id: demoEnv.body.id, manifest: JSON.parse(readFileSync(MANIFEST, 'utf8')) as unknown } });
  t.is(res.status, 404, JSON.stringify(res.body));
  t.deepEqual((await call(w, 'GET', `/api/environments/${demoEnv.body.id as string}/diff`, { token: admin })).body.files, []);
});
