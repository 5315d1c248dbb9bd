import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { call, mcpInitialize } from './requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

test('an MCP token in X-API-KEY opens the MCP endpoint', async (t) => {
  const token = t0.token(t0.user(), 'mcp');
  const res = await mcpInitialize(t0, token);
  t.is(res.status, 200);
  t.true(res.text.includes('"serverInfo"'));
});

test('MCP tokens are refused on REST routes, in every header', async (t) => {
  const token = t0.token(t0.user(), 'mcp');
  for (const who of [{ key: token }, { bearer: token }]) {
    const res = await call(t0, 'GET', '/api/auth/user/tokens/mcp', who);
    t.is(res.status, 403);
    t.is(res.body.code, 'TOKEN_KIND_REFUSED');
  }
});

test('general API and CLI tokens are refused on the MCP endpoint with the fixed message', async (t) => {
  const user = t0.user();
  for (const kind of ['api', 'cli'] as const) {
    const res = await mcpInitialize(t0, t0.token(user, kind));
    t.is(res.status, 403);
    t.is(JSON.parse(res.text).detail, 'Token does not have required MCP access');
  }
});

test('a bad, revoked or missing token on the MCP endpoint answers 401', async (t) => {
  const session = t0.session(t0.user());
  const created = await call(t0, 'POST', '/api/auth/user/tokens/mcp', { session });
  await call(t0, 'DELETE', `/api/auth/user/tokens/mcp/${created.body['token_id'] as string}`, { session });
  for (const bad of ['sxt_mcp_' + 'A'.repeat(43), 'garbage', created.body['token'] as string]) {
    const res = await mcpInitialize(t0, bad);
    t.is(res.status, 401);
    t.is(JSON.parse(res.text).detail, 'Invalid API token');
  }
  t.is((await mcpInitialize(t0, undefined)).status, 401);
});

test('a token in the URL is refused on the MCP endpoint, even a valid MCP token', async (t) => {
  const token = t0.token(t0.user(), 'mcp');
  for (const name of ['api_key', 'api_token', 'token', 'access_token', 'key']) {
    const res = await mcpInitialize(t0, undefined, `?${name}=${encodeURIComponent(token)}`);
    t.is(res.status, 401, name);
    t.is(JSON.parse(res.text).code, 'TOKEN_IN_URL');
    // Also when a valid header is sent alongside: the URL form is never accepted.
    t.is((await mcpInitialize(t0, token, `?${name}=${encodeURIComponent(token)}`)).status, 401);
  }
});

test('a session cookie does not open the MCP endpoint', async (t) => {
  const res = await t0.fetch('/ai/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', cookie: `sextant_session=${t0.session(t0.user())}` },
    body: '{}',
  });
  t.is(res.status, 401);
});
