// Accounts served from PostgreSQL: sign-in and out, MFA, magic link, password reset, tokens, profile,
// workspaces, admin members and invitations, SSO providers, audit, usage and credit limits.
import { generateSync } from 'otplib';
import { call, type Json } from '../helpers/auth.ts';
import { mailed, pgApp, pgTest as test, sharedPgApp } from '../helpers/pg-app.ts';
import type { TestApp } from '../helpers/app.ts';
import { hashPassword } from '../../src/security/index.ts';
import { startTestIdp } from '../helpers/oidc-idp.ts';
import { browse } from '../helpers/sso-browser.ts';

sharedPgApp();

const PASSWORD = 'correct horse battery staple';
const hashed = hashPassword(PASSWORD);

async function member(a: TestApp, opts: Parameters<TestApp['make']['user']>[0] = {}) {
  const user = await a.make.user({ passwordHash: await hashed, ...opts });
  return { user, session: await a.make.session(user) };
}

const ok = (t: { is(a: unknown, b: unknown, m?: string): void }, res: Json, status = 200) => t.is(res.status, status, JSON.stringify(res.body));

test('password sign-in, me, and logout; a wrong password is refused', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { user } = await member(a);
  t.is((await call(a, 'POST', '/api/auth/token', { email: user.email, password: 'wrong password' })).status, 401);
  const signed = await call(a, 'POST', '/api/auth/token', { email: user.email, password: PASSWORD });
  ok(t, signed);
  const token = signed.body['access_token'] as string;
  const me = await call(a, 'GET', '/api/auth/me', undefined, token);
  ok(t, me);
  t.is(me.body['email'], user.email);
  ok(t, await call(a, 'POST', '/api/auth/logout', {}, token));
  t.is((await call(a, 'GET', '/api/auth/me', undefined, token)).status, 401);
});

test('MFA: setup, confirm, sign-in with the second step, wrong code refused, disable', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { user, session } = await member(a);
  const setup = await call(a, 'POST', '/api/auth/mfa/setup', {}, session);
  ok(t, setup);
  const secret = setup.body['secret'] as string;
  const code = () => generateSync({ secret, epoch: Math.floor(a.clock.now() / 1000) });
  t.is((await call(a, 'POST', '/api/auth/mfa/confirm', { code: code() === '000000' ? '000001' : '000000' }, session)).status, 400);
  const confirm = await call(a, 'POST', '/api/auth/mfa/confirm', { code: code() }, session);
  ok(t, confirm);
  t.is((confirm.body['recovery_codes'] as string[]).length, 10);
  t.is((await call(a, 'GET', '/api/auth/mfa/status', undefined, session)).body['enabled'], true);
  a.clock.advance(30_000);
  const first = await call(a, 'POST', '/api/auth/token', { email: user.email, password: PASSWORD });
  ok(t, first);
  const mfaToken = first.body['mfa_token'] as string;
  t.truthy(mfaToken, JSON.stringify(first.body));
  const second = await call(a, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: code() });
  ok(t, second);
  t.is((await call(a, 'POST', '/api/auth/token/mfa', { mfa_token: mfaToken, code: code() })).status, 401);
  a.clock.advance(30_000);
  const recovery = (confirm.body['recovery_codes'] as string[])[0]!;
  ok(t, await call(a, 'POST', '/api/auth/mfa/disable', { password: PASSWORD, code: recovery }, session));
  t.is((await call(a, 'GET', '/api/auth/mfa/status', undefined, session)).body['enabled'], false);
});

test('a magic link signs in once; the second use is refused', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { user } = await member(a);
  t.is((await call(a, 'POST', '/api/auth/magic_link/request', { email: user.email })).status, 202);
  const token = await mailed(a, user.email, 'Magic link token');
  ok(t, await call(a, 'POST', '/api/auth/magic_link/consume', { token }));
  const again = await call(a, 'POST', '/api/auth/magic_link/consume', { token });
  t.is(again.status, 400);
  t.is(again.body.code, 'INVALID_TOKEN');
});

