import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { call, mcpInitialize } from './requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

test('a CLI token has scope api:full and works on REST routes', async (t) => {
  const session = t0.session(t0.user());
  const res = await call(t0, 'POST', '/api/auth/user/tokens/cli', { session });
  t.is(res.status, 201);
  t.regex(res.body['token'] as string, /^sxt_cli_/);
  t.deepEqual(res.body['scopes'], ['api:full']);
  t.is(res.body['kind'], 'cli');
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: res.body['token'] as string })).status, 200);
});

test("creating a CLI token revokes the user's existing CLI tokens and nothing else", async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const oldDirect = t0.token(user, 'cli');
  const first = await call(t0, 'POST', '/api/auth/user/tokens/cli', { session });
  const api = await call(t0, 'POST', '/api/auth/user/tokens', { session }, { name: 'keep' });
  const mcp = await call(t0, 'POST', '/api/auth/user/tokens/mcp', { session });
  const otherUserCli = t0.token(t0.user(), 'cli');
  const second = await call(t0, 'POST', '/api/auth/user/tokens/cli', { session });
  t.is(second.status, 201);
  for (const old of [oldDirect, first.body['token'] as string]) {
    const res = await call(t0, 'GET', '/api/auth/user/tokens', { key: old });
    t.is(res.status, 401);
    t.is(res.body.code, 'INVALID_API_TOKEN');
  }
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: second.body['token'] as string })).status, 200);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: api.body['token'] as string })).status, 200);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: otherUserCli })).status, 200);
  t.is((await mcpInitialize(t0, mcp.body['token'] as string)).status, 200);
});

test('a user lists their CLI token without its value and revokes it; another user or organization gets 404', async (t) => {
  const org = t0.org();
  const user = t0.user({ orgId: org });
  const session = t0.session(user);
  const created = await call(t0, 'POST', '/api/auth/user/tokens/cli', { session });
  const value = created.body['token'] as string;
  t.is((await call(t0, 'GET', '/api/auth/user/tokens/cli', { key: t0.token(user, 'api') })).status, 200);
  const list = await call(t0, 'GET', '/api/auth/user/tokens/cli', { session });
  t.is(list.status, 200);
  t.deepEqual((list.body['tokens'] as { token_id: string; kind: string }[]).map((x) => [x.token_id, x.kind]), [[created.body['token_id'], 'cli']]);
  t.false(JSON.stringify(list.body).includes(value));
  // The general API token list and the MCP list do not show it, and their DELETE does not reach it.
  t.false(((await call(t0, 'GET', '/api/auth/user/tokens', { session })).body['tokens'] as { kind: string }[]).some((x) => x.kind === 'cli'));
  t.is((await call(t0, 'DELETE', `/api/auth/user/tokens/${created.body['token_id'] as string}`, { session })).status, 404);
  t.is((await call(t0, 'DELETE', `/api/auth/user/tokens/mcp/${created.body['token_id'] as string}`, { session })).status, 404);

  const sameOrg = t0.session(t0.user({ orgId: org }));
  const otherOrgAdmin = t0.session(t0.user({ orgId: t0.org(), role: 'admin' }));
  for (const other of [sameOrg, otherOrgAdmin]) {
    t.deepEqual((await call(t0, 'GET', '/api/auth/user/tokens/cli', { session: other })).body['tokens'], []);
    const refused = await call(t0, 'DELETE', `/api/auth/user/tokens/cli/${created.body['token_id'] as string}`, { session: other });
    t.is(refused.status, 404);
  }
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: value })).status, 200);

  t.is((await call(t0, 'DELETE', `/api/auth/user/tokens/cli/${'x'.repeat(101)}`, { session })).status, 422);
  t.is((await call(t0, 'DELETE', `/api/auth/user/tokens/cli/${created.body['token_id'] as string}`)).status, 401);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens/cli')).status, 401);
  t.is((await call(t0, 'DELETE', `/api/auth/user/tokens/cli/${created.body['token_id'] as string}`, { session })).status, 204);
  const gone = await call(t0, 'GET', '/api/auth/user/tokens', { key: value });
  t.is(gone.status, 401);
  t.deepEqual((await call(t0, 'GET', '/api/auth/user/tokens/cli', { session })).body['tokens'], []);
  t.is((await call(t0, 'DELETE', `/api/auth/user/tokens/cli/${created.body['token_id'] as string}`, { session })).status, 404);
});
