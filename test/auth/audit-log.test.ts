import test from 'ava';
import { writeAudit } from '../../src/auth/index.ts';
import { auditEntryQuery } from '../../src/auth/audit-log/write-audit.ts';
import type { TestApp } from '../helpers/app.ts';
import { call, enrollMfa, passwordUser, signIn, startAuthApp } from '../helpers/auth.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp();
});
test.after.always(() => t0.stop());

interface Entry { id: string; action: string; outcome: string; actor_id: string | null; target_id: string | null; target_type: string | null; ip: string | null; data: Record<string, unknown> }

function team() {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  return { orgId, admin, session: t0.session(admin) };
}

async function entries(session: string, query = ''): Promise<Entry[]> {
  const res = await call(t0, 'GET', `/api/admin/audit?limit=500${query}`, undefined, session);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body['entries'] as Entry[];
}

test('sign-ins and failed sign-ins are audited with client address and outcome', async (t) => {
  const { orgId, session } = team();
  const user = await passwordUser(t0, { orgId });
  t.is((await signIn(t0, user.email, 'wrong password entirely')).status, 401);
  t.is((await signIn(t0, user.email)).status, 200);
  const log = await entries(session, `&target_id=${user.id}`);
  const failed = log.find((e) => e.action === 'sign_in_failed')!;
  t.like(failed, { outcome: 'failure', target_type: 'user', target_id: user.id });
  t.is(failed.data['code'], 'INVALID_CREDENTIALS');
  t.truthy(failed.ip);
  t.truthy(log.find((e) => e.action === 'sign_in' && e.outcome === 'success')?.ip);
  // The outcome filter selects the failures only.
  t.deepEqual((await entries(session, `&target_id=${user.id}&outcome=failure`)).map((e) => e.action), ['sign_in_failed']);
});

test('token, MFA, attribute, group and connection changes are audited with actor and target', async (t) => {
  const { orgId, admin, session } = team();
  const member = t0.user({ orgId });
  const created = await call(t0, 'POST', `/api/auth/admin/users/${member.id}/tokens`, { name: 'ci' }, session);
  t.is(created.status, 201);
  t.is((await call(t0, 'DELETE', `/api/auth/admin/users/${member.id}/tokens/${created.body['token_id'] as string}`, undefined, session)).status, 204);
  await enrollMfa(t0, t0.session(member));
  t.is((await call(t0, 'POST', `/api/auth/admin/users/${member.id}/mfa/reset`, undefined, session)).status, 200);
  t.is((await call(t0, 'PUT', `/api/row-security/users/${member.id}/attributes`, { attributes: { region: 'emea' } }, session)).status, 200);
  t.is((await call(t0, 'PUT', '/api/row-security/groups/sales', { name: 'Sales', members: [member.id] }, session)).status, 200);
  t.is((await call(t0, 'DELETE', '/api/row-security/groups/sales', undefined, session)).status, 200);
  // A refused change is audited as a failure with its code.
  const refused = await call(t0, 'POST', '/api/connections', { id: 'wh', name: 'wh', type: 'duckdb', settings: { path: '/etc/passwd' } }, session);
  t.true(refused.status >= 400);
  const log = await entries(session);
  const of = (action: string) => log.filter((e) => e.action === action);
  t.like(of('token_created')[0], { actor_id: admin.id, target_type: 'token', target_id: created.body['token_id'] as string, outcome: 'success' });
  t.like(of('token_revoked')[0], { actor_id: admin.id, target_id: created.body['token_id'] as string });
  t.like(of('mfa_enabled')[0], { actor_id: member.id });
  t.like(of('mfa_admin_reset')[0], { actor_id: admin.id, target_type: 'user', target_id: member.id });
  t.like(of('user_attributes_changed')[0], { actor_id: admin.id, target_type: 'user', target_id: member.id });
  t.like(of('group_saved')[0], { target_type: 'group', target_id: 'sales' });
  t.like(of('group_deleted')[0], { target_id: 'sales' });
  t.like(of('connection_created')[0], { outcome: 'failure' });
  t.truthy(of('connection_created')[0]!.data['code']);
  t.deepEqual(log.filter((e) => e.ip === null).map((e) => e.action), [], 'every entry carries the client address');
});

test('admins filter by actor, action and time and page with a cursor without gaps or repeats', async (t) => {
  const { orgId, admin, session } = team();
  const other = t0.user({ orgId });
  const start = t0.clock.now();
  for (let i = 0; i < 25; i++) {
    await writeAudit({ store: t0.app.services.executor, clock: t0.clock }, { action: i % 2 ? 'odd' : 'even', orgId, actorId: i % 5 ? admin.id : other.id, target: { type: 't', id: `x${i}` } });
    if (i === 9) t0.clock.advance(3_600_000);
  }
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const q: string = cursor ? `&cursor=${cursor}` : '';
    const page = await call(t0, 'GET', `/api/admin/audit?limit=7&from=${new Date(start).toISOString()}${q}`, undefined, session);
    seen.push(...(page.body['entries'] as Entry[]).map((e) => e.target_id!));
    cursor = page.body['next_cursor'] as string | null;
  } while (cursor);
  t.is(seen.length, 25);
  t.is(new Set(seen).size, 25);
  t.is(seen[0], 'x24');
  t.is((await entries(session, '&action=odd')).length, 12);
  t.is((await entries(session, `&actor_id=${other.id}`)).length, 5);
  // By email, as an admin knows people, in any case.
  t.deepEqual((await entries(session, `&actor_email=${encodeURIComponent(other.email.toUpperCase())}`)).map((e) => e.actor_id), Array<string>(5).fill(other.id));
  t.deepEqual(await entries(session, '&actor_email=nobody%40example.com'), []);
  const laterOnly = await entries(session, `&from=${new Date(start + 1_800_000).toISOString()}`);
  t.is(laterOnly.filter((e) => e.action === 'odd' || e.action === 'even').length, 15);
  t.is((await entries(session, `&to=${new Date(start + 1_800_000).toISOString()}&action=even`)).length, 5);
});