test('a password reset changes the password once and ends live sessions', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { user, session } = await member(a);
  ok(t, await call(a, 'POST', '/api/auth/reset_password', { email: user.email }));
  const token = await mailed(a, user.email, 'Reset token');
  t.is((await call(a, 'POST', '/api/auth/reset_password', { token, new_password: 'short' })).status, 422);
  ok(t, await call(a, 'POST', '/api/auth/reset_password', { token, new_password: 'a brand new passphrase' }));
  t.is((await call(a, 'POST', '/api/auth/reset_password', { token, new_password: 'another new passphrase' })).status, 400);
  t.is((await call(a, 'GET', '/api/auth/me', undefined, session)).status, 401);
  ok(t, await call(a, 'POST', '/api/auth/token', { email: user.email, password: 'a brand new passphrase' }));
});

test('API, MCP and CLI tokens: create, list, use, delete; another user cannot delete them', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { session } = await member(a);
  const other = await member(a);
  const api = await call(a, 'POST', '/api/auth/user/tokens', { name: 'embedding app' }, session);
  ok(t, api, 201);
  const apiToken = api.body['token'] as string;
  ok(t, await call(a, 'GET', '/api/auth/me', undefined, apiToken));
  const listed = await call(a, 'GET', '/api/auth/user/tokens', undefined, session);
  ok(t, listed);
  t.true(JSON.stringify(listed.body).includes('embedding app'));
  const mcp = await call(a, 'POST', '/api/auth/user/tokens/mcp', undefined, session);
  t.true(mcp.status === 200 || mcp.status === 201, JSON.stringify(mcp.body));
  t.is(((await call(a, 'GET', '/api/auth/user/tokens/mcp', undefined, session)).body['tokens'] as unknown[] | undefined)?.length ?? -1, 1);
  const cli = await call(a, 'POST', '/api/auth/user/tokens/cli', undefined, session);
  t.true(cli.status === 200 || cli.status === 201, JSON.stringify(cli.body));
  t.is((await call(a, 'DELETE', `/api/auth/user/tokens/${api.body['token_id'] as string}`, undefined, other.session)).status, 404);
  t.is((await call(a, 'DELETE', `/api/auth/user/tokens/mcp/${mcp.body['token_id'] as string}`, undefined, other.session)).status, 404);
  t.is((await call(a, 'DELETE', `/api/auth/user/tokens/${api.body['token_id'] as string}`, undefined, session)).status, 204);
  t.is((await call(a, 'GET', '/api/auth/me', undefined, apiToken)).status, 401);
  t.is((await call(a, 'DELETE', `/api/auth/user/tokens/mcp/${mcp.body['token_id'] as string}`, undefined, session)).status, 204);
});

test('CLI device login: start, info, complete, poll once', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { session } = await member(a);
  const started = await call(a, 'POST', '/api/auth/cli/login/start');
  ok(t, started);
  const code = started.body['code'] as string;
  const browserCode = new URL(started.body['authorize_url'] as string).searchParams.get('code')!;
  t.is((await call(a, 'GET', `/api/auth/cli/login/poll?code=${encodeURIComponent(code)}`)).body['status'], 'pending');
  ok(t, await call(a, 'GET', `/api/auth/cli/login/info?code=${encodeURIComponent(browserCode)}`, undefined, session));
  ok(t, await call(a, 'POST', '/api/auth/cli/login/complete', { code: browserCode }, session));
  const polled = await call(a, 'GET', `/api/auth/cli/login/poll?code=${encodeURIComponent(code)}`);
  ok(t, polled);
  t.truthy(polled.body['token'] ?? polled.body['access_token'], JSON.stringify(polled.body));
  const again = await call(a, 'GET', `/api/auth/cli/login/poll?code=${encodeURIComponent(code)}`);
  t.falsy(again.body['token'] ?? again.body['access_token'], JSON.stringify(again.body));
});

