// GET /api/saved_questions/{id}/export: a saved question's rows streamed as CSV or XLSX, read now as
// the caller (their row filters, their governed sources, the SQL guard), with the question's access
// rules (another user's private question and another organization's are 404), by header or by a
// `token` link.
import test from 'ava';
import { sql } from 'kysely';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { setUserAttributes } from '../../src/data/rls/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
const org = 'sxorg';
const other = 'sxother';
let admin: string, modeler: string, analyst: string, analyst2: string, otherAdmin: string;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_QUERY_ROW_LIMIT: '2' }, { tableDocs: docs });
  t0.org(org);
  t0.org(other);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  const a = t0.user({ orgId: org, role: 'user' });
  analyst = t0.session(a);
  analyst2 = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: other, role: 'admin' }));
  await setUserAttributes(t0.app.services.executor, org, a.id, { country: 'Germany' });
  docs.setTables(org, undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] }]);
  const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
});
test.after.always(() => t0?.stop());

const SQL = 'SELECT order_id, country FROM orders ORDER BY order_id';
async function save(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(t0, 'POST', '/api/saved_questions', { token, body: { title: 'Orders: by "country"', connection_id: 'wh', sql: SQL, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id as string;
}
const exportOf = (id: string, query: string, token?: string) =>
  t0.fetch(`/api/saved_questions/${encodeURIComponent(id)}/export${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

test('an analyst exports a question as CSV: every row under their row filters (no row limit), named after the question and today', async (t) => {
  const id = await save(analyst, {});
  const res = await exportOf(id, '', analyst);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/csv/);
  const day = new Date(t0.clock.now()).toISOString().slice(0, 10);
  t.true((res.headers.get('content-disposition') ?? '').includes(`Orders by country ${day}.csv`));
  t.is(await res.text(), 'order_id,country\r\n1,Germany\r\n3,Germany\r\n');
});

test('xlsx gives a workbook; a `token` link authenticates like the header', async (t) => {
  const id = await save(analyst, {});
  const res = await exportOf(id, `?format=xlsx&token=${encodeURIComponent(analyst)}`);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  t.is(Buffer.from(await res.arrayBuffer()).subarray(0, 2).toString(), 'PK');
});

test('another user\'s private question, another organization and a missing id are 404; no credential is 401; a wrong format is 422', async (t) => {
  const id = await save(analyst, {});
  for (const token of [analyst2, modeler, admin, otherAdmin]) t.is((await exportOf(id, '', token)).status, 404);
  t.is((await exportOf(id, `?org_id=${other}`, analyst)).status, 404, 'an org_id not the caller\'s');
  t.is((await exportOf('sq_missing', '', analyst)).status, 404);
  t.is((await exportOf(id, '')).status, 401);
  const bad = await exportOf(id, '?format=pdf', analyst);
  t.is(bad.status, 422);
  const body = (await bad.json()) as { detail: { loc: unknown[] }[] };
  t.deepEqual(body.detail[0]?.loc, ['query', 'format']);
});

test('an organization question exports under each viewer\'s own permissions: the guard and governed sources apply as for a run', async (t) => {
  const published = await save(modeler, { visibility: 'organization', sql: 'SELECT name FROM customers ORDER BY 1' });
  const refused = await exportOf(published, '', analyst);
  t.is(refused.status, 400);
  t.like(await refused.json(), { code: 'QUERY_REFUSED', data: { reason: 'ungoverned_table' } });
  t.is((await exportOf(published, '', admin)).status, 200, 'admins read any table');
  // The guard refuses these as they are saved; kept from before (written into the store), they meet it again at each export.
  for (const hostileSql of ['DELETE FROM orders', "SELECT * FROM read_csv('/etc/passwd')", 'SELECT 1; DROP TABLE orders', "ATTACH '/tmp/x.db' AS x"]) {
    const hostile = await save(admin, {});
    await t0.app.services.executor.run(sql`UPDATE saved_questions SET sql = ${hostileSql} WHERE id = ${hostile}`);
    const res = await exportOf(hostile, '', admin);
    t.is(res.status, 400, hostileSql);
    t.like(await res.json(), { code: 'QUERY_REFUSED' }, hostileSql);
  }
  const check = await call(t0, 'GET', '/api/saved_questions', { token: admin });
  t.is(check.status, 200, 'the warehouse still answers after the attempts');
  t.is((await (await exportOf(await save(admin, {}), '', admin)).text()).split('\r\n').length, 7, 'every order still there');
});
