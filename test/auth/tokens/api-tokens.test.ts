import test from 'ava';
import { setMembership } from '../../../src/auth/index.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { call, DAY } from './requests.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const create = (session: string, body: unknown) => call(t0, 'POST', '/api/auth/user/tokens', { session }, body);

test('a user creates a general API token and sees its value only in the creation response', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const res = await create(session, { name: 'Nightly export', description: 'cron on build box', expires_in_days: 30 });
  t.is(res.status, 201);
  const token = res.body['token'] as string;
  t.regex(token, /^sxt_api_/);
  t.is(res.body['name'], 'Nightly export');
  t.is(res.body['description'], 'cron on build box');
  t.deepEqual(res.body['scopes'], ['api:full']);
  t.true(token.startsWith(res.body['prefix'] as string));
  t.is(res.body['expires_at'], new Date(t0.clock.now() + 30 * DAY).toISOString());
  t.is(res.body['last_used_at'], null);

  const list = await call(t0, 'GET', '/api/auth/user/tokens', { session });
  t.is(list.status, 200);
  const tokens = list.body['tokens'] as Record<string, unknown>[];
  t.is(tokens.length, 1);
  t.is(tokens[0]!['token_id'], res.body['token_id']);
  t.false('token' in tokens[0]!);
  t.false(JSON.stringify(list.body).includes(token));
  t.is(tokens[0]!['prefix'], res.body['prefix']);
});

test('a token without an expiration period never expires', async (t) => {
  const user = t0.user();
  const res = await create(t0.session(user), { name: 'forever' });
  t.is(res.status, 201);
  t.is(res.body['expires_at'], null);
  t.is(res.body['description'], '');
});

test('an API token authenticates in the API-KEY header and as a bearer token, and records its last use', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const { body } = await create(session, { name: 'script' });
  const token = body['token'] as string;
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: token })).status, 200);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { bearer: token })).status, 200);
  const list = await call(t0, 'GET', '/api/auth/user/tokens', { session });
  const row = (list.body['tokens'] as Record<string, unknown>[])[0]!;
  t.is(row['last_used_at'], new Date(t0.clock.now()).toISOString());
});

test.serial('a token expires after its expiration period', async (t) => {
  const user = t0.user();
  const { body } = await create(t0.session(user), { name: 'short', expires_in_days: 1 });
  const token = body['token'] as string;
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: token })).status, 200);
  t0.clock.advance(DAY);
  const res = await call(t0, 'GET', '/api/auth/user/tokens', { key: token });
  t.is(res.status, 401);
  t.is(res.body.code, 'INVALID_API_TOKEN');
  t0.clock.advance(-DAY);
});

test('a revoked token stops working at once and leaves the list', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const { body } = await create(session, { name: 'to revoke' });
  const token = body['token'] as string;
  const del = await call(t0, 'DELETE', `/api/auth/user/tokens/${body['token_id'] as string}`, { session });
  t.is(del.status, 204);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: token })).status, 401);
  t.deepEqual((await call(t0, 'GET', '/api/auth/user/tokens', { session })).body['tokens'], []);
  const again = await call(t0, 'DELETE', `/api/auth/user/tokens/${body['token_id'] as string}`, { session });
  t.is(again.status, 404);
  t.is(again.body.code, 'TOKEN_NOT_FOUND');
});

test("deleting another user's token answers 404 and leaves it working", async (t) => {
  const owner = t0.user();
  const other = t0.user();
  const { body } = await create(t0.session(owner), { name: 'mine' });
  const res = await call(t0, 'DELETE', `/api/auth/user/tokens/${body['token_id'] as string}`, { session: t0.session(other) });
  t.is(res.status, 404);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: body['token'] as string })).status, 200);
  t.deepEqual((await call(t0, 'GET', '/api/auth/user/tokens', { session: t0.session(other) })).body['tokens'], []);
});

test('the general token routes do not list or delete MCP and CLI tokens', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const mcp = await call(t0, 'POST', '/api/auth/user/tokens/mcp', { session });
  t.deepEqual((await call(t0, 'GET', '/api/auth/user/tokens', { session })).body['tokens'], []);
  t.is((await call(t0, 'DELETE', `/api/auth/user/tokens/${mcp.body['token_id'] as string}`, { session })).status, 404);
});

test('invalid creation requests answer 422 naming the field', async (t) => {
  const session = t0.session(t0.user());
  const cases: [unknown, string][] = [
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'x', description: 'd'.repeat(501) }, 'description'],
    [{ name: 'x', expires_in_days: 0 }, 'expires_in_days'],
    [{ name: 'x', expires_in_days: 1.5 }, 'expires_in_days'],
    [{ name: 'x', expires_in_days: 'ten' }, 'expires_in_days'],
  ];
  for (const [body, field] of cases) {
    const res = await create(session, body);
    t.is(res.status, 422, JSON.stringify(body));
    t.deepEqual((res.body.detail as { loc: unknown[] }[])[0]?.loc, ['body', field]);
  }
});

test('every token route needs a credential', async (t) => {
  for (const [method, path] of [
    ['GET', '/api/auth/user/tokens'],
    ['POST', '/api/auth/user/tokens'],
    ['DELETE', '/api/auth/user/tokens/abc'],
    ['GET', '/api/auth/admin/users/abc/tokens'],
    ['POST', '/api/auth/admin/users/abc/tokens'],
    ['DELETE', '/api/auth/admin/users/abc/tokens/def'],
  ] as const) {
    t.is((await call(t0, method, path, {}, method === 'POST' ? { name: 'x' } : undefined)).status, 401, `${method} ${path}`);
  }
});

test('a token acts with its user\'s role as it is at each request', async (t) => {
  const orgId = t0.org();
  const admin = t0.user({ orgId, role: 'admin' });
  const member = t0.user({ orgId });
  const { body } = await create(t0.session(admin), { name: 'admin script' });
  const token = body['token'] as string;
  const path = `/api/auth/admin/users/${member.id}/tokens`;
  t.is((await call(t0, 'GET', path, { key: token })).status, 200);
  await setMembership(t0.app.services.executor, t0.clock, { userId: admin.id, orgId, role: 'user' });
  const res = await call(t0, 'GET', path, { key: token });
  t.is(res.status, 403);
  t.is((await call(t0, 'GET', '/api/auth/user/tokens', { key: token })).status, 200);
});

test("a disabled user's tokens stop working at once", async (t) => {
  const user = t0.user();
  const { body } = await create(t0.session(user), { name: 'x' });
  t0.app.services.store.sqlite!.prepare('UPDATE users SET disabled_at = ? WHERE id = ?').run(t0.clock.now(), user.id);
  const res = await call(t0, 'GET', '/api/auth/user/tokens', { key: body['token'] as string });
  t.is(res.status, 401);
  t.is(res.body.code, 'INVALID_API_TOKEN');
});
