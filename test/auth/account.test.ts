import test from 'ava';
import type { TestApp } from '../helpers/app.ts';
import { call, startAuthApp } from '../helpers/auth.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startAuthApp();
});
test.after.always(() => t0.stop());

test('the profile reads and updates name and Background (slack_title)', async (t) => {
  const s = t0.session(t0.user());
  const put = await call(t0, 'PUT', '/api/auth/user_profile', { name: 'Ada L.', slack_title: 'Finance analyst' }, s);
  t.is(put.status, 200);
  const got = await call(t0, 'GET', '/api/auth/user_profile', undefined, s);
  t.like(got.body, { name: 'Ada L.', slack_title: 'Finance analyst', memories: [] });
  t.is((await call(t0, 'PUT', '/api/auth/user_profile', { name: '' }, s)).status, 422);
  t.is((await call(t0, 'GET', '/api/auth/user_profile')).status, 401);
});

test('memories: a missing title is derived and follows the content; a user title wins', async (t) => {
  const s = t0.session(t0.user());
  const made = await call(t0, 'POST', '/api/auth/user_memory', { content: 'Fiscal year starts in April\nso Q1 is Apr-Jun' }, s);
  t.is(made.status, 201);
  t.is(made.body['title'], 'Fiscal year starts in April');
  const id = made.body['memory_id'] as string;
  const edited = await call(t0, 'PUT', `/api/auth/user_memory/${id}`, { content: 'Revenue means net of returns' }, s);
  t.is(edited.body['title'], 'Revenue means net of returns');
  const titled = await call(t0, 'PUT', `/api/auth/user_memory/${id}`, { title: 'Revenue rule' }, s);
  t.is(titled.body['title'], 'Revenue rule');
  const kept = await call(t0, 'PUT', `/api/auth/user_memory/${id}`, { content: 'Revenue excludes tax too' }, s);
  t.is(kept.body['title'], 'Revenue rule');
  t.is(kept.body['content'], 'Revenue excludes tax too');
  const withTitle = await call(t0, 'POST', '/api/auth/user_memory', { content: 'x', title: 'Mine' }, s);
  t.is(withTitle.body['title'], 'Mine');
  t.is(((await call(t0, 'GET', '/api/auth/user_profile', undefined, s)).body['memories'] as unknown[]).length, 2);
  t.is((await call(t0, 'DELETE', `/api/auth/user_memory/${id}`, undefined, s)).status, 200);
  t.is((await call(t0, 'DELETE', `/api/auth/user_memory/${id}`, undefined, s)).status, 404);
  t.is((await call(t0, 'POST', '/api/auth/user_memory', { content: '' }, s)).status, 422);
});

test("memories of another user are 404, even in the same organization", async (t) => {
  const owner = t0.session(t0.user());
  const other = t0.session(t0.user());
  const id = (await call(t0, 'POST', '/api/auth/user_memory', { content: 'private' }, owner)).body['memory_id'] as string;
  t.is((await call(t0, 'PUT', `/api/auth/user_memory/${id}`, { content: 'mine now' }, other)).status, 404);
  t.is((await call(t0, 'DELETE', `/api/auth/user_memory/${id}`, undefined, other)).status, 404);
  t.is(((await call(t0, 'GET', '/api/auth/user_profile', undefined, other)).body['memories'] as unknown[]).length, 0);
});

test('dismissed disclaimers come back as a map of hash to true', async (t) => {
  const s = t0.session(t0.user());
  t.deepEqual((await call(t0, 'GET', '/api/auth/get_dismissed_disclaimers', undefined, s)).body, {});
  await call(t0, 'POST', '/api/auth/dismiss_disclaimer', { disclaimer_hash: 'abc' }, s);
  await call(t0, 'POST', '/api/auth/dismiss_disclaimer', { disclaimer_hash: 'abc' }, s);
  await call(t0, 'POST', '/api/auth/dismiss_disclaimer', { disclaimer_hash: 'def' }, s);
  t.deepEqual((await call(t0, 'GET', '/api/auth/get_dismissed_disclaimers', undefined, s)).body, { abc: true, def: true });
  t.is((await call(t0, 'POST', '/api/auth/dismiss_disclaimer', {}, s)).status, 422);
  t.is((await call(t0, 'GET', '/api/auth/get_dismissed_disclaimers')).status, 401);
});