test('profile, memories and disclaimers', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { session: s } = await member(a);
  ok(t, await call(a, 'PUT', '/api/auth/user_profile', { name: 'Ada L.', slack_title: 'Finance analyst' }, s));
  t.is((await call(a, 'PUT', '/api/auth/user_profile', { name: '' }, s)).status, 422);
  const made = await call(a, 'POST', '/api/auth/user_memory', { content: 'Fiscal year starts in April' }, s);
  t.true(made.status === 200 || made.status === 201, JSON.stringify(made.body));
  const id = made.body['memory_id'] as string;
  ok(t, await call(a, 'PUT', `/api/auth/user_memory/${id}`, { content: 'Revenue means net of returns', title: 'Revenue' }, s));
  const profile = await call(a, 'GET', '/api/auth/user_profile', undefined, s);
  t.is(profile.body['name'], 'Ada L.');
  t.is((profile.body['memories'] as unknown[]).length, 1);
  ok(t, await call(a, 'DELETE', `/api/auth/user_memory/${id}`, undefined, s));
  t.is((await call(a, 'DELETE', `/api/auth/user_memory/${id}`, undefined, s)).status, 404);
  for (const hash of ['abc', 'abc', 'def']) ok(t, await call(a, 'POST', '/api/auth/dismiss_disclaimer', { disclaimer_hash: hash }, s));
  t.deepEqual((await call(a, 'GET', '/api/auth/get_dismissed_disclaimers', undefined, s)).body, { abc: true, def: true });
  t.is((await call(a, 'POST', '/api/auth/dismiss_disclaimer', {}, s)).status, 422);
});

test('workspaces: list, switch into one, back to the base organization, default; not a member: 404', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const base = await a.make.org();
  const ws = await a.make.org(undefined, { baseOrgId: base });
  const stranger = await a.make.org(undefined, { baseOrgId: base });
  const { user, session } = await member(a, { orgId: base });
  await a.app.services.executor.run(a.app.services.executor.db.insertInto('memberships').values({ user_id: user.id, org_id: ws, role: 'user', can_merge: 0, created_at: a.clock.now() }));
  const list = await call(a, 'GET', '/api/auth/list_workspaces', undefined, session);
  ok(t, list);
  t.true(JSON.stringify(list.body).includes(ws));
  t.false(JSON.stringify(list.body).includes(stranger));
  const switched = await call(a, 'POST', '/api/auth/switch_to_workspace', { workspace_org_id: ws }, session);
  ok(t, switched);
  t.is((await call(a, 'POST', '/api/auth/switch_to_workspace', { workspace_org_id: stranger }, session)).status, 404);
  const wsSession = switched.body['access_token'] as string;
  ok(t, await call(a, 'POST', '/api/auth/switch_to_base_org', {}, wsSession));
  ok(t, await call(a, 'POST', '/api/auth/set_my_default_workspace', { workspace_org_id: ws, confirm: true }, session));
});

/** A fresh organization with an admin (a session) in it. */
async function team(a: TestApp) {
  const orgId = await a.make.org();
  const admin = await member(a, { orgId, role: 'admin' });
  return { orgId, admin: admin.user, as: admin.session };
}

