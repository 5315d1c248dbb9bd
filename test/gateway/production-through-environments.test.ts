// The organization setting "changes to production only through environments" (issue 35): on for
// organizations created by sign-up and for the demo, off for others; while on, every knowledge write
// to production answers 403 naming the setting, and environments and their merges go on as before.
import test from 'ava';
import { findUserByEmail } from '../../src/auth/index.ts';
import { DEMO_ORG_ID } from '../../src/compose/demo/seed-demo.ts';
import { sqliteExecutor } from '../../src/store/index.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t0: TestApp;
let admin: string, modeler: string;
test.before(async () => {
  t0 = await startTestApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '200', SEXTANT_BCRYPT_COST: '4' });
  const token = async (email: string) => t0.session((await findUserByEmail(sqliteExecutor(t0.app.services.store.sqlite!), email))!, DEMO_ORG_ID);
  admin = await token('admin@demo.sextant.local');
  modeler = await token('modeler@demo.sextant.local');
});
test.after.always(() => t0.stop());

const SETTINGS = '/api/admin/organization/settings';
const setting = async (token: string) => (await call(t0, 'GET', SETTINGS, { token })).body.production_through_environments as boolean;
const protect = (token: string, on: boolean) => call(t0, 'PATCH', SETTINGS, { token, body: { production_through_environments: on } });
const note = (title: string) => ({ title, body: 'text', tags: [] });

/** The refusal every direct write to production answers while the setting is on. */
function refused(t: import('ava').ExecutionContext, res: { status: number; body: Record<string, unknown> }, what: string) {
  t.is(res.status, 403, what);
  t.is(res.body['code'], 'PRODUCTION_THROUGH_ENVIRONMENTS', what);
  t.deepEqual(res.body['data'], { setting: 'production_through_environments' }, what);
  t.regex(String(res.body['detail']), /only through environments.*create an environment/, what);
}

test('an organization created by sign-up changes production only through environments', async (t) => {
  t.is((await call(t0, 'POST', '/api/auth/register', { body: { email: 'founder@signup.test', password: 'a long enough passphrase' } })).status, 202);
  const db = t0.app.services.store.sqlite!;
  const user = (await findUserByEmail(sqliteExecutor(db), 'founder@signup.test'))!;
  const { org_id: orgId } = db.prepare('SELECT org_id FROM memberships WHERE user_id = ?').get(user.id) as { org_id: string };
  const founder = t0.session(user, orgId);
  t.true(await setting(founder));
  refused(t, await call(t0, 'POST', '/api/knowledge/notes', { token: founder, body: note('Direct') }), 'create');
  const env = (await call(t0, 'POST', '/api/environments', { token: founder, body: { name: 'First change', color: '#1e88e5' } })).body.id as string;
  t.is((await call(t0, 'POST', '/api/knowledge/notes', { token: founder, env, body: note('Through an environment') })).status, 201);
  t.is((await call(t0, 'POST', `/api/environments/${env}/merge`, { token: founder, body: { confirm: true } })).status, 200);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/through-an-environment', { token: founder })).status, 200);
});

test('organizations that exist, and those the test helpers make, write production directly', async (t) => {
  const orgId = t0.org();
  const own = t0.session(t0.user({ orgId, role: 'admin' }));
  t.false(await setting(own));
  t.is((await call(t0, 'POST', '/api/knowledge/notes', { token: own, body: note('Direct') })).status, 201);
  const asked = t0.session(t0.user({ orgId: t0.org(undefined, { productionThroughEnvironments: true }), role: 'admin' }));
  refused(t, await call(t0, 'POST', '/api/knowledge/notes', { token: asked, body: note('Direct') }), 'helper option');
});

