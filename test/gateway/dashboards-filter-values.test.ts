// Filter values at the API: a tile's column names do not depend on whether a filter is set (columns
// differing only by letter case keep their names on every dialect), a join's two columns of one name
// take a filter, a date
// range may end on 9999-12-31 (no end), and a value of the other kind than its filter is refused.
import test from 'ava';
import { duckdbFixture, mysqlFixture, placeOrgFile, postgresFixture, sqliteFixture, SKIP_MYSQL, SKIP_PG, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
const org = 'fvorg';
let admin: string, otherAdmin: string;
const drops: (() => Promise<void>)[] = [];
/** The connections of the organization by dialect; absent when the server is not reachable. */
const connections: Record<string, string | undefined> = {};

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  placeOrgFile(root, org, 'lite.sqlite', sqliteFixture().path!);
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  t0.org(org);
  t0.org('fvother');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  otherAdmin = t0.session(t0.user({ orgId: 'fvother', role: 'admin' }));
  const pg = await postgresFixture();
  const my = await mysqlFixture();
  for (const f of [pg, my]) if (f) drops.push(f.drop);
  const made: [string, string, Record<string, unknown> | undefined][] = [
    ['duckdb', 'duckdb', { path: 'wh.duckdb' }],
    ['sqlite', 'sqlite', { path: 'lite.sqlite' }],
    ['postgresql', 'postgresql', pg?.settings as Record<string, unknown> | undefined],
    ['mysql', 'mysql', my?.settings as Record<string, unknown> | undefined],
  ];
  for (const [id, type, settings] of made) {
    if (!settings) continue;
    const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id, name: id, type, settings } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    connections[id] = id;
  }
});
test.after.always(async () => {
  await t0?.stop();
  for (const drop of drops) await drop();
});

async function dashboard(connection: string, sql: string, filters: unknown[]): Promise<string> {
  const q = await call(t0, 'POST', '/api/saved_questions', { token: admin, body: { title: 'Q', connection_id: connection, sql, visibility: 'organization' } });
  if (q.status !== 201) throw new Error(JSON.stringify(q.body));
  const d = await call(t0, 'POST', '/api/dashboards', { token: admin, body: { title: 'D', visibility: 'organization', filters, tiles: [{ id: 'q', saved_question_id: q.body.id, x: 0, y: 0, w: 12, h: 4 }] } });
  if (d.status !== 201) throw new Error(JSON.stringify(d.body));
  return d.body.id as string;
}
const run = (id: string, filters?: unknown[], token = admin) => call(t0, 'POST', `/api/dashboards/${id}/tiles/q/run`, { token, body: filters ? { filters } : {} });

/** Two columns differing only by letter case, as each dialect keeps them apart at the top level. */
const CASED: Record<string, string> = {
  duckdb: 'SELECT 1 AS n, 2 AS N',
  sqlite: 'SELECT 1 AS n, 2 AS N',
  postgresql: 'SELECT 1 AS n, 2 AS "N"',
  mysql: 'SELECT 1 AS n, 2 AS N',
};

for (const dialect of ['duckdb', 'sqlite', 'postgresql', 'mysql']) {
  test(`${dialect}: a filtered tile keeps the column names of its unfiltered run, columns differing only by letter case included`, async (t) => {
    if (!connections[dialect]) return t.log(dialect === 'postgresql' ? SKIP_PG : SKIP_MYSQL), t.pass();
    const id = await dashboard(dialect, CASED[dialect]!, [{ id: 'v', type: 'values', field: 'n' }]);
    const plain = await run(id);
    t.is(plain.status, 200, JSON.stringify(plain.body));
    const names = plain.body.columns.map((c: { name: string }) => c.name);
    t.deepEqual(names, ['n', 'N']);
    const filtered = await run(id, [{ id: 'v', values: [1] }]);
    t.is(filtered.status, 200, JSON.stringify(filtered.body));
    t.deepEqual(filtered.body.applied_filters, ['v']);
    t.deepEqual(filtered.body.columns.map((c: { name: string }) => c.name), names);
    t.deepEqual(filtered.body.rows.map((r: unknown[]) => r.map(Number)), [[1, 2]]);
    t.deepEqual((await run(id, [{ id: 'v', values: [2] }])).body.rows, [], 'the filter applies to n, not N');
  });
}

test('a join whose result names two columns alike takes a date filter on every dialect, and a broken statement fails with its own error', async (t) => {
  const sql = 'SELECT o.order_id, o.customer_id, c.customer_id, c.country, o.country, o.order_date FROM orders o JOIN customers c ON c.customer_id = o.customer_id ORDER BY o.order_id';
  for (const connection of ['duckdb', 'sqlite', ...(connections['postgresql'] ? ['postgresql'] : []), ...(connections['mysql'] ? ['mysql'] : [])]) {
    const id = await dashboard(connection, sql, [{ id: 'when', type: 'date_range', field: 'order_date' }, { id: 'where', type: 'values', field: 'country' }]);
    const res = await run(id, [{ id: 'when', from: '2024-02-01', to: '2024-04-30' }, { id: 'where', values: ['Germany', 'Japan'] }]);
    t.is(res.status, 200, `${connection}: ${JSON.stringify(res.body)}`);
    t.deepEqual(res.body.applied_filters, ['when', 'where'], connection);
    t.deepEqual(res.body.columns.map((c: { name: string }) => c.name), ['order_id', 'customer_id', 'customer_id', 'country', 'country', 'order_date'], connection);
    t.deepEqual(res.body.rows.map((r: unknown[]) => Number(r[0])), [3, 4], connection);
    const broken = await run(await dashboard(connection, 'SELECT order_id, no_such_column FROM orders', [{ id: 'when', type: 'date_range', field: 'order_date' }]), [{ id: 'when', from: '2024-02-01' }]);
    t.is(broken.body.code, 'QUERY_FAILED', connection);
    t.regex(broken.body.detail, /no_such_column/, `${connection}: the statement's own error`);
    t.notRegex(broken.body.detail, /sextant_tile/, `${connection}: not the wrapper's`);
  }
});

