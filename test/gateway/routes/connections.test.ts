import test from 'ava';
import { duckdbFixture, mysqlFixture, placeOrgFile, postgresFixture, SKIP_MYSQL, SKIP_PG, tempDir } from '../../data/warehouses.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
let root: string;
let fixture: string;
test.before(async () => {
  root = tempDir();
  fixture = (await duckdbFixture()).path!;
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
});

/** A new organization whose warehouse folder holds `files/wh.duckdb`. */
function orgWithFile(): string {
  const org = t0.org();
  placeOrgFile(root, org, 'files/wh.duckdb', fixture);
  return org;
}
test.after.always(() => t0.stop());

const call = (method: string, path: string, token: string, body?: unknown) =>
  t0.fetch(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });

test('an admin creates, lists, gets, updates, tests and deletes a connection; the password is never returned', async (t) => {
  const org = orgWithFile();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  let res = await call('POST', '/api/connections', admin, { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'files/wh.duckdb' }, password: 'hunter2' });
  t.is(res.status, 201);
  const created = (await res.json()) as Record<string, unknown>;
  t.is(created['id'], 'wh');
  t.is(created['has_password'], true);
  t.false(JSON.stringify(created).includes('hunter2'));
  const stored = t0.app.services.store.sqlite!.prepare('SELECT * FROM connections WHERE id = ?').get('wh');
  t.false(JSON.stringify(stored).includes('hunter2'), 'sealed at rest');

  res = await call('GET', '/api/connections', admin);
  t.is(res.status, 200);
  const list = (await res.json()) as { connections: { id: string }[] };
  t.deepEqual(list.connections.map((c) => c.id), ['wh']);
  t.false(JSON.stringify(list).includes('hunter2'));

  res = await call('POST', '/api/connections/wh/test', admin);
  t.is(res.status, 200);
  t.like(await res.json(), { ok: true, table_count: 2 });

  res = await call('PATCH', '/api/connections/wh', admin, { name: 'Renamed', password: null });
  t.is(res.status, 200);
  t.like(await res.json(), { name: 'Renamed', has_password: false });

  res = await call('POST', '/api/connections', admin, { id: 'wh', name: 'Again', type: 'duckdb', settings: { path: 'files/wh.duckdb' } });
  t.is(res.status, 409);

  res = await call('DELETE', '/api/connections/wh', admin);
  t.is(res.status, 200);
  t.is((await call('GET', '/api/connections/wh', admin)).status, 404);
});

