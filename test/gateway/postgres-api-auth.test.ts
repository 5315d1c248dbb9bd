// Accounts served from PostgreSQL: sign-in and out, MFA, magic link, password reset, tokens, profile,
// workspaces, admin members and invitations, SSO providers, audit, usage and credit limits.
import { generateSync } from 'otplib';
import { call, type Json } from '../helpers/auth.ts';
import { mailed, pgApp, pgTest as test, sharedPgApp } from '../helpers/pg-app.ts';
import type { TestApp } from '../helpers/app.ts';
import { hashPassword } from '../../src/security/index.ts';

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
