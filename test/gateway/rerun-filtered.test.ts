// /api/rerun_query of a dashboard tile's entry (issue 37): the filter values a tile bound to its
// placeholders are logged with its statement and bound again on rerun, under the rerunning caller's
// permissions; an entry whose values are missing or not a list of typed values is refused.
import test from 'ava';
import type Database from 'better-sqlite3';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { setUserAttributes } from '../../src/data/rls/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
const org = 'rrorg';
const other = 'rrother';
let admin: string, analyst: string, analyst2: string, otherAdmin: string, analystId: string;
let dashboard: string;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  t0.org(org);
  t0.org(other);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  const u = t0.user({ orgId: org, role: 'user' });
  analystId = u.id;
  analyst = t0.session(u);
  analyst2 = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: other, role: 'admin' }));
  await setUserAttributes(t0.app.services.executor, org, u.id, { country: 'France' });
  docs.setTables(org, undefined, [
    { connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] },
  ]);
  const conn = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (conn.status !== 201) throw new Error(JSON.stringify(conn.body));
  const q = await call(t0, 'POST', '/api/saved_questions', {
    token: modeler,
    body: { title: 'Orders', connection_id: 'wh', sql: 'SELECT order_id, country, order_date FROM orders ORDER BY order_id', visibility: 'organization' },
  });
  const d = await call(t0, 'POST', '/api/dashboards', {
    token: modeler,
    body: {
      title: 'Sales',
      visibility: 'organization',
      filters: [{ id: 'when', type: 'date_range', field: 'order_date' }, { id: 'where', type: 'values', field: 'country' }],
      tiles: [{ id: 'orders', saved_question_id: q.body.id, x: 0, y: 0, w: 6, h: 4 }],
    },
  });
  if (d.status !== 201) throw new Error(JSON.stringify(d.body));
  dashboard = d.body.id;
});
test.after.always(() => t0?.stop());

const db = () => t0.app.services.store.sqlite! as Database.Database;
const rerun = (token: string, id: string) => call(t0, 'POST', '/api/rerun_query', { token, body: { query_id: id } });

/** The analyst's filtered tile run: its rows and the id of its query log entry. */
async function filteredTile(filters: unknown[]) {
  const res = await call(t0, 'POST', `/api/dashboards/${dashboard}/tiles/orders/run`, { token: analyst, body: { filters, fresh: true } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const logged = db().prepare("SELECT id, sql, params FROM query_log WHERE user_id = ? AND source = 'dashboard' AND status = 'ok' ORDER BY rowid DESC LIMIT 1").get(analystId) as { id: string; sql: string; params: string | null };
  return { rows: res.body.rows as unknown[][], logged };
}

test.serial('a filtered tile entry reruns with the values it was run with and returns the same rows', async (t) => {
  const { rows, logged } = await filteredTile([{ id: 'when', from: '2024-01-01', to: '2024-04-30' }, { id: 'where', values: ['France', 'Japan'] }]);
  t.true(rows.length > 0);
  t.deepEqual(JSON.parse(logged.params!).map((p: { type: string }) => p.type), ['date', 'date', 'text', 'text']);
  const again = await rerun(analyst, logged.id);
  t.is(again.status, 200, JSON.stringify(again.body));
  t.deepEqual(again.body.rows, rows);
  // The rerun's own entry keeps the values too, so it can be run again in turn.
  const second = await rerun(analyst, again.body.query_id);
  t.deepEqual(second.body.rows, rows);
  // An admin reruns it under their own permissions (no row filter), with the same filter values.
  const byAdmin = await rerun(admin, logged.id);
  t.is(byAdmin.status, 200);
  t.true(byAdmin.body.rows.length >= rows.length);
  t.true(byAdmin.body.rows.every((r: unknown[]) => ['France', 'Japan'].includes(r[1] as string)));
});

test.serial('another user of the organization and another organization\'s admin do not find the entry', async (t) => {
  const { logged } = await filteredTile([{ id: 'where', values: ['France'] }]);
  t.is((await rerun(analyst2, logged.id)).status, 404);
  t.is((await rerun(otherAdmin, logged.id)).status, 404);
  t.is((await call(t0, 'POST', '/api/rerun_query', { body: { query_id: logged.id } })).status, 401);
});

test.serial('an entry whose values are absent or tampered with is refused (reason parameter)', async (t) => {
  const { logged } = await filteredTile([{ id: 'when', from: '2024-01-01' }]);
  const tamper = db().prepare('UPDATE query_log SET params = ? WHERE id = ?');
  for (const params of [
    null,
    'not json',
    '[]',
    '{"type":"date","value":"2024-01-01"}',
    '[{"type":"sql","value":"1 OR 1=1"}]',
    '[{"type":"date","value":"2024-01-01","extra":1}]',
    '[{"type":"date","value":"2024-01-01"},{"type":"date","value":"2024-01-02"}]',
    '[{"type":"number","value":"2024-01-01"}]',
    '[{"type":"date","value":"2024-01-01\' OR 1=1 --"}]',
  ]) {
    tamper.run(params, logged.id);
    const res = await rerun(analyst, logged.id);
    t.is(res.status, 400, String(params));
    t.like(res.body, { code: 'QUERY_REFUSED', data: { reason: 'parameter' } }, String(params));
  }
});