test('file paths outside the warehouse folders and missing hosts answer 422 naming the field', async (t) => {
  const admin = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
  let res = await call('POST', '/api/connections', admin, { name: 'x', type: 'sqlite', settings: { path: '/etc/passwd' } });
  t.is(res.status, 422);
  t.deepEqual(((await res.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc, ['body', 'settings', 'path']);
  res = await call('POST', '/api/connections', admin, { name: 'x', type: 'duckdb', settings: { path: '../../sextant.db' } });
  t.is(res.status, 422);
  res = await call('POST', '/api/connections', admin, { name: 'x', type: 'postgresql', settings: {} });
  t.deepEqual(((await res.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc, ['body', 'settings', 'host']);
  res = await call('POST', '/api/connections', admin, { name: 'x', type: 'oracle', settings: {} });
  t.is(res.status, 422);
  // A refused id says what an id may be, in words, not as the pattern that checks it.
  res = await call('POST', '/api/connections', admin, { id: 'Sales DB', name: 'x', type: 'sqlite', settings: { path: 'x.sqlite' } });
  t.deepEqual(((await res.json()) as { detail: { loc: unknown[]; msg: string }[] }).detail[0], { loc: ['body', 'id'], msg: 'Lower-case letters, digits, _ and - (not first), at most 64 characters', type: 'string_pattern_mismatch' });
});

test('a failing connection test answers ok false with the error', async (t) => {
  const admin = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
  await call('POST', '/api/connections', admin, { id: 'bad', name: 'bad', type: 'postgresql', settings: { host: '127.0.0.1', port: 1, user: 'x', database: 'x' } });
  const res = await call('POST', '/api/connections/bad/test', admin);
  t.is(res.status, 200);
  const body = (await res.json()) as { ok: boolean; error: string; code: string; reason: string };
  t.false(body.ok);
  t.truthy(body.error);
  t.like(body, { code: 'WAREHOUSE_UNAVAILABLE', reason: 'unreachable' }, 'nothing listens on port 1');
});

test('a connection test names refused credentials, a missing database and a missing file by their reason', async (t) => {
  const org = orgWithFile();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  await call('POST', '/api/connections', admin, { id: 'gone', name: 'gone', type: 'duckdb', settings: { path: 'files/missing.duckdb' } });
  t.like(await (await call('POST', '/api/connections/gone/test', admin)).json(), { ok: false, code: 'WAREHOUSE_UNAVAILABLE' });
  const f = await postgresFixture();
  if (!f) {
    t.log(SKIP_PG);
    return;
  }
  try {
    // The local server may trust every password: a role it does not know is refused either way.
    await call('POST', '/api/connections', admin, { id: 'pgbad', name: 'pg', type: 'postgresql', settings: { ...f.settings, user: 'no_such_role' }, password: 'not-the-password' });
    t.like(await (await call('POST', '/api/connections/pgbad/test', admin)).json(), { ok: false, code: 'WAREHOUSE_UNAVAILABLE', reason: 'wrong_credentials' });
    await call('POST', '/api/connections', admin, { id: 'pggone', name: 'pg', type: 'postgresql', settings: { ...f.settings, database: 'no_such_database' } });
    t.like(await (await call('POST', '/api/connections/pggone/test', admin)).json(), { ok: false, code: 'WAREHOUSE_UNAVAILABLE', reason: 'unknown_database' });
  } finally {
    await f.drop();
  }
});

test('a MariaDB or MySQL server refusing the user and one without the database are named by their reason', async (t) => {
  const f = await mysqlFixture();
  if (!f) {
    t.log(SKIP_MYSQL);
    t.pass();
    return;
  }
  try {
    const admin = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
    await call('POST', '/api/connections', admin, { id: 'mybad', name: 'my', type: 'mysql', settings: { ...f.settings, user: 'no_such_user' }, password: 'wrong' });
    t.like(await (await call('POST', '/api/connections/mybad/test', admin)).json(), { ok: false, code: 'WAREHOUSE_UNAVAILABLE', reason: 'wrong_credentials' });
    await call('POST', '/api/connections', admin, { id: 'mygone', name: 'my', type: 'mysql', settings: { ...f.settings, database: 'no_such_database' } });
    t.like(await (await call('POST', '/api/connections/mygone/test', admin)).json(), { ok: false, code: 'WAREHOUSE_UNAVAILABLE', reason: 'unknown_database' });
  } finally {
    await f.drop();
  }
});

test('a sync answers what it added, updated and kept', async (t) => {
  const org = orgWithFile();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  await call('POST', '/api/connections', admin, { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'files/wh.duckdb' } });
  let res = await call('POST', '/api/sync/duckdb/wh', admin, {});
  t.is(res.status, 200);
  t.like(await res.json(), { added: ['main.customers', 'main.orders'], updated: [], kept: [] });
  // A documented column whose type the warehouse does not show any more is an update.
  const item = (await (await call('GET', '/api/knowledge/tables/wh%2Fmain.orders', admin)).json()) as { data: { columns: { name: string; type: string }[] } };
  const columns = item.data.columns.map((c) => (c.name === 'country' ? { ...c, type: 'INTEGER' } : c));
  t.is((await call('PUT', '/api/knowledge/tables/wh%2Fmain.orders', admin, { ...item.data, columns })).status, 200);
  res = await call('POST', '/api/sync/duckdb/wh', admin, {});
  t.like(await res.json(), { added: [], updated: ['main.orders'], kept: ['main.customers'] });
});

test('the dependants of a connection are its documented tables, their row filters and the reports on it', async (t) => {
  const org = orgWithFile();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  await call('POST', '/api/connections', admin, { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'files/wh.duckdb' } });
  await call('POST', '/api/connections', admin, { id: 'spare', name: 'Spare', type: 'duckdb', settings: { path: 'files/wh.duckdb' } });
  t.is((await call('POST', '/api/sync/duckdb/wh', admin, {})).status, 200);
  const item = (await (await call('GET', '/api/knowledge/tables/wh%2Fmain.orders', admin)).json()) as { data: Record<string, unknown> };
  const filters = [{ filter: 'country = {{user.country}}' }, { filter: "country <> 'Japan'", exempt_roles: ['admin'] }];
  t.is((await call('PUT', '/api/knowledge/tables/wh%2Fmain.orders', admin, { ...item.data, row_filters: filters })).status, 200);
  t.is((await call('POST', '/api/knowledge/reports?id=revenue', admin, { title: 'Revenue', description: '', sql: 'SELECT 1', connection: 'wh' })).status, 201);
  // Saved questions on it: the organization's are named, a member's private ones only counted.
  const member = t0.session(t0.user({ orgId: org, role: 'user' }));
  const orgQuestions: Record<string, string> = {};
  for (const [token, title, visibility, connection_id] of [
    [admin, 'Orders', 'organization', 'wh'],
    [admin, 'Countries', 'organization', 'wh'],
    [member, 'My secret', 'private', 'wh'],
    [admin, 'Mine', 'private', 'wh'],
    [admin, 'Elsewhere', 'organization', 'spare'],
  ] as const) {
    const saved = await call('POST', '/api/saved_questions', token, { title, connection_id, sql: 'SELECT 1', visibility });
    t.is(saved.status, 201);
    orgQuestions[title] = ((await saved.json()) as { id: string }).id;
  }

  let res = await call('GET', '/api/connections/wh/dependants', admin);
  t.is(res.status, 200);
  t.deepEqual(await res.json(), {
    connection_id: 'wh',
    tables: [
      { schema: 'main', name: 'customers', row_filters: 0 },
      { schema: 'main', name: 'orders', row_filters: 2 },
    ],
    reports: [{ id: 'revenue', title: 'Revenue' }],
    row_filters: 2,
    saved_questions: [{ id: orgQuestions.Countries, title: 'Countries' }, { id: orgQuestions.Orders, title: 'Orders' }],
    private_saved_questions: 2,
  });
  res = await call('GET', '/api/connections/spare/dependants', admin);
  t.deepEqual(await res.json(), { connection_id: 'spare', tables: [], reports: [], row_filters: 0, saved_questions: [{ id: orgQuestions.Elsewhere, title: 'Elsewhere' }], private_saved_questions: 0 });
});

test('the dependants of a connection are admin-only, validated and inside the organization', async (t) => {
  const org = orgWithFile();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  const otherAdmin = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
  await call('POST', '/api/connections', admin, { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'files/wh.duckdb' } });
  t.is((await t0.fetch('/api/connections/wh/dependants')).status, 401);
  t.is((await call('GET', '/api/connections/wh/dependants', modeler)).status, 403);
  t.is((await call('GET', '/api/connections/wh/dependants', otherAdmin)).status, 404);
  t.is((await call('GET', '/api/connections/nope/dependants', admin)).status, 404);
  const res = await call('GET', `/api/connections/${'x'.repeat(101)}/dependants`, admin);
  t.is(res.status, 422);
  const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
  t.deepEqual(body.detail[0]?.loc, ['path', 'connection_id']);
  t.is(typeof body.detail[0]?.msg, 'string');
});

test('a PostgreSQL connection tests ok against the real server', async (t) => {
  const f = await postgresFixture();
  if (!f) {
    t.log(SKIP_PG);
    t.pass();
    return;
  }
  try {
    const admin = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
    await call('POST', '/api/connections', admin, { id: 'pg', name: 'pg', type: 'postgresql', settings: f.settings });
    const res = await call('POST', '/api/connections/pg/test', admin);
    t.like(await res.json(), { ok: true, table_count: 2 });
  } finally {
    await f.drop();
  }
});

test('connections are admin-only and scoped to the organization', async (t) => {
  const org = orgWithFile();
  const other = t0.org();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const otherAdmin = t0.session(t0.user({ orgId: other, role: 'admin' }));
  const modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  await call('POST', '/api/connections', admin, { id: 'mine', name: 'mine', type: 'duckdb', settings: { path: 'files/wh.duckdb' } });
  t.is((await call('GET', '/api/connections', modeler)).status, 403);
  t.is((await call('POST', '/api/connections', modeler, { name: 'x', type: 'duckdb', settings: { path: 'files/wh.duckdb' } })).status, 403);
  t.is((await t0.fetch('/api/connections')).status, 401);
  for (const [m, p] of [['GET', '/api/connections/mine'], ['PATCH', '/api/connections/mine'], ['DELETE', '/api/connections/mine'], ['POST', '/api/connections/mine/test']] as const) {
    t.is((await call(m, p, otherAdmin, m === 'PATCH' ? { name: 'stolen' } : undefined)).status, 404, `${m} ${p}`);
  }
  const list = (await (await call('GET', '/api/connections', otherAdmin)).json()) as { connections: unknown[] };
  t.deepEqual(list.connections, []);
});
