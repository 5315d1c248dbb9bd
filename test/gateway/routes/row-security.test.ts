import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const call = (method: string, path: string, token: string, body?: unknown) =>
  t0.fetch(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });

test('an admin sets a member\'s attributes and groups, and reads them back as row filters see them', async (t) => {
  const org = t0.org();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const u = t0.user({ orgId: org });
  let res = await call('PUT', `/api/row-security/users/${u.id}/attributes`, admin, { attributes: { country: 'Germany', region: 'EMEA' } });
  t.is(res.status, 200);
  res = await call('PUT', '/api/row-security/groups/emea_sales', admin, { name: 'EMEA sales', members: [u.id] });
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { id: 'emea_sales', name: 'EMEA sales', members: [u.id] });
  res = await call('GET', `/api/row-security/users/${u.id}/attributes`, admin);
  t.deepEqual(await res.json(), { user_id: u.id, attributes: { country: 'Germany', region: 'EMEA' }, groups: ['emea_sales', 'EMEA sales'] });
  res = await call('GET', '/api/row-security/groups', admin);
  t.deepEqual(((await res.json()) as { groups: { id: string }[] }).groups.map((g) => g.id), ['emea_sales']);
  t.is((await call('PUT', '/api/row-security/groups/other', admin, { name: 'EMEA sales', members: [] })).status, 409);
  t.is((await call('DELETE', '/api/row-security/groups/emea_sales', admin)).status, 200);
  t.is((await call('DELETE', '/api/row-security/groups/emea_sales', admin)).status, 404);
});

test('row-security endpoints are admin-only, validate input and stay inside the organization', async (t) => {
  const org = t0.org();
  const otherOrg = t0.org();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  const stranger = t0.user({ orgId: otherOrg });
  const member = t0.user({ orgId: org });
  t.is((await call('GET', '/api/row-security/groups', modeler)).status, 403);
  t.is((await call('PUT', `/api/row-security/users/${member.id}/attributes`, modeler, { attributes: {} })).status, 403);
  t.is((await t0.fetch('/api/row-security/groups')).status, 401);
  t.is((await call('PUT', `/api/row-security/users/${stranger.id}/attributes`, admin, { attributes: { country: 'x' } })).status, 404);
  t.is((await call('GET', `/api/row-security/users/${stranger.id}/attributes`, admin)).status, 404);
  t.is((await call('PUT', '/api/row-security/groups/g1', admin, { name: 'g1', members: [stranger.id] })).status, 404);
  const bad = await call('PUT', `/api/row-security/users/${member.id}/attributes`, admin, { attributes: { 'bad name': 'x' } });
  t.is(bad.status, 422);
  // The attribute's name is refused in words, at the name.
  t.deepEqual(((await bad.json()) as { detail: unknown[] }).detail[0], { loc: ['body', 'attributes', 'bad name'], msg: 'Invalid name: Letters, digits and _, not starting with a digit, at most 64 characters', type: 'string_pattern_mismatch' });
  t.is((await call('PUT', '/api/row-security/groups/g1', admin, { members: [] })).status, 422);
});

test('PUT /api/row-security/users/{id}/attributes refuses the reserved names with 422 like the members route, and stores nothing', async (t) => {
  const org = t0.org();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const u = t0.user({ orgId: org });
  t.is((await call('PUT', `/api/row-security/users/${u.id}/attributes`, admin, { attributes: { region: 'EMEA' } })).status, 200);
  for (const name of ['role', 'email', 'id', 'groups', 'Role', 'EMAIL']) {
    for (const path of [`/api/row-security/users/${u.id}/attributes`, `/api/admin/members/${u.id}/attributes`]) {
      const res = await call('PUT', path, admin, { attributes: { region: 'APAC', [name]: 'admin' } });
      t.is(res.status, 422, `${path} ${name}`);
      const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
      t.deepEqual(body.detail.map((d) => d.loc), [['body', 'attributes', name]], `${path} ${name}`);
      t.is(typeof body.detail[0]!.msg, 'string');
      t.is(body.detail[0]!.type, 'value_error');
    }
  }
  // The refused writes changed nothing, not even the allowed attribute sent with them.
  const res = await call('GET', `/api/row-security/users/${u.id}/attributes`, admin);
  t.deepEqual(await res.json(), { user_id: u.id, attributes: { region: 'EMEA' }, groups: [] });
});