test.serial('while on, every write to production is refused and environments merge as before', async (t) => {
  const created = await call(t0, 'POST', '/api/knowledge/notes?id=kept', { token: admin, body: note('Kept') });
  t.is(created.status, 201);
  const commit = (await call(t0, 'GET', '/api/knowledge/model/history?limit=1', { token: admin })).body.commits[0].commit as string;
  t.is((await protect(admin, true)).status, 200);
  t.true(await setting(admin));
  for (const token of [admin, modeler]) {
    refused(t, await call(t0, 'POST', '/api/knowledge/notes', { token, body: note('New') }), 'create');
    refused(t, await call(t0, 'PUT', '/api/knowledge/notes/kept', { token, body: note('Changed') }), 'update');
    refused(t, await call(t0, 'DELETE', '/api/knowledge/notes/kept', { token }), 'delete');
    refused(t, await call(t0, 'POST', '/api/knowledge/notes/kept/revert', { token, body: { commit } }), 'item revert');
    refused(t, await call(t0, 'POST', '/api/knowledge/model/revert', { token, body: { commit } }), 'model revert');
  }
  refused(t, await call(t0, 'POST', '/api/sync/duckdb/demo_warehouse', { token: admin, body: {} }), 'sync into production');
  t.is((await call(t0, 'GET', '/api/knowledge/notes/kept', { token: modeler })).body.data.title, 'Kept', 'nothing was written');
  // An environment takes every change, its sync included, and merging it is how production changes.
  const env = (await call(t0, 'POST', '/api/environments', { token: modeler, body: { name: 'Protected change', color: '#1e88e5' } })).body.id as string;
  t.is((await call(t0, 'PUT', '/api/knowledge/notes/kept', { token: modeler, env, body: note('Changed') })).status, 200);
  t.is((await call(t0, 'POST', '/api/sync/duckdb/demo_warehouse', { token: modeler, env, body: {} })).status, 200);
  t.is((await call(t0, 'POST', `/api/environments/${env}/merge`, { token: admin, body: { confirm: true } })).status, 200);
  t.is((await call(t0, 'GET', '/api/knowledge/notes/kept', { token: modeler })).body.data.title, 'Changed');
  // Turned off, production is written directly again.
  t.is((await protect(admin, false)).status, 200);
  t.is((await call(t0, 'DELETE', '/api/knowledge/notes/kept', { token: admin })).status, 200);
});

test.serial('a workspace follows its base organization, and another organization is untouched', async (t) => {
  const base = t0.org();
  const baseAdmin = t0.session(t0.user({ orgId: base, role: 'admin' }));
  const ws = t0.org(undefined, { baseOrgId: base });
  const wsAdmin = t0.session(t0.user({ orgId: ws, role: 'admin' }));
  const other = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
  t.is((await protect(baseAdmin, true)).status, 200);
  refused(t, await call(t0, 'POST', '/api/knowledge/notes', { token: wsAdmin, body: note('In the workspace') }), 'workspace');
  t.is((await call(t0, 'POST', '/api/knowledge/notes', { token: other, body: note('Elsewhere') })).status, 201);
  t.false(await setting(other));
});

test('only admins change the setting, and it must be a boolean', async (t) => {
  t.is((await protect(modeler, true)).status, 403);
  t.is((await call(t0, 'PATCH', SETTINGS, { body: { production_through_environments: true } })).status, 401);
  const bad = await call(t0, 'PATCH', SETTINGS, { token: admin, body: { production_through_environments: 'yes' } });
  t.is(bad.status, 422);
  t.deepEqual(bad.body.detail[0].loc, ['body', 'production_through_environments']);
});

test('the OpenAPI document names the setting and the refusal', async (t) => {
  const doc = (await (await t0.fetch('/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>; components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
  for (const [path, method] of [['/api/knowledge/{kind}', 'post'], ['/api/knowledge/{kind}/{id}', 'put'], ['/api/knowledge/{kind}/{id}', 'delete'], ['/api/knowledge/{kind}/{id}/revert', 'post'], ['/api/knowledge/model/revert', 'post'], ['/api/sync/{connection_type}/{connection_id}', 'post']] as const) {
    t.regex(doc.paths[path]![method]!.responses['403']!.description, /PRODUCTION_THROUGH_ENVIRONMENTS/, `${method} ${path}`);
  }
  t.truthy(doc.components.schemas['Body_admin_update_org_settings']!.properties['production_through_environments']);
});

test.serial('admins and modelers read the rule on production where they work; others are refused', async (t) => {
  const orgId = t0.org(undefined, { productionThroughEnvironments: true });
  const own = t0.session(t0.user({ orgId, role: 'modeler' }));
  t.deepEqual((await call(t0, 'GET', '/api/knowledge/settings', { token: own })).body, { production_through_environments: true });
  t.deepEqual((await call(t0, 'GET', '/api/knowledge/settings', { token: t0.session(t0.user({ orgId: t0.org(), role: 'modeler' })) })).body, { production_through_environments: false });
  t.is((await call(t0, 'GET', '/api/knowledge/settings', { token: t0.session(t0.user({ orgId, role: 'user' })) })).status, 403);
  t.is((await call(t0, 'GET', '/api/knowledge/settings')).status, 401);
});
