// PATCH /api/dashboards/{id}: an edit made from an older version is refused instead of undoing the
// newer one, an edit changing nothing writes no version, tiles kept as they were are not re-checked
// against the writer's access (a tile added is, and is named when refused), tiles stay inside the
// 12-column grid, and the refusal to share says so.
import test from 'ava';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
const org = 'edorg';
let admin: string, modeler: string, analyst: string, otherAdmin: string;
let ordersQ: string;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  t0.org(org);
  t0.org('edother');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  analyst = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: 'edother', role: 'admin' }));
  const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  ordersQ = await question(modeler, 'Orders');
});
test.after.always(() => t0?.stop());

async function question(token: string, title: string): Promise<string> {
  const res = await call(t0, 'POST', '/api/saved_questions', { token, body: { title, connection_id: 'wh', sql: 'SELECT order_id FROM orders', visibility: 'organization' } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.id as string;
}

/** An organization dashboard of the modeler's with one question tile and a text tile. */
async function published(tiles?: unknown[]): Promise<{ id: string; version: number }> {
  const res = await call(t0, 'POST', '/api/dashboards', {
    token: modeler,
    body: { title: 'Sales', visibility: 'organization', tiles: tiles ?? [{ id: 'orders', saved_question_id: ordersQ, x: 0, y: 0, w: 6, h: 4 }, { id: 'note', text: 'Hi', x: 6, y: 0, w: 6, h: 2 }] },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body;
}
const patch = (token: string, id: string, body: Record<string, unknown>) => call(t0, 'PATCH', `/api/dashboards/${id}`, { token, body });

test('an edit made from an older version answers 409 and the newer edit stays; without a version an edit still writes', async (t) => {
  const d = await published();
  const first = await patch(admin, d.id, { title: 'From the admin', version: 1 });
  t.is(first.status, 200, JSON.stringify(first.body));
  t.is(first.body.version, 2);
  const second = await patch(modeler, d.id, { title: 'From the modeler', version: 1 });
  t.is(second.status, 409);
  t.is(second.body.code, 'DASHBOARD_CONFLICT');
  t.like((await call(t0, 'GET', `/api/dashboards/${d.id}`, { token: modeler })).body, { title: 'From the admin', version: 2 });
  const again = await patch(modeler, d.id, { title: 'From the modeler', version: 2 });
  t.like(again.body, { title: 'From the modeler', version: 3 });
  t.like((await patch(modeler, d.id, { description: 'No version sent' })).body, { description: 'No version sent', version: 4 });
});

test('an edit that changes nothing writes no version, whether it sends the fields as they are or none', async (t) => {
  const d = (await call(t0, 'GET', `/api/dashboards/${(await published()).id}`, { token: modeler })).body;
  const same = await patch(modeler, d.id, { title: d.title, visibility: d.visibility, filters: d.filters, tiles: d.tiles.map(({ question: _q, saved_question_id, text, ...rest }: Record<string, unknown>) => (saved_question_id === null ? { ...rest, text } : { ...rest, saved_question_id })), version: 1 });
  t.is(same.status, 200, JSON.stringify(same.body));
  t.like(same.body, { version: 1, updated_at: d.updated_at });
  t.like((await patch(modeler, d.id, {})).body, { version: 1 });
  t.like((await patch(modeler, d.id, { title: 'Changed', version: 1 })).body, { version: 2 });
});

test('a version that is no positive integer answers 422 naming it; readers, strangers and the signed-out get 403, 404 and 401', async (t) => {
  const d = await published();
  for (const version of [0, -1, 1.5, '1', null]) {
    const res = await patch(modeler, d.id, { title: 'X', version });
    t.is(res.status, 422, JSON.stringify(version));
    t.deepEqual(res.body.detail[0].loc, ['body', 'version']);
    t.is(typeof res.body.detail[0].msg, 'string');
    t.is(typeof res.body.detail[0].type, 'string');
  }
  t.is((await patch(analyst, d.id, { title: 'X', version: 1 })).status, 403);
  t.is((await patch(otherAdmin, d.id, { title: 'X', version: 1 })).status, 404, 'another organization');
  t.is((await call(t0, 'PATCH', `/api/dashboards/${d.id}`, { body: { title: 'X', version: 1 } })).status, 401);
  t.is((await call(t0, 'GET', `/api/dashboards/${d.id}`, { token: modeler })).body.version, 1);
});

test("a tile whose question became private stays through an admin's layout edit; a tile added or repointed to it is refused, named", async (t) => {
  const soon = await question(modeler, 'Soon private');
  const d = await published([{ id: 'soon', saved_question_id: soon, x: 0, y: 0, w: 6, h: 4 }, { id: 'orders', saved_question_id: ordersQ, x: 6, y: 0, w: 6, h: 4 }]);
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${soon}`, { token: modeler, body: { visibility: 'private' } })).status, 200);
  const moved = await patch(admin, d.id, { tiles: [{ id: 'soon', saved_question_id: soon, x: 0, y: 4, w: 12, h: 4 }, { id: 'orders', saved_question_id: ordersQ, x: 0, y: 0, w: 12, h: 4 }], version: 1 });
  t.is(moved.status, 200, JSON.stringify(moved.body));
  t.deepEqual(moved.body.tiles.map((x: { id: string; y: number; question: unknown }) => [x.id, x.y, x.question === null]), [['soon', 4, true], ['orders', 0, false]]);
  const added = await patch(admin, d.id, { tiles: [{ id: 'orders', saved_question_id: ordersQ, x: 0, y: 0, w: 6, h: 4 }, { id: 'copy', saved_question_id: soon, x: 6, y: 0, w: 6, h: 4 }] });
  t.is(added.status, 404);
  t.like(added.body, { code: 'SAVED_QUESTION_NOT_FOUND', data: { loc: ['body', 'tiles', 1, 'saved_question_id'], tile_id: 'copy' } });
  const unnamed = await patch(admin, d.id, { tiles: [{ saved_question_id: soon, x: 0, y: 0, w: 6, h: 4 }] });
  t.is(unnamed.status, 404);
  t.deepEqual(unnamed.body.data, { loc: ['body', 'tiles', 0, 'saved_question_id'] });
  const repointed = await patch(admin, d.id, { tiles: [{ id: 'orders', saved_question_id: soon, x: 0, y: 0, w: 6, h: 4 }] });
  t.is(repointed.status, 404, 'an existing tile pointed at a question the writer may not read');
  t.like(repointed.body, { data: { tile_id: 'orders' } });
  t.is((await call(t0, 'GET', `/api/dashboards/${d.id}`, { token: admin })).body.version, 2, 'the refused edits wrote nothing');
  const created = await call(t0, 'POST', '/api/dashboards', { token: admin, body: { title: 'New', tiles: [{ id: 'a', text: 'x', x: 0, y: 0, w: 1, h: 1 }, { id: 'b', saved_question_id: soon, x: 0, y: 1, w: 1, h: 1 }] } });
  t.is(created.status, 404);
  t.like(created.body, { code: 'SAVED_QUESTION_NOT_FOUND', data: { loc: ['body', 'tiles', 1, 'saved_question_id'], tile_id: 'b' } });
});

test('a tile sticking out of the 12-column grid answers 422 naming it, on create and on edit; one ending at the edge is taken', async (t) => {
  const out = await call(t0, 'POST', '/api/dashboards', { token: modeler, body: { title: 'Wide', tiles: [{ text: 'ok', x: 0, y: 0, w: 12, h: 1 }, { text: 'out', x: 11, y: 1, w: 12, h: 1 }] } });
  t.is(out.status, 422);
  t.deepEqual(out.body.detail[0].loc, ['body', 'tiles', 1, 'w']);
  t.is(typeof out.body.detail[0].msg, 'string');
  const d = await published();
  const edit = await patch(modeler, d.id, { tiles: [{ id: 'orders', saved_question_id: ordersQ, x: 7, y: 0, w: 6, h: 4 }] });
  t.is(edit.status, 422);
  t.deepEqual(edit.body.detail[0].loc, ['body', 'tiles', 0, 'w']);
  t.like((await patch(modeler, d.id, { tiles: [{ id: 'orders', saved_question_id: ordersQ, x: 6, y: 0, w: 6, h: 4 }] })).body, { version: 2 });
  t.is((await call(t0, 'POST', '/api/dashboards', { token: modeler, body: { title: 'Edge', tiles: [{ text: 'x', x: 11, y: 0, w: 1, h: 1 }] } })).status, 201);
});

test('a reader refused a share link is told sharing is refused; the refusal to edit still says edit', async (t) => {
  const d = await published();
  const share = await call(t0, 'POST', `/api/dashboards/${d.id}/shares`, { token: analyst });
  t.is(share.status, 403);
  t.is(share.body.code, 'SHARE_FORBIDDEN');
  t.regex(share.body.detail, /shares/);
  t.is((await call(t0, 'GET', `/api/dashboards/${d.id}/shares`, { token: analyst })).body.code, 'SHARE_FORBIDDEN');
  t.is((await patch(analyst, d.id, { title: 'X' })).body.code, 'EDIT_FORBIDDEN');
  // A modeler may read an admin's organization dashboard but neither edit nor share it.
  const adminsD = await call(t0, 'POST', '/api/dashboards', { token: admin, body: { title: 'Admin', visibility: 'organization', tiles: [] } });
  t.is((await patch(modeler, adminsD.body.id, { title: 'X' })).status, 403);
  t.is((await call(t0, 'POST', `/api/dashboards/${adminsD.body.id}/shares`, { token: modeler })).status, 403);
});
