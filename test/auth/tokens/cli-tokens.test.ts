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
