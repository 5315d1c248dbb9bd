// Workspace administration (issue 35): an admin creates, renames and removes workspaces and chooses
// their members; members then list and switch into them; other organizations, non-admins and
// workspace admins are refused; every change is audited.
import test from 'ava';
import { call } from '../helpers/api.ts';
import { startPgTestApp, startTestApp, type TestApp } from '../helpers/app.ts';
import { SKIP_PG_STORE } from '../helpers/pg-database.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

function team() {
  const orgId = t0.org();
  const adminUser = t0.user({ orgId, role: 'admin' });
  const analyst = t0.user({ orgId, role: 'user' });
  return { orgId, adminUser, admin: t0.session(adminUser), analyst, analystToken: t0.session(analyst) };
}
const create = (token: string, name: string) => call(t0, 'POST', '/api/admin/workspaces', { token, body: { name } });

test('an admin creates, renames and lists workspaces; names are unique whatever their case', async (t) => {
  const { admin, adminUser } = team();
  const created = await create(admin, 'Finance');
  t.is(created.status, 201);
  t.like(created.body, { name: 'Finance', member_count: 1 });
  const id = created.body.workspace_id as string;
  t.is((await create(admin, 'finance')).body.code, 'WORKSPACE_NAME_TAKEN');
  t.is((await create(admin, 'Marketing')).status, 201);
  const renamed = await call(t0, 'PATCH', `/api/admin/workspaces/${id}`, { token: admin, body: { name: 'Finance EMEA' } });
  t.is(renamed.status, 200);
  t.is(renamed.body.name, 'Finance EMEA');
  t.is((await call(t0, 'PATCH', `/api/admin/workspaces/${id}`, { token: admin, body: { name: 'MARKETING' } })).status, 409);
  const list = await call(t0, 'GET', '/api/admin/workspaces', { token: admin });
  t.deepEqual(list.body.workspaces.map((w: { name: string }) => w.name), ['Finance EMEA', 'Marketing']);
  // The creator is its first admin and sees it among their workspaces.
  const mine = await call(t0, 'GET', '/api/auth/list_workspaces', { token: admin });
  t.deepEqual(mine.body.workspaces.find((w: { org_id: string }) => w.org_id === id), { org_id: id, name: 'Finance EMEA', role: 'admin' });
  const members = await call(t0, 'GET', `/api/admin/workspaces/${id}/members`, { token: admin });
  t.deepEqual(members.body.members.map((m: { user_id: string; role: string }) => [m.user_id, m.role]), [[adminUser.id, 'admin']]);
});

test('an admin chooses the members; a member switches in, and loses the workspace when taken out', async (t) => {
  const { admin, analyst, analystToken } = team();
  const id = (await create(admin, 'Sales')).body.workspace_id as string;
  t.is((await call(t0, 'POST', '/api/auth/switch_to_workspace', { token: analystToken, body: { workspace_org_id: id } })).status, 404);
  const added = await call(t0, 'PUT', `/api/admin/workspaces/${id}/members/${analyst.id}`, { token: admin, body: { role: 'modeler' } });
  t.is(added.status, 200);
  t.true(added.body.members.some((m: { user_id: string; role: string }) => m.user_id === analyst.id && m.role === 'modeler'));
  const switched = await call(t0, 'POST', '/api/auth/switch_to_workspace', { token: analystToken, body: { workspace_org_id: id } });
  t.is(switched.status, 200);
  const inWorkspace = switched.body.access_token as string;
  t.is((await call(t0, 'GET', '/api/auth/me', { token: inWorkspace })).body.role, 'modeler');
  t.is((await call(t0, 'DELETE', `/api/admin/workspaces/${id}/members/${analyst.id}`, { token: admin })).status, 204);
  t.is((await call(t0, 'GET', '/api/auth/me', { token: inWorkspace })).status, 401, 'the workspace session stops working');
  t.is((await call(t0, 'GET', '/api/auth/me', { token: analystToken })).status, 200, 'the base organization session stays');
  t.is((await call(t0, 'DELETE', `/api/admin/workspaces/${id}/members/${analyst.id}`, { token: admin })).status, 404);
});