test('admin members: search with literal wildcards, keyset pages, role, attributes and groups, deactivate, unlock', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { orgId, as } = await team(a);
  for (let i = 0; i < 5; i++) await a.make.user({ orgId, email: `pager-${i}_x@paging.test` });
  // Under the test database's en-US collation `_` sorts before `-`; the pages follow the bytes.
  for (const email of ['pager-x_1@paging.test', 'pager-x-1@paging.test']) await a.make.user({ orgId, email });
  const found = await call(a, 'GET', '/api/admin/members?q=pager-3_', undefined, as);
  t.deepEqual((found.body['members'] as { email: string }[]).map((m) => m.email), ['pager-3_x@paging.test']);
  t.deepEqual((await call(a, 'GET', '/api/admin/members?q=pager-%25', undefined, as)).body['members'], []);
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = await call(a, 'GET', `/api/admin/members?limit=2${cursor ? `&cursor=${cursor}` : ''}`, undefined, as);
    ok(t, page);
    seen.push(...(page.body['members'] as { email: string }[]).map((m) => m.email));
    cursor = page.body['next_cursor'] as string | null;
  } while (cursor);
  t.is(seen.length, 8);
  t.deepEqual(seen, [...seen].sort());
  t.is((await call(a, 'GET', '/api/admin/members?cursor=%%%', undefined, as)).status, 422);
  const { user: m, session: ms } = await member(a, { orgId });
  ok(t, await call(a, 'PUT', `/api/admin/members/${m.id}/role`, { role: 'modeler', can_merge: true }, as));
  t.is((await call(a, 'GET', '/api/auth/me', undefined, ms)).body['role'], 'modeler');
  ok(t, await call(a, 'PUT', `/api/admin/members/${m.id}/attributes`, { attributes: { region: 'EU' } }, as));
  ok(t, await call(a, 'PUT', '/api/row-security/groups/sales', { name: 'Sales', members: [m.id] }, as));
  const one = await call(a, 'GET', `/api/admin/members/${m.id}`, undefined, as);
  ok(t, one);
  t.true(JSON.stringify(one.body).includes('EU'), JSON.stringify(one.body));
  t.true(JSON.stringify(one.body).includes('sales'), JSON.stringify(one.body));
  ok(t, await call(a, 'POST', `/api/admin/members/${m.id}/deactivate`, undefined, as));
  t.is((await call(a, 'GET', '/api/auth/me', undefined, ms)).status, 401);
  ok(t, await call(a, 'POST', `/api/admin/members/${m.id}/reactivate`, undefined, as));
  ok(t, await call(a, 'POST', `/api/admin/members/${m.id}/unlock`, undefined, as));
  t.is((await call(a, 'POST', `/api/admin/members/nobody/deactivate`, undefined, as)).status, 404);
  const again = await call(a, 'POST', '/api/auth/token', { email: m.email, password: PASSWORD });
  ok(t, again);
  t.is((await call(a, 'GET', '/api/admin/members', undefined, again.body['access_token'] as string)).status, 403);
  const settings = await call(a, 'PATCH', '/api/admin/organization/settings', { session_lifetime_seconds: 1800 }, as);
  ok(t, settings);
  t.is((await call(a, 'GET', '/api/admin/organization/settings', undefined, as)).body['session_lifetime_seconds'], 1800);
});

test('invitations: invite, list, accept once with a password; the second accept is refused', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { orgId, as } = await team(a);
  const email = 'invitee@invited.test';
  ok(t, await call(a, 'POST', '/api/admin/invitations', { email, role: 'modeler' }, as), 201);
  t.is(((await call(a, 'GET', '/api/admin/invitations', undefined, as)).body['invitations'] as unknown[]).length, 1);
  const token = await mailed(a, email, 'Invitation token');
  ok(t, await call(a, 'POST', '/api/auth/invitation/info', { token }));
  const accepted = await call(a, 'POST', '/api/auth/invitation/accept', { token, method: 'password', password: 'a long and varied passphrase 42', name: 'Ada' });
  ok(t, accepted);
  t.is(accepted.body['org_id'], orgId);
  t.is((await call(a, 'GET', '/api/auth/me', undefined, accepted.body['access_token'] as string)).body['role'], 'modeler');
  t.is((await call(a, 'POST', '/api/auth/invitation/accept', { token, method: 'magic_link' })).body.code, 'INVALID_INVITATION');
  t.deepEqual((await call(a, 'GET', '/api/admin/invitations', undefined, as)).body['invitations'], []);
});

test('audit log: list, filter by action and actor, export as JSON lines and CSV; members are refused', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { admin, as } = await team(a);
  const { user: m, session: ms } = await member(a, { orgId: (await call(a, 'GET', '/api/auth/me', undefined, as)).body['org_id'] as string });
  ok(t, await call(a, 'PUT', `/api/admin/members/${m.id}/role`, { role: 'modeler' }, as));
  const all = await call(a, 'GET', '/api/admin/audit?limit=500', undefined, as);
  ok(t, all);
  const filtered = await call(a, 'GET', `/api/admin/audit?action=member_role_changed&actor_id=${admin.id}`, undefined, as);
  ok(t, filtered);
  t.is((filtered.body['entries'] as unknown[]).length, 1);
  t.deepEqual((await call(a, 'GET', '/api/admin/audit?action=member_role_changed&actor_id=nobody', undefined, as)).body['entries'], []);
  const byEmail = await call(a, 'GET', `/api/admin/audit?action=member_role_changed&actor_email=${encodeURIComponent(admin.email.toUpperCase())}`, undefined, as);
  t.is((byEmail.body['entries'] as unknown[]).length, 1, 'the actor by email, in another case, on PostgreSQL too');
  const jsonl = await (await a.fetch('/api/admin/audit/export?action=member_role_changed', { headers: { authorization: `Bearer ${as}` } })).text();
  t.is(jsonl.trim().split('\n').length, 1);
  const csv = await (await a.fetch('/api/admin/audit/export?action=member_role_changed&format=csv', { headers: { authorization: `Bearer ${as}` } })).text();
  t.is(csv.trim().split('\r\n').length, 2);
  t.is((await call(a, 'GET', '/api/admin/audit', undefined, ms)).status, 403);
});