test('a dismissed disclaimer is shown again after restore_disclaimer, for the caller only', async (t) => {
  const org = t0.org();
  const a = t0.session(t0.user({ orgId: org }));
  const b = t0.session(t0.user({ orgId: org }));
  for (const s of [a, b]) await call(t0, 'POST', '/api/auth/dismiss_disclaimer', { disclaimer_hash: 'ai-answers' }, s);
  const restored = await call(t0, 'POST', '/api/auth/restore_disclaimer', { disclaimer_hash: 'ai-answers' }, a);
  t.is(restored.status, 200);
  t.deepEqual(restored.body, { status: 'restored' });
  t.deepEqual((await call(t0, 'GET', '/api/auth/get_dismissed_disclaimers', undefined, a)).body, {});
  // Another user's dismissal, even in the same organization, is not touched.
  t.deepEqual((await call(t0, 'GET', '/api/auth/get_dismissed_disclaimers', undefined, b)).body, { 'ai-answers': true });
  // Idempotent: restoring what is not dismissed changes nothing.
  t.is((await call(t0, 'POST', '/api/auth/restore_disclaimer', { disclaimer_hash: 'never-dismissed' }, a)).status, 200);
  const invalid = await call(t0, 'POST', '/api/auth/restore_disclaimer', { disclaimer_hash: ' ' }, a);
  t.is(invalid.status, 422);
  t.deepEqual((invalid.body.detail as { loc: unknown[] }[]).map((d) => d.loc), [['body', 'disclaimer_hash']]);
  t.is((await call(t0, 'POST', '/api/auth/restore_disclaimer', { disclaimer_hash: 'ai-answers' })).status, 401);
});

test('org_from_email answers from the domain only, the same for existing and missing users', async (t) => {
  const orgId = t0.org();
  const db = t0.app.services.store.sqlite!;
  db.prepare('INSERT INTO org_email_domains (domain, org_id) VALUES (?, ?)').run('bigco.test', orgId);
  db.prepare("INSERT INTO sso_configs (org_id, type, issuer, client_id, created_at) VALUES (?, 'oidc', 'https://idp.test', 'c', 0)").run(orgId);
  t0.user({ orgId, email: 'exists@bigco.test' });
  const known = await call(t0, 'GET', '/api/auth/org_from_email?email=exists@bigco.test');
  const missing = await call(t0, 'GET', '/api/auth/org_from_email?email=missing@bigco.test');
  t.is(known.status, 200);
  t.deepEqual(known.body, missing.body);
  t.like(known.body, { org_id: orgId });
  t.true((known.body['methods'] as string[]).includes('sso:oidc'));
  t.like((await call(t0, 'GET', '/api/auth/org_from_email?email=a@elsewhere.test')).body, { org_id: null });
  t.is((await call(t0, 'GET', '/api/auth/org_from_email')).status, 422);
});

test.serial('embedded_user_login gives a short-lived token limited to the caller\'s organization', async (t) => {
  const admin = t0.user({ role: 'admin' });
  const member = t0.user();
  const outsider = t0.user({ orgId: t0.org() });
  const res = await call(t0, 'POST', '/api/auth/embedded_user_login', { user_id: member.id }, t0.session(admin));
  t.is(res.status, 200);
  const token = res.body['access_token'] as string;
  const me = await call(t0, 'GET', '/api/auth/me', undefined, token);
  t.like(me.body, { user_id: member.id, org_id: 'acme', credential: 'embedded' });
  t.is((await call(t0, 'POST', '/api/auth/embedded_user_login', {}, token)).status, 403);
  t.is((await call(t0, 'POST', '/api/auth/embedded_user_login', { user_id: outsider.id }, t0.session(admin))).status, 404);
  t.is((await call(t0, 'POST', '/api/auth/embedded_user_login', { user_id: admin.id }, t0.session(member))).status, 403);
  t.is((await call(t0, 'POST', '/api/auth/embedded_user_login', {}, t0.session(member))).status, 200);
  t.is((await call(t0, 'POST', '/api/auth/embedded_user_login', {})).status, 401);
  t0.clock.advance(16 * 60_000);
  t.is((await call(t0, 'GET', '/api/auth/me', undefined, token)).status, 401);
});