test('a date range ending on 9999-12-31 has no end, given in a run or as a default; the first day still applies', async (t) => {
  for (const connection of ['duckdb', 'sqlite', ...(connections['postgresql'] ? ['postgresql'] : []), ...(connections['mysql'] ? ['mysql'] : [])]) {
    const id = await dashboard(connection, 'SELECT order_id, order_date FROM orders ORDER BY order_id', [{ id: 'when', type: 'date_range', field: 'order_date', default: { to: '9999-12-31' } }]);
    const byDefault = await run(id);
    t.is(byDefault.status, 200, `${connection}: ${JSON.stringify(byDefault.body)}`);
    t.is(byDefault.body.rows.length, 5, connection);
    t.deepEqual(byDefault.body.applied_filters, [], `${connection}: nothing to constrain`);
    const given = await run(id, [{ id: 'when', from: '2024-03-01', to: '9999-12-31' }]);
    t.is(given.status, 200, `${connection}: ${JSON.stringify(given.body)}`);
    t.deepEqual(given.body.rows.map((r: unknown[]) => Number(r[0])), [3, 4, 5], connection);
    t.deepEqual(given.body.applied_filters, ['when']);
    t.deepEqual((await run(id, [{ id: 'when', from: '2024-03-01', to: '2024-04-05' }])).body.rows.map((r: unknown[]) => Number(r[0])), [3, 4], `${connection}: a last day before it still bounds`);
  }
});

test('a filter value of the other kind than its filter answers 422 naming it, on every run route', async (t) => {
  const id = await dashboard('duckdb', 'SELECT order_id, country, order_date FROM orders', [
    { id: 'when', type: 'date_range', field: 'order_date' },
    { id: 'where', type: 'values', field: 'country' },
  ]);
  const cases: [unknown[], (string | number)[]][] = [
    [[{ id: 'when', values: ['x'] }], ['body', 'filters', 0, 'values']],
    [[{ id: 'where', values: ['Japan'] }, { id: 'when', from: '2024-01-01', values: ['x'] }], ['body', 'filters', 1, 'values']],
    [[{ id: 'where', from: '2026-01-01' }], ['body', 'filters', 0, 'from']],
    [[{ id: 'where', to: '2026-01-01', values: ['Japan'] }], ['body', 'filters', 0, 'to']],
  ];
  const link = (await call(t0, 'POST', `/api/dashboards/${id}/shares`, { token: admin })).body.share_id as string;
  for (const [filters, loc] of cases) {
    for (const path of [`/api/dashboards/${id}/tiles/q/run`, `/api/dashboards/${id}/run`, `/api/dashboard_shares/${link}/tiles/q/run`, `/api/dashboard_shares/${link}/run`]) {
      const res = await call(t0, 'POST', path, { token: path.includes('shares') ? undefined : admin, body: { filters } });
      t.is(res.status, 422, `${path} ${JSON.stringify(filters)}`);
      t.deepEqual(res.body.detail[0].loc, loc);
      t.regex(res.body.detail[0].msg, /where|when/, 'the message names the filter');
      t.is(res.body.detail[0].type, 'value_error');
    }
  }
  // Empty values for a date range, a null day for values: nothing to constrain, as a form may send every key.
  t.is((await run(id, [{ id: 'when', from: null, to: null, values: [] }, { id: 'where', values: ['Japan'], from: null }])).status, 200);
  t.is((await run(id, [{ id: 'where', from: '2026-01-01' }], otherAdmin)).status, 404, 'another organization sees no dashboard');
  t.is((await call(t0, 'POST', `/api/dashboards/${id}/tiles/q/run`, { body: { filters: [] } })).status, 401);
});

test('a filter written without an id is given one, kept by later edits that name it, and runs take values by it', async (t) => {
  const id = await dashboard('duckdb', 'SELECT order_id, order_date FROM orders ORDER BY order_id', [{ type: 'date_range', field: 'order_date' }]);
  const read = await call(t0, 'GET', `/api/dashboards/${id}`, { token: admin });
  const [filter] = read.body.filters as { id: string }[];
  t.regex(filter!.id, /^f_[A-Za-z0-9_-]{8}$/);
  const given = await run(id, [{ id: filter!.id, from: '2024-03-01' }]);
  t.deepEqual(given.body.applied_filters, [filter!.id]);
  t.deepEqual(given.body.rows.map((r: unknown[]) => Number(r[0])), [3, 4, 5]);
  // An edit that sends the filters back as read keeps the id; one that adds a filter without an id gives that one its own.
  const edited = await call(t0, 'PATCH', `/api/dashboards/${id}`, { token: admin, body: { filters: [...read.body.filters, { type: 'values', field: 'order_id' }] } });
  t.is(edited.status, 200, JSON.stringify(edited.body));
  const ids = (edited.body.filters as { id: string }[]).map((f) => f.id);
  t.is(ids[0], filter!.id);
  t.regex(ids[1]!, /^f_/);
  t.not(ids[1], ids[0]);
  t.is((await call(t0, 'GET', `/api/dashboards/${id}`, { token: otherAdmin })).status, 404, 'another organization\'s admin does not see it');
});
