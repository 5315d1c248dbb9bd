// /api/dashboards: who sees and changes what (private dashboards are their owner's alone, publishing
// needs an admin or modeler), tiles run one by one as the viewer through the governed query path,
// with the dashboard's filters applied to tiles whose result has the field and inert when hostile.
import test from 'ava';
import { sql } from 'kysely';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { setUserAttributes } from '../../src/data/rls/index.ts';
import type { UserRow } from '../../src/auth/index.ts';
import Database from 'better-sqlite3';
import { RECENT_RESULT_MS } from '../../src/data/query/recent-results.ts';
import { duckdbFixture, placeOrgFile, sqliteFixture, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { runDashboard, runSharedTile } from '../../src/dashboards/index.ts';
import { SHARED_RUNS } from '../../src/dashboards/share-dashboard.ts';

let t0: TestApp;
const org = 'dborg';
const other = 'dbother';
let admin: string, modeler: string, analyst: string, analyst2: string, otherAdmin: string;
let analystUser: UserRow;
/** A SQLite warehouse of the organization, written by a test while dashboards read it. */
let liteFile: string;
/** Organization questions: orders by day (has order_date and country), countries (has country only), customers (ungoverned). */
let ordersQ: string, countriesQ: string, customersQ: string, privateQ: string;

/** The organization's table docs: orders, each user's country only (admins all). */
const ORDERS_DOCS = [{ connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] }];
let docs: ReturnType<typeof createMemoryTableDocs>;

