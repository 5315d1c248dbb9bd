// Share links whose sharer lost access stay ended when access returns (the dashboard made
// organization again, the sharer reactivated), whether or not anyone opened the link meanwhile; the
// owner's list no longer shows them. And a link's holder never sees a warehouse's message, which
// quotes the statement as the sharer's row security rewrote it, nor a refusal's.
import test from 'ava';
import { setUserAttributes } from '../../src/data/rls/index.ts';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { getUser } from '../../src/auth/index.ts';

let t0: TestApp;
const org = 'lkorg';
let admin: string, modeler: string, sharerId: string, sharer: string, analyst: string, otherAdmin: string;
let ordersQ: string, brokenQ: string, customersQ: string;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  t0.org(org);
  t0.org('lkother');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const m = t0.user({ orgId: org, role: 'modeler' });
  modeler = t0.session(m);
  const s = t0.user({ orgId: org, role: 'admin' });
  sharerId = s.id;
  sharer = t0.session(s);
  analyst = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: 'lkother', role: 'admin' }));
  await setUserAttributes(t0.app.services.executor, org, m.id, { country: 'Japan' });
  docs.setTables(org, undefined, [
    { connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] },
    // A filter an admin got wrong (from before filters were checked when written): the statement it is rendered into fails the guard.
    { connection: 'wh', schema: 'main', name: 'customers', active: true, row_filters: [{ filter: 'country = {{user.country}} AND AND TRUE', exempt_roles: ['admin'] }] },
  ]);
  const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  ordersQ = await question('Orders', 'SELECT order_id, country FROM orders');
  // Passes the guard, fails in the warehouse: DuckDB's message quotes the statement it ran.
  brokenQ = await question('Broken', 'SELECT order_id, no_such_column FROM orders');
  customersQ = await question('Customers', 'SELECT customer_id, country FROM customers');
});
test.after.always(() => t0?.stop());