test('usage and credit limits: set, read, clear; members are refused', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const { orgId, as } = await team(a);
  const { user: m, session: ms } = await member(a, { orgId });
  t.is((await call(a, 'PUT', '/api/admin/credit-limits/organization', { monthly_credits: 2 }, as)).status, 204);
  t.is((await call(a, 'PUT', `/api/admin/credit-limits/users/${m.id}`, { monthly_credits: 1.5 }, as)).status, 204);
  const limits = await call(a, 'GET', '/api/admin/credit-limits', undefined, as);
  ok(t, limits);
  t.true(JSON.stringify(limits.body).includes('1.5'), JSON.stringify(limits.body));
  t.is((await call(a, 'PUT', `/api/admin/credit-limits/users/${m.id}`, { monthly_credits: null }, as)).status, 204);
  const usage = await call(a, 'GET', '/api/admin/usage', undefined, as);
  ok(t, usage);
  ok(t, await call(a, 'GET', `/api/admin/usage?from=2026-11-20&to=2026-11-21&user_id=${m.id}`, undefined, as));
  t.is((await call(a, 'GET', '/api/admin/usage', undefined, ms)).status, 403);
  t.is((await call(a, 'GET', '/api/admin/audit?action=credit_limit_changed', undefined, as)).body['entries']!.constructor, Array);
});

// Serial: the identity provider's tokens carry real times, so the app's clock moves to now first.
test.serial('SSO providers: add, list, edit, sign in end to end with group mapping, delete; a member is refused', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  a.clock.set(Date.now());
  const { orgId, as } = await team(a);
  const secret = 'corp-client-secret-0123456789abcdef';
  const idp = await startTestIdp({ clientId: 'sextant-corp', clientSecret: secret, redirectUris: [`${a.config.baseUrl}/api/auth/${orgId}/corp/auth`] });
  t.teardown(() => idp.stop());
  const base = '/api/admin/sso/providers';
  const provider = { type: 'corp', name: 'Corp', issuer: idp.issuer, client_id: 'sextant-corp', client_secret: secret, groups_claim: 'groups', scopes: ['openid', 'email', 'profile', 'groups'] };
  t.is((await call(a, 'POST', base, provider, (await member(a, { orgId })).session)).status, 403);
  const created = await call(a, 'POST', base, provider, as);
  ok(t, created, 201);
  const id = created.body['id'] as string;
  t.false(JSON.stringify((await call(a, 'GET', `${base}/${id}`, undefined, as)).body).includes(secret));
  t.is(((await call(a, 'GET', base, undefined, as)).body['providers'] as unknown[]).length, 1);
  ok(t, await call(a, 'PATCH', `${base}/${id}`, { group_mappings: [{ group: 'data-team', role: 'modeler', rls_groups: ['analysts'] }] }, as));
  idp.signInAs({ sub: 'sso-person', email: 'person@corp.test', groups: ['data-team'] });
  const { url, jar } = await browse(a, `/api/auth/${orgId}/corp/login?next=/welcome`);
  t.is(url.pathname, '/welcome');
  const me = await a.fetch('/api/auth/me', { headers: { cookie: `sextant_session=${jar.get('sextant_session')}` } });
  t.like(await me.json(), { org_id: orgId, role: 'modeler' });
  t.is((await call(a, 'DELETE', `${base}/${id}`, undefined, as)).status, 204);
  t.is((await call(a, 'GET', `${base}/${id}`, undefined, as)).status, 404);
});