test('a reserved name stored before the rule is never shown or read as an attribute', async (t) => {
  const org = t0.org();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const u = t0.user({ orgId: org });
  t0.app.services.store.sqlite!.prepare('INSERT INTO user_attributes (org_id, user_id, name, value) VALUES (?, ?, ?, ?), (?, ?, ?, ?)').run(org, u.id, 'role', 'admin', org, u.id, 'country', 'FR');
  const res = await call('GET', `/api/row-security/users/${u.id}/attributes`, admin);
  t.deepEqual(await res.json(), { user_id: u.id, attributes: { country: 'FR' }, groups: [] });
  const member = await call('GET', `/api/admin/members/${u.id}`, admin);
  t.deepEqual(((await member.json()) as { attributes: unknown }).attributes, { country: 'FR' });
});

/** Documents `orders` of connection `wh` in production with the given row filters. */
async function documentOrders(admin: string, rowFilters: unknown[]) {
  const res = await call('POST', '/api/knowledge/tables', admin, { connection: 'wh', schema: 'main', name: 'orders', columns: [{ name: 'country', type: 'VARCHAR' }], row_filters: rowFilters });
  if (res.status !== 201) throw new Error(await res.text());
}

test('the preview shows, per filtered table, what a chosen member would see', async (t) => {
  const org = t0.org();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const analyst = t0.user({ orgId: org, role: 'user', email: `preview-${org}@example.com` });
  const newcomer = t0.user({ orgId: org, role: 'user' });
  const boss = t0.user({ orgId: org, role: 'admin' });
  await documentOrders(admin, [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }, { filter: "region = 'EMEA'", groups: ['emea'] }]);
  await call('PUT', `/api/row-security/users/${analyst.id}/attributes`, admin, { attributes: { country: "Côte d'Ivoire" } });

  let res = await call('GET', `/api/row-security/users/${analyst.id}/preview`, admin);
  t.is(res.status, 200);
  t.deepEqual(await res.json(), {
    user_id: analyst.id,
    email: analyst.email,
    role: 'user',
    attributes: { country: "Côte d'Ivoire" },
    groups: [],
    // No connection named wh: the values are quoted as standard SQL.
    tables: [{ connection: 'wh', schema: 'main', name: 'orders', sees: 'filtered', filter: "(country = 'Côte d''Ivoire')" }],
  });
  // Without the attribute the filter denies every row; an exempt role sees them all.
  res = await call('GET', `/api/row-security/users/${newcomer.id}/preview`, admin);
  t.like(((await res.json()) as { tables: unknown[] }).tables[0], { sees: 'none', filter: '(1 = 0)' });
  res = await call('GET', `/api/row-security/users/${boss.id}/preview`, admin);
  t.like(((await res.json()) as { tables: unknown[] }).tables[0], { sees: 'all', filter: null });
  // A group filter adds itself for the group's members.
  await call('PUT', '/api/row-security/groups/emea', admin, { name: 'EMEA', members: [analyst.id] });
  res = await call('GET', `/api/row-security/users/${analyst.id}/preview`, admin);
  t.like(((await res.json()) as { tables: unknown[] }).tables[0], { sees: 'filtered', filter: "(country = 'Côte d''Ivoire') AND (region = 'EMEA')" });
});

test('the preview is admin-only, validated and inside the organization', async (t) => {
  const org = t0.org();
  const admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const modeler = t0.session(t0.user({ orgId: org, role: 'modeler' }));
  const member = t0.user({ orgId: org });
  const stranger = t0.user({ orgId: t0.org() });
  t.is((await t0.fetch(`/api/row-security/users/${member.id}/preview`)).status, 401);
  t.is((await call('GET', `/api/row-security/users/${member.id}/preview`, modeler)).status, 403);
  t.is((await call('GET', `/api/row-security/users/${stranger.id}/preview`, admin)).status, 404);
  t.is((await call('GET', '/api/row-security/users/nobody/preview', admin)).status, 404);
  const res = await call('GET', `/api/row-security/users/${'u'.repeat(101)}/preview`, admin);
  t.is(res.status, 422);
  t.deepEqual(((await res.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc, ['path', 'user_id']);
});