const FILTERS = [
  { id: 'when', type: 'date_range', field: 'order_date' },
  { id: 'where', type: 'values', field: 'COUNTRY', label: 'Country' },
];

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  placeOrgFile(root, other, 'wh.duckdb', (await duckdbFixture()).path!);
  liteFile = placeOrgFile(root, org, 'lite.sqlite', sqliteFixture().path!);
  docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  t0.org(org);
  t0.org(other);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const m = t0.user({ orgId: org, role: 'modeler' });
  modeler = t0.session(m);
  analystUser = t0.user({ orgId: org, role: 'user' });
  analyst = t0.session(analystUser);
  analyst2 = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: other, role: 'admin' }));
  const x = t0.app.services.executor;
  await setUserAttributes(x, org, m.id, { country: 'Germany' });
  await setUserAttributes(x, org, analystUser.id, { country: 'France' });
  docs.setTables(org, undefined, ORDERS_DOCS);
  for (const [token, id, type, path] of [[admin, 'wh', 'duckdb', 'wh.duckdb'], [otherAdmin, 'wh_other', 'duckdb', 'wh.duckdb'], [admin, 'lite', 'sqlite', 'lite.sqlite']] as const) {
    const res = await call(t0, 'POST', '/api/connections', { token, body: { id, name: `Warehouse ${id}`, type, settings: { path } } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
  const save = async (token: string, title: string, sql: string, visibility = 'organization') => {
    const res = await call(t0, 'POST', '/api/saved_questions', { token, body: { title, connection_id: 'wh', sql, visibility, chart: { mark: 'bar' } } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as string;
  };
  ordersQ = await save(modeler, 'Orders', 'SELECT order_id, country, order_date FROM orders ORDER BY order_id;');
  countriesQ = await save(modeler, 'Countries', 'SELECT country, count(*) AS n FROM orders GROUP BY country ORDER BY country -- per country');
  customersQ = await save(admin, 'Customers', 'SELECT name FROM customers ORDER BY name');
  privateQ = await save(analyst, 'Mine', 'SELECT order_id FROM orders ORDER BY order_id', 'private');
});
test.after.always(() => t0?.stop());

const grid = (i: number) => ({ x: (i % 2) * 6, y: Math.floor(i / 2) * 4, w: 6, h: 4 });
const create = (token: string, body: Record<string, unknown>) => call(t0, 'POST', '/api/dashboards', { token, body: { title: 'Sales', tiles: [], ...body } });
const runTile = (token: string, id: string, tile: string, filters?: unknown[]) =>
  call(t0, 'POST', `/api/dashboards/${id}/tiles/${tile}/run`, { token, body: filters ? { filters } : {} });

/** An organization dashboard of the modeler's: orders, countries, customers and a text tile. */
async function salesDashboard(extra: Record<string, unknown> = {}) {
  const res = await create(modeler, {
    visibility: 'organization',
    filters: FILTERS,
    tiles: [
      { id: 'orders', saved_question_id: ordersQ, ...grid(0) },
      { id: 'countries', saved_question_id: countriesQ, ...grid(1) },
      { id: 'customers', saved_question_id: customersQ, ...grid(2) },
      { id: 'notes', text: 'Numbers of the **quarter**', ...grid(3) },
    ],
    ...extra,
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; tiles: { id: string; question: { title: string } | null }[] };
}

test('a modeler publishes a dashboard; each viewer runs its tiles under their own row filters, with the time the data was read', async (t) => {
  const d = await salesDashboard();
  t.like(d, { title: 'Sales', visibility: 'organization', version: 1 });
  t.deepEqual(d.tiles.map((x) => [x.id, x.question?.title ?? null]), [['orders', 'Orders'], ['countries', 'Countries'], ['customers', 'Customers'], ['notes', null]]);
  const mine = await runTile(analyst, d.id, 'orders');
  t.is(mine.status, 200, JSON.stringify(mine.body));
  t.deepEqual(mine.body.rows.map((r: unknown[]) => r.slice(0, 2)), [[2, 'France'], [5, 'France']]);
  t.like(mine.body, { tile_id: 'orders', read_at: new Date(t0.clock.now()).toISOString(), applied_filters: [] });
  t.deepEqual((await runTile(modeler, d.id, 'orders')).body.rows.map((r: unknown[]) => r[0]), [1, 3]);
  t.is((await runTile(admin, d.id, 'orders')).body.rows.length, 5);
  // Viewers opening it together each get their own rows, whatever execution they share.
  const together = await Promise.all([analyst, modeler, admin, analyst].map((token) => runTile(token, d.id, 'orders')));
  t.deepEqual(together.map((r) => r.body.rows.map((row: unknown[]) => row[0])), [[2, 5], [1, 3], [1, 2, 3, 4, 5], [2, 5]]);
  // A tile's failure stays in its tile: the analyst may not read customers, the other tiles run.
  const refused = await runTile(analyst, d.id, 'customers');
  t.is(refused.status, 400);
  t.like(refused.body, { code: 'QUERY_REFUSED', data: { reason: 'ungoverned_table' } });
  t.is((await runTile(analyst, d.id, 'countries')).status, 200);
  t.is((await runTile(analyst, d.id, 'notes')).status, 404, 'text has nothing to run');
  t.is((await runTile(analyst, d.id, 'nope')).status, 404);
  const listed = await call(t0, 'GET', '/api/dashboards', { token: analyst });
  t.true(listed.body.dashboards.some((x: { id: string; tile_count: number }) => x.id === d.id && x.tile_count === 4));
});

test('filters apply to every tile whose result has the field, through the guard, and only there', async (t) => {
  const d = await salesDashboard();
  const when = { id: 'when', from: '2024-02-01', to: '2024-04-05' };
  const orders = await runTile(admin, d.id, 'orders', [when]);
  t.is(orders.status, 200, JSON.stringify(orders.body));
  t.deepEqual(orders.body.rows.map((r: unknown[]) => r[0]), [2, 3, 4], 'the last day is inclusive');
  t.deepEqual(orders.body.applied_filters, ['when']);
  const countries = await runTile(admin, d.id, 'countries', [when]);
  t.deepEqual(countries.body.applied_filters, [], 'no order_date in its result');
  t.is(countries.body.rows.length, 3);
  const both = await runTile(admin, d.id, 'orders', [when, { id: 'where', values: ['Germany', 'Japan'] }]);
  t.deepEqual(both.body.rows.map((r: unknown[]) => r[0]), [3, 4]);
  t.deepEqual(both.body.applied_filters, ['when', 'where'], 'the field matched whatever its letter case');
  t.deepEqual((await runTile(admin, d.id, 'countries', [{ id: 'where', values: ['Japan'] }])).body.rows, [['Japan', '1']]);
  // Row security still applies under the filter: the analyst asking for Germany sees nothing.
  t.deepEqual((await runTile(analyst, d.id, 'orders', [{ id: 'where', values: ['Germany', 'France'] }])).body.rows.map((r: unknown[]) => r[0]), [2, 5]);
  t.deepEqual((await runTile(analyst, d.id, 'orders', [{ id: 'where', values: ['Germany'] }])).body.rows, []);
});

test('a values filter mixing text and numbers compares each as the column it meets, in every tile', async (t) => {
  const d = await salesDashboard({ filters: [...FILTERS, { id: 'ids', type: 'values', field: 'order_id' }] });
  // A number against the text column country, a numeric text against the number column order_id: no error, the rows that match.
  const mixed = await runTile(admin, d.id, 'orders', [{ id: 'where', values: ['Japan', 7] }, { id: 'ids', values: [4, '5', 'five'] }]);
  t.is(mixed.status, 200, JSON.stringify(mixed.body));
  t.deepEqual(mixed.body.rows.map((r: unknown[]) => r[0]), [4]);
  t.deepEqual(mixed.body.applied_filters, ['where', 'ids']);
  t.deepEqual((await runTile(admin, d.id, 'orders', [{ id: 'ids', values: ['five'] }])).body.rows, [], 'no value can match');
});

test('filter defaults apply until the viewer replaces them; an empty value clears them', async (t) => {
  const d = await salesDashboard({ filters: [{ id: 'when', type: 'date_range', field: 'order_date', default: { from: '2024-03-01' } }, { id: 'where', type: 'values', field: 'country', default: ['Japan'] }] });
  t.deepEqual((await runTile(admin, d.id, 'orders')).body.rows.map((r: unknown[]) => r[0]), [4]);
  t.deepEqual((await runTile(admin, d.id, 'orders', [{ id: 'where', values: [] }])).body.rows.map((r: unknown[]) => r[0]), [3, 4, 5]);
  t.is((await runTile(admin, d.id, 'orders', [{ id: 'where', values: [] }, { id: 'when', from: null, to: null }])).body.rows.length, 5);
});

test('hostile filter values and titles are inert: SQL in them is a value, never SQL', async (t) => {
  const title = "Sales'); DROP TABLE orders; -- <script>alert(1)</script>";
  const d = await salesDashboard({ title });
  t.is((await call(t0, 'GET', `/api/dashboards/${d.id}`, { token: analyst })).body.title, title);
  for (const value of ["France' OR '1'='1", "x') OR 1=1 --", "'; DROP TABLE orders; --", 'France\\', "France'||'", '1) UNION SELECT name, name, name FROM customers --']) {
    const res = await runTile(analyst, d.id, 'orders', [{ id: 'where', values: [value] }]);
    t.is(res.status, 200, `${value}: ${JSON.stringify(res.body)}`);
    t.deepEqual(res.body.rows, [], value);
  }
  t.is((await runTile(admin, d.id, 'orders')).body.rows.length, 5, 'the table is intact');
  // Dates, field names and NUL characters (PostgreSQL cannot bind one) are checked before anything is written.
  for (const filters of [[{ id: 'when', from: "2024-01-01' OR 1=1 --" }], [{ id: 'when', to: '2024-02-30' }], [{ id: 'where', values: [{ sql: '1' }] }], [{ id: 'where', values: ['Fr\0ance'] }]]) {
    const res = await runTile(analyst, d.id, 'orders', filters);
    t.is(res.status, 422, JSON.stringify(filters));
    t.deepEqual(res.body.detail[0].loc.slice(0, 3), ['body', 'filters', 0]);
  }
  const badField = await create(modeler, { filters: [{ id: 'f', type: 'values', field: 'country" OR 1=1 --' }] });
  t.is(badField.status, 422);
  t.deepEqual(badField.body.detail[0].loc, ['body', 'filters', 0, 'field']);
  const unknown = await runTile(analyst, d.id, 'orders', [{ id: 'nope', values: ['x'] }]);
  t.is(unknown.status, 422);
  t.deepEqual(unknown.body.detail[0].loc, ['body', 'filters', 0, 'id']);
});

test('a placeholder in a saved question is refused in its tile, with or without filter values to bind', async (t) => {
  const res = await call(t0, 'POST', '/api/saved_questions', {
    token: modeler,
    body: { title: 'Smuggler', connection_id: 'wh', sql: 'SELECT order_id, country, order_date FROM orders WHERE country <> $1', visibility: 'organization' },
  });
  t.like(res, { status: 400, body: { code: 'QUERY_REFUSED', data: { reason: 'parameter' } } }, 'refused as it is saved');
  // One kept from before a stricter guard (written into the store) meets it again in its tile.
  const saved = await call(t0, 'POST', '/api/saved_questions', { token: modeler, body: { title: 'Smuggler', connection_id: 'wh', sql: 'SELECT 1', visibility: 'organization' } });
  await t0.app.services.executor.run(sql`UPDATE saved_questions SET sql = ${'SELECT order_id, country, order_date FROM orders WHERE country <> $1'} WHERE id = ${saved.body.id}`);
  const d = await salesDashboard({ tiles: [{ id: 'smuggler', saved_question_id: saved.body.id, ...grid(0) }, { id: 'orders', saved_question_id: ordersQ, ...grid(1) }] });
  for (const filters of [undefined, [{ id: 'where', values: ['Japan'] }], [{ id: 'where', values: ['Japan', 'France'] }, { id: 'when', from: '2024-01-01' }]]) {
    const run = await runTile(admin, d.id, 'smuggler', filters);
    t.is(run.status, 400, JSON.stringify(filters));
    t.like(run.body, { code: 'QUERY_REFUSED', data: { reason: 'parameter' } });
  }
  t.deepEqual((await runTile(admin, d.id, 'orders', [{ id: 'where', values: ['Japan'] }])).body.rows.map((r: unknown[]) => r[0]), [4], 'the other tile binds its values');
});

test('the list is searched by title or description and read a page at a time; no one sees another\'s private dashboard in it', async (t) => {
  // No other test titles a dashboard with 'zebra'.
  const shared = (await create(modeler, { title: 'Zebra crossings', visibility: 'organization' })).body.id as string;
  const described = (await create(modeler, { title: 'Traffic', description: 'Counts at every ZEBRA', visibility: 'organization' })).body.id as string;
  const own = (await create(analyst, { title: 'My zebra' })).body.id as string;
  const ids = async (token: string, query: string) => {
    const res = await call(t0, 'GET', `/api/dashboards?${query}`, { token });
    t.is(res.status, 200, query);
    return res.body as { dashboards: { id: string }[]; next_cursor: string | null };
  };
  const sorted = (page: { dashboards: { id: string }[] }) => page.dashboards.map((d) => d.id).sort();
  t.deepEqual(sorted(await ids(analyst, 'q=zebra')), [shared, described, own].sort());
  t.deepEqual(sorted(await ids(analyst2, 'q=ZEBRA')), [shared, described].sort(), 'not another analyst\'s private one');
  t.deepEqual(sorted(await ids(otherAdmin, 'q=zebra')), [], 'nor another organization\'s');
  const first = await ids(analyst, 'q=zebra&limit=2');
  const rest = await ids(analyst, `q=zebra&limit=2&cursor=${first.next_cursor}`);
  t.is(rest.next_cursor, null);
  t.deepEqual([...sorted(first), ...sorted(rest)].sort(), [shared, described, own].sort(), 'each once across the pages');
  t.is((await ids(analyst, '')).next_cursor, null, 'without a limit, every one at once');
  for (const query of ['limit=0', 'limit=501', `q=${'x'.repeat(201)}`, 'cursor=not-a-cursor']) {
    const bad = await call(t0, 'GET', `/api/dashboards?${query}`, { token: analyst });
    t.is(bad.status, 422, query);
    t.is(bad.body.detail[0].loc[0], 'query');
  }
});

test("another user's private dashboard is 404 to everyone else, admins and other organizations included", async (t) => {
  const res = await create(analyst, { tiles: [{ id: 'mine', saved_question_id: privateQ, ...grid(0) }] });
  t.is(res.status, 201, JSON.stringify(res.body));
  const id = res.body.id as string;
  t.deepEqual((await runTile(analyst, id, 'mine')).body.rows, [[2], [5]]);
  for (const token of [analyst2, modeler, admin, otherAdmin]) {
    t.is((await call(t0, 'GET', `/api/dashboards/${id}`, { token })).status, 404);
    t.is((await runTile(token, id, 'mine')).status, 404);
    t.is((await call(t0, 'PATCH', `/api/dashboards/${id}`, { token, body: { title: 'Mine' } })).status, 404);
    t.is((await call(t0, 'DELETE', `/api/dashboards/${id}`, { token })).status, 404);
    t.false((await call(t0, 'GET', '/api/dashboards', { token })).body.dashboards.some((x: { id: string }) => x.id === id));
  }
  t.is((await call(t0, 'GET', '/api/dashboards/db_missing', { token: analyst })).status, 404);
});

test('a tile whose saved question the viewer cannot read shows no question and answers 404, the others run', async (t) => {
  // Nobody pins a question they may not read, admins included.
  t.is((await create(admin, { tiles: [{ saved_question_id: privateQ, ...grid(0) }] })).status, 404, "another user's private question cannot be pinned");
  t.is((await create(otherAdmin, { tiles: [{ saved_question_id: ordersQ, ...grid(0) }] })).status, 404, "another organization's question");
  // A question made private after it was pinned: its tile stays, unreadable to others.
  const q = (await call(t0, 'POST', '/api/saved_questions', { token: modeler, body: { title: 'Soon private', connection_id: 'wh', sql: 'SELECT 1 AS one', visibility: 'organization' } })).body.id as string;
  const d = (await create(modeler, { visibility: 'organization', tiles: [{ id: 'soon', saved_question_id: q, ...grid(0) }, { id: 'orders', saved_question_id: ordersQ, ...grid(1) }] })).body;
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${q}`, { token: modeler, body: { visibility: 'private' } })).status, 200);
  const seen = await call(t0, 'GET', `/api/dashboards/${d.id}`, { token: analyst });
  t.deepEqual(seen.body.tiles.map((x: { id: string; question: unknown }) => [x.id, x.question === null]), [['soon', true], ['orders', false]]);
  const hidden = await runTile(analyst, d.id, 'soon');
  t.is(hidden.status, 404);
  t.is(hidden.body.code, 'SAVED_QUESTION_NOT_FOUND');
  t.is((await runTile(analyst, d.id, 'orders')).status, 200);
  t.is((await runTile(modeler, d.id, 'soon')).status, 200, 'its owner still runs it');
});

test('an analyst cannot publish; readers do not edit; the owner and admins do', async (t) => {
  const refused = await create(analyst, { visibility: 'organization' });
  t.is(refused.status, 403);
  t.is(refused.body.code, 'PUBLISH_FORBIDDEN');
  const own = (await create(analyst, {})).body.id as string;
  t.is((await call(t0, 'PATCH', `/api/dashboards/${own}`, { token: analyst, body: { visibility: 'organization' } })).status, 403);
  const d = await salesDashboard();
  t.is((await call(t0, 'PATCH', `/api/dashboards/${d.id}`, { token: analyst, body: { title: 'Mine' } })).status, 403);
  t.is((await call(t0, 'DELETE', `/api/dashboards/${d.id}`, { token: analyst })).status, 403);
  const edited = await call(t0, 'PATCH', `/api/dashboards/${d.id}`, { token: admin, body: { title: 'Checked', tiles: [{ id: 'orders', saved_question_id: ordersQ, x: 0, y: 0, w: 12, h: 6 }] } });
  t.is(edited.status, 200, JSON.stringify(edited.body));
  t.like(edited.body, { version: 2, title: 'Checked', filters: FILTERS });
  t.deepEqual(edited.body.tiles.map((x: { id: string; w: number }) => [x.id, x.w]), [['orders', 12]]);
  t.is((await call(t0, 'DELETE', `/api/dashboards/${d.id}`, { token: admin })).status, 200);
  t.is((await call(t0, 'GET', `/api/dashboards/${d.id}`, { token: modeler })).status, 404);
});

test('a read-only link runs the tiles as the sharer, says so, and answers 404 once revoked', async (t) => {
  const d = await salesDashboard();
  t.is((await call(t0, 'POST', `/api/dashboards/${d.id}/shares`, { token: analyst })).status, 403, 'readers do not share');
  t.is((await call(t0, 'POST', `/api/dashboards/${d.id}/shares`, { token: otherAdmin })).status, 404);
  const made = await call(t0, 'POST', `/api/dashboards/${d.id}/shares`, { token: modeler });
  t.is(made.status, 201, JSON.stringify(made.body));
  const share = made.body.share_id as string;
  t.regex(share, /^[A-Za-z0-9_-]{22}$/);
  t.false(share.includes(d.id));
  t.true((made.body.page_url as string).endsWith(`/shared-dashboard/${share}`));
  const view = await call(t0, 'GET', `/api/dashboard_shares/${share}`);
  t.is(view.status, 200);
  t.like(view.body, { title: 'Sales', runs_as: 'sharer' });
  t.is(view.body.owner_id, undefined, 'no ids of people on the public view');
  // The modeler's row filter (Germany) applies, whoever opens the link.
  const rows = await call(t0, 'POST', `/api/dashboard_shares/${share}/tiles/orders/run`, { body: { filters: [{ id: 'when', from: '2024-03-01' }] } });
  t.is(rows.status, 200, JSON.stringify(rows.body));
  t.deepEqual(rows.body.rows.map((r: unknown[]) => r[0]), [3]);
  t.is((await call(t0, 'POST', `/api/dashboard_shares/${share}/tiles/orders/run`, { token: admin, body: {} })).body.rows.length, 2, "a signed-in admin still sees the sharer's rows");
  t.is((await call(t0, 'POST', `/api/dashboard_shares/${share}/tiles/customers/run`, { body: {} })).status, 400, "the sharer's refusals too");
  const listed = await call(t0, 'GET', `/api/dashboards/${d.id}/shares`, { token: modeler });
  t.deepEqual(listed.body.shares.map((x: { share_id: string }) => x.share_id), [share]);
  t.is((await call(t0, 'GET', `/api/dashboards/${d.id}/shares`, { token: analyst })).status, 403);
  t.is((await call(t0, 'DELETE', `/api/dashboards/${d.id}/shares/${share}`, { token: analyst })).status, 403);
  t.is((await call(t0, 'DELETE', `/api/dashboards/${d.id}/shares/${share}`, { token: modeler })).status, 200);
  t.is((await call(t0, 'DELETE', `/api/dashboards/${d.id}/shares/${share}`, { token: modeler })).status, 404);
  t.is((await call(t0, 'GET', `/api/dashboard_shares/${share}`)).status, 404, 'revoked');
  t.is((await call(t0, 'POST', `/api/dashboard_shares/${share}/tiles/orders/run`, { body: {} })).status, 404);
  t.is((await call(t0, 'GET', '/api/dashboard_shares/not-a-link')).status, 404);
});

test.serial('a link runs at most its ceiling of tiles a minute, then answers 429 until the minute is over', async (t) => {
  const d = await salesDashboard();
  const share = (await call(t0, 'POST', `/api/dashboards/${d.id}/shares`, { token: modeler })).body.share_id as string;
  // Serial: it moves the shared clock on. Runs of a missing tile count as well and cost no query: spend the minute's ceiling with them.
  for (let i = 0; i < SHARED_RUNS.max; i++) await t.throwsAsync(runSharedTile(t0.app.services.dashboards, share, { tileId: 'missing' }), { code: 'DASHBOARD_TILE_NOT_FOUND' });
  const over = await call(t0, 'POST', `/api/dashboard_shares/${share}/tiles/orders/run`, { body: {} });
  t.is(over.status, 429);
  t.is((await runTile(modeler, d.id, 'orders')).status, 200, 'signed-in viewers are not held back by a link');
  t0.clock.advance(SHARED_RUNS.windowMs);
  t.is((await call(t0, 'POST', `/api/dashboard_shares/${share}/tiles/orders/run`, { body: {} })).status, 200, 'the next minute');
});

test.serial('a tile may get the rows another viewer read seconds ago, with their read time; a refresh reads afresh', async (t) => {
  // Serial: it moves the shared clock on.
  const q = await call(t0, 'POST', '/api/saved_questions', { token: admin, body: { title: 'Orders', connection_id: 'lite', sql: 'SELECT count(*) AS n FROM orders', visibility: 'organization' } });
  const d = (await create(admin, { visibility: 'organization', tiles: [{ id: 'n', saved_question_id: q.body.id, ...grid(0) }] })).body as { id: string };
  const admin2 = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const insert = (id: number) => {
    const db = new Database(liteFile);
    db.prepare("INSERT INTO orders VALUES (?, 1, 'Germany', 1.00, '2024-06-01')").run(id);
    db.close();
  };
  const tile = async (token: string, body: Record<string, unknown> = {}) => {
    const r = await call(t0, 'POST', `/api/dashboards/${d.id}/tiles/n/run`, { token, body });
    t.is(r.status, 200, JSON.stringify(r.body));
    return [Number(r.body.rows[0][0]), r.body.read_at as string];
  };
  const first = new Date(t0.clock.now()).toISOString();
  t.deepEqual(await tile(admin), [5, first]);
  insert(6);
  t0.clock.advance(1000);
  const later = new Date(t0.clock.now()).toISOString();
  t.deepEqual(await tile(admin2), [5, first], 'the rows read a second ago, saying when');
  t.deepEqual(await tile(admin2, { refresh: true }), [6, later], 'read afresh');
  t.deepEqual(await tile(admin), [6, later], 'the refreshed rows are the recent ones now');
  insert(7);
  t0.clock.advance(RECENT_RESULT_MS);
  t.deepEqual(await tile(admin), [7, new Date(t0.clock.now()).toISOString()], 'too old to serve');
});

test("a link stops working when its sharer can no longer read the dashboard", async (t) => {
  const d = (await create(analyst, { tiles: [{ id: 'mine', saved_question_id: privateQ, ...grid(0) }] })).body;
  const share = (await call(t0, 'POST', `/api/dashboards/${d.id}/shares`, { token: analyst })).body.share_id as string;
  t.deepEqual((await call(t0, 'POST', `/api/dashboard_shares/${share}/tiles/mine/run`, { body: {} })).body.rows, [[2], [5]]);
  // An admin's link to an organization dashboard dies with the dashboard's move to its owner's private space.
  const o = await salesDashboard();
  const adminShare = (await call(t0, 'POST', `/api/dashboards/${o.id}/shares`, { token: admin })).body.share_id as string;
  t.is((await call(t0, 'GET', `/api/dashboard_shares/${adminShare}`)).status, 200);
  t.is((await call(t0, 'PATCH', `/api/dashboards/${o.id}`, { token: modeler, body: { visibility: 'private' } })).status, 200);
  t.is((await call(t0, 'GET', `/api/dashboard_shares/${adminShare}`)).status, 404);
  t.is((await call(t0, 'DELETE', `/api/dashboards/${d.id}`, { token: analyst })).status, 200);
  t.is((await call(t0, 'GET', `/api/dashboard_shares/${share}`)).status, 404, 'gone with the dashboard');
});

test('runDashboard runs every tile as the given user, each failure kept in its tile', async (t) => {
  const d = await salesDashboard();
  const r = await runDashboard(t0.app.services.dashboards, { organizationId: org, userId: analystUser.id, dashboardId: d.id, filters: [{ id: 'where', values: ['France'] }] });
  t.is(r.title, 'Sales');
  t.deepEqual(
    r.tiles.map((x) => [x.id, x.title, x.rows.length, x.error?.code ?? null]),
    [['orders', 'Orders', 2, null], ['countries', 'Countries', 1, null], ['customers', 'Customers', 0, 'QUERY_REFUSED'], ['notes', null, 0, null]],
  );
  t.deepEqual(r.tiles[0]!.chart, { mark: 'bar' });
  t.is(r.tiles[0]!.read_at, new Date(t0.clock.now()).toISOString());
  t.is(r.tiles[3]!.text, 'Numbers of the **quarter**');
  await t.throwsAsync(runDashboard(t0.app.services.dashboards, { organizationId: other, userId: analystUser.id, dashboardId: d.id }), { code: 'DASHBOARD_NOT_FOUND' });
});

test('invalid bodies answer 422 in the HTTPValidationError shape, naming the field', async (t) => {
  const cases: [Record<string, unknown>, (string | number)[]][] = [
    [{ title: '' }, ['body', 'title']],
    [{ tiles: undefined }, ['body', 'tiles']],
    [{ visibility: 'everyone' }, ['body', 'visibility']],
    [{ tiles: [{ saved_question_id: ordersQ, x: 12, y: 0, w: 6, h: 4 }] }, ['body', 'tiles', 0]],
    [{ tiles: [{ id: 'a', text: 'x', ...grid(0) }, { id: 'a', text: 'y', ...grid(1) }] }, ['body', 'tiles', 1, 'id']],
    [{ filters: [{ id: 'f', type: 'between', field: 'x' }] }, ['body', 'filters', 0, 'type']],
    [{ filters: [{ id: 'f', type: 'date_range', field: 'd', default: { from: 'yesterday' } }] }, ['body', 'filters', 0, 'default', 'from']],
  ];
  for (const [body, loc] of cases) {
    const res = await create(analyst, body);
    t.is(res.status, 422, JSON.stringify(body));
    t.true(Array.isArray(res.body.detail));
    t.deepEqual(res.body.detail[0].loc.slice(0, loc.length), loc, JSON.stringify(res.body.detail));
    t.is(typeof res.body.detail[0].msg, 'string');
  }
  const id = (await create(analyst, {})).body.id as string;
  const patch = await call(t0, 'PATCH', `/api/dashboards/${id}`, { token: analyst, body: { title: ' ' } });
  t.is(patch.status, 422);
  t.deepEqual(patch.body.detail[0].loc, ['body', 'title']);
  const run = await call(t0, 'POST', `/api/dashboards/${id}/tiles/t/run`, { token: analyst, body: { refresh: 'yes' } });
  t.is(run.status, 422);
  t.deepEqual(run.body.detail[0].loc, ['body', 'refresh']);
});

test('every route answers 401 without a credential', async (t) => {
  for (const [method, path] of [
    ['GET', '/api/dashboards'],
    ['POST', '/api/dashboards'],
    ['GET', '/api/dashboards/x'],
    ['PATCH', '/api/dashboards/x'],
    ['DELETE', '/api/dashboards/x'],
    ['POST', '/api/dashboards/x/tiles/t/run'],
    ['POST', '/api/dashboards/x/run'],
    ['POST', '/api/dashboards/x/shares'],
    ['GET', '/api/dashboards/x/shares'],
    ['DELETE', '/api/dashboards/x/shares/s'],
  ] as const) {
    t.is((await call(t0, method, path, method === 'POST' || method === 'PATCH' ? { body: {} } : {})).status, 401, `${method} ${path}`);
  }
});

test('the routes are documented in the OpenAPI document', async (t) => {
  const doc = (await call(t0, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  t.deepEqual(Object.keys(doc.paths['/api/dashboards'] ?? {}).sort(), ['get', 'post']);
  t.deepEqual(Object.keys(doc.paths['/api/dashboards/{id}'] ?? {}).sort(), ['delete', 'get', 'patch']);
  t.truthy(doc.paths['/api/dashboards/{id}/tiles/{tile_id}/run']?.['post']);
  const components = (doc as unknown as { components: { schemas: Record<string, { properties: Record<string, { type: string }> }> } }).components;
  t.is(components.schemas['Body_run_dashboard_tile']?.properties['refresh']?.type, 'boolean');
  t.deepEqual(Object.keys(doc.paths['/api/dashboards/{id}/shares'] ?? {}).sort(), ['get', 'post']);
  t.truthy(doc.paths['/api/dashboards/{id}/shares/{share_id}']?.['delete']);
  t.truthy(doc.paths['/api/dashboard_shares/{share_id}']?.['get']);
  t.truthy(doc.paths['/api/dashboard_shares/{share_id}/tiles/{tile_id}/run']?.['post']);
  t.truthy(doc.paths['/api/dashboards/{id}/run']?.['post']);
  t.truthy(doc.paths['/api/dashboard_shares/{share_id}/run']?.['post']);
});

/** A whole-dashboard run: its status, and its JSON lines by tile id (the order they finished in kept in `order`). */
async function runAll(path: string, token: string | undefined, body: unknown = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers['authorization'] = `Bearer ${token}`;
  const res = await t0.fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, type: res.headers.get('content-type'), body: JSON.parse(text), tiles: {} as Record<string, any>, order: [] as string[] }; // eslint-disable-line @typescript-eslint/no-explicit-any
  const lines = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { tile_id: string } & Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
  return { status: res.status, type: res.headers.get('content-type'), body: undefined, tiles: Object.fromEntries(lines.map((l) => [l.tile_id, l])), order: lines.map((l) => l.tile_id) };
}

test('POST /api/dashboards/{id}/run streams every question tile as the viewer, each error kept in its tile', async (t) => {
  const d = await salesDashboard();
  const mine = await runAll(`/api/dashboards/${d.id}/run`, analyst, { filters: [{ id: 'where', values: ['France'] }] });
  t.is(mine.status, 200);
  t.is(mine.type, 'application/x-ndjson');
  t.deepEqual([...mine.order].sort(), ['countries', 'customers', 'orders'], 'one line per question tile, none for text');
  t.like(mine.tiles['orders'], { status: 200, read_at: new Date(t0.clock.now()).toISOString(), truncated: false, applied_filters: ['where'] });
  t.deepEqual(mine.tiles['orders'].rows.map((r: unknown[]) => r.slice(0, 2)), [[2, 'France'], [5, 'France']], "the analyst's row security");
  t.deepEqual(mine.tiles['countries'].columns.map((c: { name: string }) => c.name), ['country', 'n']);
  // The same error the single-tile route answers, in its tile.
  const single = await runTile(analyst, d.id, 'customers');
  t.deepEqual(mine.tiles['customers'], { tile_id: 'customers', status: single.status, error: single.body });
  // Each viewer their own rows.
  t.deepEqual((await runAll(`/api/dashboards/${d.id}/run`, modeler)).tiles['orders'].rows.map((r: unknown[]) => r[0]), [1, 3]);
  const all = await runAll(`/api/dashboards/${d.id}/run`, admin);
  t.is(all.tiles['orders'].rows.length, 5);
  t.is(all.tiles['customers'].status, 200, 'admins read ungoverned tables');
});

test('viewers whose row security differs open a dashboard at once: each line is what the single-tile route answers that viewer, never another viewer\'s rows', async (t) => {
  const d = await salesDashboard();
  const viewers = [analyst, modeler, admin, analyst, modeler, admin];
  const body = { filters: [{ id: 'when', from: '2024-01-01' }] };
  // Together, so that identical statements share executions and results where (and only where) governance made them identical.
  const runs = await Promise.all(viewers.map((token) => runAll(`/api/dashboards/${d.id}/run`, token, body)));
  const single = await Promise.all(viewers.map((token) => Promise.all(['orders', 'countries', 'customers'].map((tile) => runTile(token, d.id, tile, body.filters)))));
  runs.forEach((r, v) => {
    t.is(r.status, 200);
    t.deepEqual([...r.order].sort(), ['countries', 'customers', 'orders'], 'every question tile exactly once');
    ['orders', 'countries', 'customers'].forEach((tile, i) => {
      const one = single[v]![i]!;
      if (one.status !== 200) return t.deepEqual(r.tiles[tile], { tile_id: tile, status: one.status, error: one.body });
      const { read_at: _r, status, ...line } = r.tiles[tile];
      const { read_at: _s, ...alone } = one.body;
      t.is(status, 200);
      t.deepEqual(line, alone, `${tile} for viewer ${v}`);
    });
  });
  const ids = (v: number) => runs[v]!.tiles['orders'].rows.map((row: unknown[]) => row[0]);
  t.deepEqual([ids(0), ids(1), ids(2)], [[2, 5], [1, 3], [1, 2, 3, 4, 5]], "each viewer's own row security");
  t.deepEqual([ids(3), ids(4), ids(5)], [ids(0), ids(1), ids(2)]);
  t.deepEqual(runs[0]!.tiles['countries'].rows.map((r: unknown[]) => r[0]), ['France']);
  t.deepEqual(runs[1]!.tiles['countries'].rows.map((r: unknown[]) => r[0]), ['Germany']);
});

test.serial('a row filter changed in the knowledge applies from the next whole-dashboard run on', async (t) => {
  // Serial: it changes the organization's table docs for a moment.
  const d = await salesDashboard();
  const before = await runAll(`/api/dashboards/${d.id}/run`, analyst, { refresh: true });
  t.deepEqual(before.tiles['orders'].rows.map((r: unknown[]) => r[0]), [2, 5]);
  docs.setTables(org, undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: "country = 'Germany'", exempt_roles: ['admin'] }] }]);
  try {
    const after = await runAll(`/api/dashboards/${d.id}/run`, analyst);
    t.deepEqual(after.tiles['orders'].rows.map((r: unknown[]) => r[0]), [1, 3], 'no rows read under the old filter');
    t.deepEqual(after.tiles['countries'].rows.map((r: unknown[]) => r[0]), ['Germany']);
  } finally {
    docs.setTables(org, undefined, ORDERS_DOCS);
    // The rows read here are no recent result for the tests that follow.
    t0.clock.advance(RECENT_RESULT_MS);
  }
});

test('a whole-dashboard run: a tile whose question the viewer cannot read answers 404 in its line, the others run', async (t) => {
  const q = (await call(t0, 'POST', '/api/saved_questions', { token: modeler, body: { title: 'Hidden later', connection_id: 'wh', sql: 'SELECT 1 AS one', visibility: 'organization' } })).body.id as string;
  const d = (await create(modeler, { visibility: 'organization', tiles: [{ id: 'soon', saved_question_id: q, ...grid(0) }, { id: 'again', saved_question_id: q, ...grid(1) }, { id: 'orders', saved_question_id: ordersQ, ...grid(2) }] })).body;
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${q}`, { token: modeler, body: { visibility: 'private' } })).status, 200);
  const r = await runAll(`/api/dashboards/${d.id}/run`, analyst);
  t.like(r.tiles['soon'], { status: 404, error: { code: 'SAVED_QUESTION_NOT_FOUND' } });
  t.like(r.tiles['again'], { status: 404, error: { code: 'SAVED_QUESTION_NOT_FOUND' } });
  t.is(r.tiles['orders'].status, 200);
  t.deepEqual((await runAll(`/api/dashboards/${d.id}/run`, modeler)).tiles['again'].rows, [[1]], 'its owner runs it');
});

test('a whole-dashboard run answers 401, 404 (missing, private, other organization) and 422 before any tile', async (t) => {
  const d = await salesDashboard();
  t.is((await runAll(`/api/dashboards/${d.id}/run`, undefined)).status, 401);
  t.is((await runAll('/api/dashboards/missing/run', analyst)).status, 404);
  const other = await runAll(`/api/dashboards/${d.id}/run`, otherAdmin);
  t.is(other.status, 404);
  t.is(other.body.code, 'DASHBOARD_NOT_FOUND');
  const own = (await create(analyst, { tiles: [{ id: 'mine', saved_question_id: privateQ, ...grid(0) }] })).body.id as string;
  t.is((await runAll(`/api/dashboards/${own}/run`, admin)).status, 404, "another user's private dashboard, admins included");
  t.deepEqual((await runAll(`/api/dashboards/${own}/run`, analyst)).tiles['mine'].rows, [[2], [5]]);
  const bad = await runAll(`/api/dashboards/${d.id}/run`, analyst, { refresh: 'yes' });
  t.is(bad.status, 422);
  t.deepEqual(bad.body.detail[0].loc, ['body', 'refresh']);
  t.is(typeof bad.body.detail[0].msg, 'string');
  const unknownFilter = await runAll(`/api/dashboards/${d.id}/run`, analyst, { filters: [{ id: 'nope', values: ['x'] }] });
  t.is(unknownFilter.status, 422, 'a filter the dashboard lacks');
  t.true(Array.isArray(unknownFilter.body.detail));
});

test('a shared link runs the whole dashboard as the sharer, and answers 404 once revoked', async (t) => {
  const d = await salesDashboard();
  const share = (await call(t0, 'POST', `/api/dashboards/${d.id}/shares`, { token: modeler })).body.share_id as string;
  const r = await runAll(`/api/dashboard_shares/${share}/run`, undefined, { filters: [{ id: 'when', from: '2024-03-01' }] });
  t.is(r.status, 200);
  t.deepEqual(r.tiles['orders'].rows.map((x: unknown[]) => x[0]), [3], "the modeler's row security and the filter");
  t.is(r.tiles['customers'].status, 400, "the sharer's refusals too");
  t.deepEqual((await runAll(`/api/dashboard_shares/${share}/run`, admin)).tiles['orders'].rows.map((x: unknown[]) => x[0]), [1, 3], 'a signed-in admin still sees the sharer\'s rows');
  t.is((await runAll(`/api/dashboard_shares/${share}/run`, undefined, { refresh: 1 })).status, 422);
  t.is((await call(t0, 'DELETE', `/api/dashboards/${d.id}/shares/${share}`, { token: modeler })).status, 200);
  t.is((await runAll(`/api/dashboard_shares/${share}/run`, undefined)).status, 404);
});

test.serial('a whole-dashboard run may serve rows read seconds ago; with refresh it reads afresh', async (t) => {
  // Serial: it moves the shared clock on.
  const q = await call(t0, 'POST', '/api/saved_questions', { token: admin, body: { title: 'Count', connection_id: 'lite', sql: 'SELECT count(*) AS n, 1 AS whole FROM orders', visibility: 'organization' } });
  const d = (await create(admin, { visibility: 'organization', tiles: [{ id: 'n', saved_question_id: q.body.id, ...grid(0) }] })).body as { id: string };
  const count = async (body: Record<string, unknown> = {}) => {
    const r = (await runAll(`/api/dashboards/${d.id}/run`, admin, body)).tiles['n'];
    return [Number(r.rows[0][0]), r.read_at as string];
  };
  const [n, first] = await count();
  const db = new Database(liteFile);
  db.prepare("INSERT INTO orders VALUES (?, 1, 'Germany', 1.00, '2024-06-01')").run(1000 + Number(n));
  db.close();
  t0.clock.advance(1000);
  t.deepEqual(await count(), [n, first], 'the rows read a second ago, saying when');
  t.deepEqual(await count({ refresh: true }), [Number(n) + 1, new Date(t0.clock.now()).toISOString()], 'read afresh');
});
