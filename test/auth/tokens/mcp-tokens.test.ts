import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { call, DAY, mcpInitialize } from './requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const createMcp = (session: string) => call(t0, 'POST', '/api/auth/user/tokens/mcp', { session });
const listMcp = (session: string) => call(t0, 'GET', '/api/auth/user/tokens/mcp', { session });

test('creating an MCP token returns its value once, with scope mcp:* and a 365-day expiry', async (t) => {
  const session = t0.session(t0.user());
  const res = await createMcp(session);
  t.is(res.status, 201);
  const token = res.body['token'] as string;
  t.regex(token, /^sxt_mcp_/);
  t.deepEqual(res.body['scopes'], ['mcp:*']);
  t.is(res.body['kind'], 'mcp');
  t.is(res.body['expires_at'], new Date(t0.clock.now() + 365 * DAY).toISOString());
  t.is((await mcpInitialize(t0, token)).status, 200);

  const list = await listMcp(session);
  t.is(list.status, 200);
  const tokens = list.body['tokens'] as Record<string, unknown>[];
  t.is(tokens.length, 1);
  t.is(tokens[0]!['token_id'], res.body['token_id']);
  t.false('token' in tokens[0]!);
  t.false(JSON.stringify(list.body).includes(token));
});

test('creating an MCP token ignores any body sent with it', async (t) => {
  const res = await call(t0, 'POST', '/api/auth/user/tokens/mcp', { session: t0.session(t0.user()) }, { name: 'ignored', scopes: ['api:full'] });
  t.is(res.status, 201);
  t.deepEqual(res.body['scopes'], ['mcp:*']);
});

test('creating a second MCP token revokes the first', async (t) => {
  const session = t0.session(t0.user());
  const first = await createMcp(session);
  const second = await createMcp(session);
  const refused = await mcpInitialize(t0, first.body['token'] as string);
  t.is(refused.status, 401);
  t.is(JSON.parse(refused.text).detail, 'Invalid API token');
  t.is((await mcpInitialize(t0, second.body['token'] as string)).status, 200);
  t.deepEqual(
    ((await listMcp(session)).body['tokens'] as { token_id: string }[]).map((x) => x.token_id),
    [second.body['token_id']],
  );
});

test('concurrent MCP token creations leave exactly one active token', async (t) => {
  const session = t0.session(t0.user());
  const results = await Promise.all(Array.from({ length: 10 }, () => createMcp(session)));
  t.true(results.every((r) => r.status === 201));
  const live = [];
  for (const r of results) if ((await mcpInitialize(t0, r.body['token'] as string)).status === 200) live.push(r);
  t.is(live.length, 1);
  t.is(((await listMcp(session)).body['tokens'] as unknown[]).length, 1);
});

test.serial('an MCP token expires after 365 days', async (t) => {
  const user = t0.user();
  const token = (await createMcp(t0.session(user))).body['token'] as string;
  t0.clock.advance(365 * DAY - 1000);
  t.is((await mcpInitialize(t0, token)).status, 200);
  t0.clock.advance(1000);
  const res = await mcpInitialize(t0, token);
  t.is(res.status, 401);
  t.is(JSON.parse(res.text).detail, 'Invalid API token');
  // A fresh session: the one from a year ago has expired.
  const listed = (await listMcp(t0.session(user))).body['tokens'] as { expired: boolean }[];
  t.true(listed[0]!.expired);
  t0.clock.advance(-365 * DAY);
});

test('a user deletes their own MCP token, which then stops working', async (t) => {
  const session = t0.session(t0.user());
  const created = await createMcp(session);
  const del = await call(t0, 'DELETE', `/api/auth/user/tokens/mcp/${created.body['token_id'] as string}`, { session });
  t.is(del.status, 204);
  t.is((await mcpInitialize(t0, created.body['token'] as string)).status, 401);
  t.deepEqual((await listMcp(session)).body['tokens'], []);
});

test("deleting another user's MCP token answers 404 and leaves it working", async (t) => {
  const ownerSession = t0.session(t0.user());
  const created = await createMcp(ownerSession);
  const other = t0.session(t0.user({ orgId: t0.org() }));
  const res = await call(t0, 'DELETE', `/api/auth/user/tokens/mcp/${created.body['token_id'] as string}`, { session: other });
  t.is(res.status, 404);
  t.is(res.body.code, 'TOKEN_NOT_FOUND');
  t.is((await mcpInitialize(t0, created.body['token'] as string)).status, 200);
  t.deepEqual((await listMcp(other)).body['tokens'], []);
});

test('the MCP delete route does not revoke other kinds of token', async (t) => {
  const session = t0.session(t0.user());
  const api = await call(t0, 'POST', '/api/auth/user/tokens', { session }, { name: 'x' });
  const res = await call(t0, 'DELETE', `/api/auth/user/tokens/mcp/${api.body['token_id'] as string}`, { session });
  t.is(res.status, 404);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: api.body['token'] as string })).status, 200);
});

test('the MCP token routes need a credential', async (t) => {
  t.is((await call(t0, 'GET', '/api/auth/user/tokens/mcp')).status, 401);
  t.is((await call(t0, 'POST', '/api/auth/user/tokens/mcp')).status, 401);
  t.is((await call(t0, 'DELETE', '/api/auth/user/tokens/mcp/abc')).status, 401);
  t.is((await call(t0, 'POST', '/api/auth/user/tokens/cli')).status, 401);
});

test('a too-long token id answers 422', async (t) => {
  const res = await call(t0, 'DELETE', `/api/auth/user/tokens/mcp/${'x'.repeat(101)}`, { session: t0.session(t0.user()) });
  t.is(res.status, 422);
  t.deepEqual((res.body.detail as { loc: unknown[] }[])[0]?.loc, ['path', 'token_id']);
});

test('an MCP token may not manage tokens on the REST routes', async (t) => {
  const session = t0.session(t0.user());
  const token = (await createMcp(session)).body['token'] as string;
  const res = await call(t0, 'POST', '/api/auth/user/tokens/mcp', { key: token });
  t.is(res.status, 403);
  t.is(res.body.code, 'TOKEN_KIND_REFUSED');
});