async function question(title: string, sql: string): Promise<string> {
  const res = await call(t0, 'POST', '/api/saved_questions', { token: modeler, body: { title, connection_id: 'wh', sql, visibility: 'organization' } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id as string;
}

async function published(): Promise<string> {
  const res = await call(t0, 'POST', '/api/dashboards', {
    token: modeler,
    body: { title: 'Sales', visibility: 'organization', tiles: [{ id: 'orders', saved_question_id: ordersQ, x: 0, y: 0, w: 6, h: 4 }, { id: 'broken', saved_question_id: brokenQ, x: 6, y: 0, w: 6, h: 4 }] },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id as string;
}
const share = async (token: string, id: string) => (await call(t0, 'POST', `/api/dashboards/${id}/shares`, { token })).body.share_id as string;
const open = async (link: string) => (await call(t0, 'GET', `/api/dashboard_shares/${link}`)).status;
const runs = async (link: string) => (await call(t0, 'POST', `/api/dashboard_shares/${link}/tiles/orders/run`, { body: {} })).status;
const listed = async (id: string) => (await call(t0, 'GET', `/api/dashboards/${id}/shares`, { token: modeler })).body.shares.map((s: { share_id: string }) => s.share_id) as string[];
const visibility = async (id: string, v: string) => t0 && (await call(t0, 'PATCH', `/api/dashboards/${id}`, { token: modeler, body: { visibility: v } })).status;

test("an admin's link stays ended when the dashboard goes private and comes back, opened meanwhile or not; the owner's own link lives on", async (t) => {
  const id = await published();
  const [opened, unopened, owners] = [await share(admin, id), await share(admin, id), await share(modeler, id)];
  for (const link of [opened, unopened, owners]) t.is(await open(link), 200);
  t.is(await visibility(id, 'private'), 200);
  t.is(await open(opened), 404);
  t.is(await runs(opened), 404);
  t.is(await visibility(id, 'organization'), 200);
  for (const link of [opened, unopened]) {
    t.is(await open(link), 404, 'not revived');
    t.is(await runs(link), 404);
  }
  t.is(await open(owners), 200, "the owner never lost access: the owner's link lives");
  t.deepEqual(await listed(id), [owners]);
});

test('a link of a sharer deactivated and reactivated stays ended, opened meanwhile or not, and leaves the list', async (t) => {
  const id = await published();
  const [opened, unopened] = [await share(sharer, id), await share(sharer, id)];
  t.deepEqual((await listed(id)).sort(), [opened, unopened].sort());
  t.is((await call(t0, 'POST', `/api/admin/members/${sharerId}/deactivate`, { token: admin })).status, 200);
  t.is(await runs(opened), 404);
  t.deepEqual(await listed(id), [], 'a dead link is not listed as live');
  t.is((await call(t0, 'POST', `/api/admin/members/${sharerId}/reactivate`, { token: admin })).status, 200);
  for (const link of [opened, unopened]) {
    t.is(await open(link), 404, 'not revived');
    t.is(await runs(link), 404);
  }
  t.deepEqual(await listed(id), []);
  // A second on: a link from the very moment of the deactivation counts as made before it.
  t0.clock.advance(1000);
  const fresh = await share(t0.session((await getUser(t0.app.services.executor, sharerId))!), id);
  t.is(await open(fresh), 200, 'a link made after the return lives');
  t.deepEqual(await listed(id), [fresh]);
});

test("a link's holder gets a tile's warehouse failure as its code only; the question's writer, signed in, gets the warehouse's message", async (t) => {
  const id = await published();
  const link = await share(modeler, id);
  const viaLink = await call(t0, 'POST', `/api/dashboard_shares/${link}/tiles/broken/run`, { body: {} });
  t.is(viaLink.status, 400);
  t.is(viaLink.body.code, 'QUERY_FAILED');
  t.notRegex(viaLink.body.detail, /orders|country|Japan|no_such_column/i, 'nothing of the statement or its row filter');
  const streamed = await t0.fetch(`/api/dashboard_shares/${link}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const line = (await streamed.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((l) => l.tile_id === 'broken');
  t.like(line, { status: 400, error: { code: 'QUERY_FAILED' } });
  t.notRegex(line.error.detail, /orders|country|Japan|no_such_column/i);
  const writer = await call(t0, 'POST', `/api/dashboards/${id}/tiles/broken/run`, { token: modeler, body: {} });
  t.is(writer.status, 400);
  t.regex(writer.body.detail, /no_such_column/, "the writer sees the warehouse's message");
  const other = await call(t0, 'POST', `/api/dashboards/${id}/tiles/broken/run`, { token: analyst, body: {} });
  t.is(other.body.code, 'QUERY_FAILED');
  t.notRegex(other.body.detail, /no_such_column/, 'another member did not write the SQL');
  t.is((await call(t0, 'POST', `/api/dashboards/${id}/tiles/broken/run`, { token: otherAdmin, body: {} })).status, 404);
});

test("a row filter that breaks the statement is refused without its text: no link holder, nor anyone, reads the sharer's attribute value", async (t) => {
  const res = await call(t0, 'POST', '/api/dashboards', { token: modeler, body: { title: 'Customers', visibility: 'organization', tiles: [{ id: 'c', saved_question_id: customersQ, x: 0, y: 0, w: 6, h: 4 }] } });
  const link = await share(modeler, res.body.id);
  for (const [who, answer] of [
    ['the link', await call(t0, 'POST', `/api/dashboard_shares/${link}/tiles/c/run`, { body: {} })],
    ['the writer', await call(t0, 'POST', `/api/dashboards/${res.body.id}/tiles/c/run`, { token: modeler, body: {} })],
    ['the question', await call(t0, 'POST', `/api/saved_questions/${customersQ}/run`, { token: modeler, body: {} })],
  ] as const) {
    t.is(answer.status, 400, who);
    t.is(answer.body.code, 'QUERY_REFUSED', who);
    t.regex(answer.body.detail, /row filters/, who);
    t.notRegex(JSON.stringify(answer.body), /Japan|country =|LINE 1/, `${who}: nothing of the rewritten statement`);
  }
  t.is((await call(t0, 'POST', `/api/dashboards/${res.body.id}/tiles/c/run`, { token: admin, body: {} })).status, 200, 'exempt, an admin reads the table');
});

test('a link in a workspace stays ended when its sharer is taken out of the workspace and put back, opened meanwhile or not', async (t) => {
  const ws = (await call(t0, 'POST', '/api/admin/workspaces', { token: admin, body: { name: `Links ${Date.now()}` } })).body.workspace_id as string;
  const member = t0.user({ orgId: org, role: 'user' });
  const putBack = () => call(t0, 'PUT', `/api/admin/workspaces/${ws}/members/${member.id}`, { token: admin, body: { role: 'modeler' } });
  t.is((await putBack()).status, 200);
  const inside = (await call(t0, 'POST', '/api/auth/switch_to_workspace', { token: t0.session(member), body: { workspace_org_id: ws } })).body.access_token as string;
  const made = await call(t0, 'POST', '/api/dashboards', { token: inside, body: { title: 'Notes', visibility: 'organization', tiles: [{ id: 'n', text: 'Read me', x: 0, y: 0, w: 6, h: 2 }] } });
  t.is(made.status, 201, JSON.stringify(made.body));
  const [opened, unopened] = [await share(inside, made.body.id), await share(inside, made.body.id)];
  t.is(await open(opened), 200);
  t.is((await call(t0, 'DELETE', `/api/admin/workspaces/${ws}/members/${member.id}`, { token: admin })).status, 204);
  t.is(await open(opened), 404);
  t0.clock.advance(1000);
  t.is((await putBack()).status, 200);
  for (const link of [opened, unopened]) t.is(await open(link), 404, 'not revived');
});