test('removing a workspace needs confirm=true and ends its sessions', async (t) => {
  const { admin, analyst, analystToken } = team();
  const id = (await create(admin, 'Temporary')).body.workspace_id as string;
  await call(t0, 'PUT', `/api/admin/workspaces/${id}/members/${analyst.id}`, { token: admin, body: { role: 'user' } });
  const inWorkspace = (await call(t0, 'POST', '/api/auth/switch_to_workspace', { token: analystToken, body: { workspace_org_id: id } })).body.access_token as string;
  const unconfirmed = await call(t0, 'DELETE', `/api/admin/workspaces/${id}`, { token: admin });
  t.is(unconfirmed.status, 422);
  t.deepEqual(unconfirmed.body.detail[0].loc, ['query', 'confirm']);
  t.is((await call(t0, 'DELETE', `/api/admin/workspaces/${id}?confirm=true`, { token: admin })).status, 204);
  t.is((await call(t0, 'GET', '/api/auth/me', { token: inWorkspace })).status, 401);
  t.deepEqual((await call(t0, 'GET', '/api/admin/workspaces', { token: admin })).body.workspaces, []);
  t.is((await call(t0, 'DELETE', `/api/admin/workspaces/${id}?confirm=true`, { token: admin })).status, 404);
});

test('bodies are validated with the HTTPValidationError shape', async (t) => {
  const { admin, analyst } = team();
  const id = (await create(admin, 'Valid')).body.workspace_id as string;
  for (const [res, loc] of [
    [await create(admin, '  '), ['body', 'name']],
    [await call(t0, 'POST', '/api/admin/workspaces', { token: admin, body: {} }), ['body', 'name']],
    [await call(t0, 'PATCH', `/api/admin/workspaces/${id}`, { token: admin, body: { name: 'x'.repeat(101) } }), ['body', 'name']],
    [await call(t0, 'PUT', `/api/admin/workspaces/${id}/members/${analyst.id}`, { token: admin, body: { role: 'owner' } }), ['body', 'role']],
  ] as const) {
    t.is(res.status, 422);
    t.deepEqual(res.body.detail[0].loc, loc);
    t.is(typeof res.body.detail[0].msg, 'string');
  }
});

test('401 without a credential, 403 to non-admins and to workspace admins, 404 across organizations', async (t) => {
  const a = team();
  const b = team();
  const id = (await create(a.admin, 'Ours')).body.workspace_id as string;
  t.is((await call(t0, 'GET', '/api/admin/workspaces')).status, 401);
  t.is((await call(t0, 'POST', '/api/admin/workspaces', { body: { name: 'x' } })).status, 401);
  t.is((await call(t0, 'GET', '/api/admin/workspaces', { token: a.analystToken })).status, 403);
  t.is((await create(a.analystToken, 'Mine')).status, 403);
  t.is((await call(t0, 'PUT', `/api/admin/workspaces/${id}/members/${a.analyst.id}`, { token: a.analystToken, body: { role: 'admin' } })).status, 403);
  // An admin of the workspace itself runs it from the base organization only.
  const inWorkspace = (await call(t0, 'POST', '/api/auth/switch_to_workspace', { token: a.admin, body: { workspace_org_id: id } })).body.access_token as string;
  const fromWorkspace = await call(t0, 'GET', '/api/admin/workspaces', { token: inWorkspace });
  t.is(fromWorkspace.status, 403);
  t.is(fromWorkspace.body.code, 'BASE_ORG_REQUIRED');
  // Another organization's admin sees none of it, and cannot bring in its people.
  for (const res of [
    await call(t0, 'PATCH', `/api/admin/workspaces/${id}`, { token: b.admin, body: { name: 'Theirs' } }),
    await call(t0, 'GET', `/api/admin/workspaces/${id}/members`, { token: b.admin }),
    await call(t0, 'PUT', `/api/admin/workspaces/${id}/members/${b.analyst.id}`, { token: b.admin, body: { role: 'user' } }),
    await call(t0, 'DELETE', `/api/admin/workspaces/${id}?confirm=true`, { token: b.admin }),
  ]) {
    t.is(res.status, 404);
    t.is(res.body.code, 'WORKSPACE_NOT_FOUND');
  }
  t.deepEqual((await call(t0, 'GET', '/api/admin/workspaces', { token: b.admin })).body.workspaces, []);
  const outsider = await call(t0, 'PUT', `/api/admin/workspaces/${id}/members/${b.analyst.id}`, { token: a.admin, body: { role: 'user' } });
  t.is(outsider.status, 404);
  t.is(outsider.body.code, 'MEMBER_NOT_FOUND');
  t.is((await call(t0, 'GET', '/api/admin/workspaces', { token: a.admin })).body.workspaces[0].name, 'Ours');
});

