import test from 'ava';
import { duckdbFixture, placeOrgFile, postgresFixture, SKIP_PG, tempDir } from '../../data/warehouses.ts';
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
});

test('a failing connection test answers ok false with the error', async (t) => {
  const admin = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
  await call('POST', '/api/connections', admin, { id: 'bad', name: 'bad', type: 'postgresql', settings: { host: '127.0.0.1', port: 1, user: 'x', database: 'x' } });
  const res = await call('POST', '/api/connections/bad/test', admin);
  t.is(res.status, 200);
  const body = (await res.json()) as { ok: boolean; error: string };
  t.false(body.ok);
  t.truthy(body.error);
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