test("another organization's admin never reads this organization's entries, by filter, page or export", async (t) => {
  const a = team();
  const b = team();
  await writeAudit({ store: t0.app.services.executor, clock: t0.clock }, { action: 'secret_thing', orgId: a.orgId, actorId: a.admin.id, target: { type: 't', id: 'a-only' } });
  t.deepEqual(await entries(b.session, `&actor_id=${a.admin.id}`), []);
  t.deepEqual(await entries(b.session, `&actor_email=${encodeURIComponent(a.admin.email)}`), []);
  t.deepEqual(await entries(b.session, '&target_id=a-only'), []);
  const exp = await t0.fetch('/api/admin/audit/export?action=secret_thing', { headers: { authorization: `Bearer ${b.session}` } });
  t.is(await exp.text(), '');
  t.is((await entries(a.session, '&target_id=a-only')).length, 1);
});

test('the export streams every entry as JSON lines and as CSV with formula cells defused', async (t) => {
  const { orgId, session } = team();
  const x = t0.app.services.executor;
  const ids = [...Array.from({ length: 1200 }, (_, i) => `r${i}`), '=HYPERLINK("http://evil.test")'];
  await x.batch(ids.map((id) => auditEntryQuery(x, { action: 'bulk', orgId, target: { type: 't', id } }, t0.clock.now())));
  const res = await t0.fetch('/api/admin/audit/export?action=bulk', { headers: { authorization: `Bearer ${session}` } });
  t.is(res.headers.get('content-type'), 'application/x-ndjson');
  t.is(res.headers.get('content-length'), null);
  const jsonl = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as Entry);
  t.is(jsonl.length, 1201);
  const csv = await (await t0.fetch('/api/admin/audit/export?action=bulk&format=csv', { headers: { authorization: `Bearer ${session}` } })).text();
  const rows = csv.trim().split('\r\n');
  t.is(rows.length, 1202);
  t.true(rows[0]!.startsWith('id,time,action,outcome'));
  t.true(csv.includes(`"'=HYPERLINK(""http://evil.test"")"`));
});

test('401 without a credential, 403 for members, 422 for bad filters', async (t) => {
  const { orgId, session } = team();
  t.is((await call(t0, 'GET', '/api/admin/audit')).status, 401);
  t.is((await call(t0, 'GET', '/api/admin/audit/export')).status, 401);
  const member = t0.session(t0.user({ orgId, role: 'modeler' }));
  t.is((await call(t0, 'GET', '/api/admin/audit', undefined, member)).status, 403);
  t.is((await call(t0, 'GET', '/api/admin/audit/export', undefined, member)).status, 403);
  for (const q of ['outcome=maybe', 'limit=0', 'limit=501', 'from=yesterday', 'cursor=bm90LWEtY3Vyc29y', 'format=xml', 'actor_email=x', `actor_email=${'a'.repeat(321)}`]) {
    const path = q.startsWith('format') ? `/api/admin/audit/export?${q}` : `/api/admin/audit?${q}`;
    const res = await call(t0, 'GET', path, undefined, session);
    t.is(res.status, 422, q);
    t.true(Array.isArray(res.body.detail), q);
  }
});

test('knowledge writes (row filters live in table documentation) and merges to production are audited', async (t) => {
  const { session, admin } = team();
  const created = await t0.fetch('/api/environments', { method: 'POST', headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Audit env', color: '#123456' }) });
  t.is(created.status, 201);
  const env = (await created.json()) as { id: string };
  const write = await t0.fetch('/api/knowledge/notes?id=audited-note', {
    method: 'POST',
    headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json', 'x-service-environment': env.id },
    body: JSON.stringify({ title: 'Audited', body: 'text' }),
  });
  t.is(write.status, 201);
  t.is((await call(t0, 'POST', `/api/environments/${env.id}/merge`, { confirm: true }, session)).status, 200);
  const log = await entries(session);
  t.like(log.find((e) => e.action === 'knowledge_item_created'), { actor_id: admin.id, target_type: 'knowledge', target_id: 'audited-note', outcome: 'success' });
  t.like(log.find((e) => e.action === 'knowledge_merged'), { actor_id: admin.id, target_type: 'environment', target_id: env.id, outcome: 'success' });
});