test('workspace changes are audited, and the routes are in the OpenAPI document', async (t) => {
  const { admin, orgId, adminUser } = team();
  const id = (await create(admin, 'Audited')).body.workspace_id as string;
  await call(t0, 'PATCH', `/api/admin/workspaces/${id}`, { token: admin, body: { name: 'Audited too' } });
  const rows = t0.app.services.store.sqlite!.prepare("SELECT action, actor_id, target_id FROM audit_log WHERE org_id = ? AND action LIKE 'workspace_%' ORDER BY rowid").all(orgId) as { action: string; actor_id: string; target_id: string }[];
  t.deepEqual(rows.map((r) => [r.action, r.actor_id, r.target_id]), [['workspace_created', adminUser.id, id], ['workspace_renamed', adminUser.id, id]]);
  const doc = (await (await t0.fetch('/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  for (const [path, method] of [['/api/admin/workspaces', 'get'], ['/api/admin/workspaces', 'post'], ['/api/admin/workspaces/{workspace_id}', 'patch'], ['/api/admin/workspaces/{workspace_id}', 'delete'], ['/api/admin/workspaces/{workspace_id}/members', 'get'], ['/api/admin/workspaces/{workspace_id}/members/{user_id}', 'put'], ['/api/admin/workspaces/{workspace_id}/members/{user_id}', 'delete']] as const) {
    const responses = doc.paths[path]?.[method]?.responses;
    t.truthy(responses?.['401'] && responses['403'], `${method} ${path}`);
  }
  t.truthy(doc.paths['/api/admin/workspaces']!['post']!.responses['409']);
});

test('on PostgreSQL an admin creates, renames, lists and fills a workspace alike', async (t) => {
  const pg = await startPgTestApp();
  if (!pg) return t.log(SKIP_PG_STORE), t.pass();
  t.teardown(() => pg.stop());
  const orgId = await pg.make.org();
  const admin = await pg.make.session(await pg.make.user({ orgId, role: 'admin' }));
  const analyst = await pg.make.user({ orgId, role: 'user' });
  const created = await call(pg, 'POST', '/api/admin/workspaces', { token: admin, body: { name: 'Finance' } });
  t.is(created.status, 201);
  t.like(created.body, { name: 'Finance', member_count: 1 });
  const id = created.body.workspace_id as string;
  t.is((await call(pg, 'POST', '/api/admin/workspaces', { token: admin, body: { name: 'FINANCE' } })).status, 409);
  t.is((await call(pg, 'PATCH', `/api/admin/workspaces/${id}`, { token: admin, body: { name: 'Finance EMEA' } })).body.name, 'Finance EMEA');
  t.is((await call(pg, 'PUT', `/api/admin/workspaces/${id}/members/${analyst.id}`, { token: admin, body: { role: 'modeler' } })).body.members.length, 2);
  t.deepEqual((await call(pg, 'GET', '/api/admin/workspaces', { token: admin })).body.workspaces.map((w: { name: string; member_count: number }) => [w.name, w.member_count]), [['Finance EMEA', 2]]);
  t.is((await call(pg, 'DELETE', `/api/admin/workspaces/${id}?confirm=true`, { token: admin })).status, 204);
});
