import test from 'ava';
import { route } from '../../src/gateway/route.ts';
import type { Principal } from '../../src/auth/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const who = ({ principal }: { principal: Principal | undefined }) => ({ user_id: principal?.userId, credential: principal?.credential, org_id: principal?.orgId });

const probes = () => [
  route({ method: 'GET', path: '/api/probe/me', operationId: 'probe_me', summary: 'me', tags: ['test'], auth: 'user', handler: who }),
  route({ method: 'GET', path: '/api/probe/admin', operationId: 'probe_admin', summary: 'admin', tags: ['test'], auth: 'user', role: 'admin', handler: who }),
  route({ method: 'GET', path: '/api/probe/sync', operationId: 'probe_sync', summary: 'sync', tags: ['test'], auth: 'user', queryCredential: 'api_token', handler: who }),
  route({ method: 'GET', path: '/api/probe/public', operationId: 'probe_public', summary: 'public', tags: ['test'], auth: 'none', handler: who }),
];

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({}, { extraRoutes: probes });
});
test.after.always(() => t0.stop());

const me = (headers: Record<string, string> = {}, path = '/api/probe/me') => t0.fetch(path, { headers });
const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

test('an API token in the API-KEY header authenticates as its user', async (t) => {
  const u = t0.user();
  const res = await me({ 'API-KEY': t0.token(u) });
  t.is(res.status, 200);
  t.like(await json(res), { user_id: u.id, credential: 'api_token' });
});

test('a session JWT authenticates as a bearer token and as the session cookie', async (t) => {
  const u = t0.user();
  const jwt = t0.session(u);
  t.like(await json(await me({ Authorization: `Bearer ${jwt}` })), { user_id: u.id, credential: 'session' });
  t.like(await json(await me({ Cookie: `sextant_session=${jwt}` })), { user_id: u.id, credential: 'session' });
});

test('a CLI token works as a bearer token on REST routes', async (t) => {
  const u = t0.user();
  t.like(await json(await me({ Authorization: `Bearer ${t0.token(u, 'cli')}` })), { user_id: u.id, credential: 'cli_token' });
});

test('the API-KEY header wins over a bearer token, which wins over the cookie', async (t) => {
  const a = t0.user();
  const b = t0.user();
  const c = t0.user();
  const all = { 'API-KEY': t0.token(a), Authorization: `Bearer ${t0.session(b)}`, Cookie: `sextant_session=${t0.session(c)}` };
  t.like(await json(await me(all)), { user_id: a.id });
  const { 'API-KEY': _a, ...bearerAndCookie } = all;
  t.like(await json(await me(bearerAndCookie)), { user_id: b.id });
});

test('an invalid explicit credential is refused even when a valid cookie is present', async (t) => {
  const u = t0.user();
  const res = await me({ 'API-KEY': 'sxt_api_notarealtokennotarealtoken00', Cookie: `sextant_session=${t0.session(u)}` });
  t.is(res.status, 401);
  t.is((await json(res))['code'], 'INVALID_API_TOKEN');
});

test('no credential answers 401 with a WWW-Authenticate challenge', async (t) => {
  const res = await me();
  t.is(res.status, 401);
  t.is(res.headers.get('www-authenticate'), 'Bearer');
  t.is((await json(res))['code'], 'NOT_AUTHENTICATED');
});

test('a tampered session JWT is refused', async (t) => {
  const jwt = t0.session(t0.user());
  const tampered = jwt.slice(0, -3) + (jwt.endsWith('AAA') ? 'BBB' : 'AAA');
  t.is((await me({ Authorization: `Bearer ${tampered}` })).status, 401);
});

// Tests that move the clock get their own gateway, so they cannot disturb the shared one.
test('a session JWT is refused once it expires', async (t) => {
  const own = await startTestApp({}, { extraRoutes: probes });
  t.teardown(() => own.stop());
  const jwt = own.session(own.user());
  const get = () => own.fetch('/api/probe/me', { headers: { Authorization: `Bearer ${jwt}` } });
  t.is((await get()).status, 200);
  own.clock.advance(7 * 24 * 3600 * 1000);
  t.is((await get()).status, 401);
});

test('bumping token_version invalidates live sessions', async (t) => {
  const u = t0.user();
  const jwt = t0.session(u);
  t.is((await me({ Authorization: `Bearer ${jwt}` })).status, 200);
  t0.app.services.store.sqlite!.prepare('UPDATE users SET token_version = token_version + 1 WHERE id = ?').run(u.id);
  t.is((await me({ Authorization: `Bearer ${jwt}` })).status, 401);
});

test('revoked and expired API tokens are refused', async (t) => {
  const own = await startTestApp({}, { extraRoutes: probes });
  t.teardown(() => own.stop());
  const get = (token: string) => own.fetch('/api/probe/me', { headers: { 'API-KEY': token } });
  const u = own.user();
  const token = own.token(u);
  const db = own.app.services.store.sqlite!;
  db.prepare('UPDATE api_tokens SET revoked_at = 1 WHERE user_id = ?').run(u.id);
  t.is((await get(token)).status, 401);
  const token2 = own.token(u);
  db.prepare('UPDATE api_tokens SET expires_at = ? WHERE user_id = ? AND revoked_at IS NULL').run(own.clock.now() + 1000, u.id);
  t.is((await get(token2)).status, 200);
  own.clock.advance(1000);
  t.is((await get(token2)).status, 401);
});

test('a disabled user or a removed membership stops a token at once', async (t) => {
  const u = t0.user();
  const token = t0.token(u);
  const db = t0.app.services.store.sqlite!;
  db.prepare('UPDATE users SET disabled_at = 1 WHERE id = ?').run(u.id);
  t.is((await me({ 'API-KEY': token })).status, 401);
  db.prepare('UPDATE users SET disabled_at = NULL WHERE id = ?').run(u.id);
  t.is((await me({ 'API-KEY': token })).status, 200);
  db.prepare('DELETE FROM memberships WHERE user_id = ?').run(u.id);
  t.is((await me({ 'API-KEY': token })).status, 401);
});

test('api_token with user_id in the query is accepted where the route allows it', async (t) => {
  const u = t0.user();
  const res = await me({}, `/api/probe/sync?api_token=${t0.token(u)}&user_id=${u.id}`);
  t.is(res.status, 200);
  t.like(await json(res), { user_id: u.id });
});

test('api_token in the query with a different user_id is refused', async (t) => {
  const u = t0.user();
  const other = t0.user();
  t.is((await me({}, `/api/probe/sync?api_token=${t0.token(u)}&user_id=${other.id}`)).status, 401);
});

test('api_token in the query is refused outside the allowed routes, even with a valid cookie', async (t) => {
  const u = t0.user();
  const res = await me({ Cookie: `sextant_session=${t0.session(u)}` }, `/api/probe/me?api_token=${t0.token(u)}&user_id=${u.id}`);
  t.is(res.status, 401);
  t.is((await json(res))['code'], 'QUERY_TOKEN_NOT_ACCEPTED');
});

test('an MCP token is refused on REST routes', async (t) => {
  const u = t0.user();
  const res = await me({ 'API-KEY': t0.token(u, 'mcp') });
  t.is(res.status, 403);
  t.is((await json(res))['code'], 'TOKEN_KIND_REFUSED');
});

test('a route requiring admin refuses a lower role with 403 and admits an admin', async (t) => {
  const user = t0.user({ role: 'modeler' });
  t.is((await me({ 'API-KEY': t0.token(user) }, '/api/probe/admin')).status, 403);
  const admin = t0.user({ role: 'admin' });
  t.is((await me({ 'API-KEY': t0.token(admin) }, '/api/probe/admin')).status, 200);
});

test('a public route reads no credential at all', async (t) => {
  const res = await me({ 'API-KEY': 'garbage' }, '/api/probe/public');
  t.is(res.status, 200);
  t.deepEqual(await json(res), {});
});

const mcp = (headers: Record<string, string>, query = '') =>
  t0.fetch(`/ai/mcp${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
  });

test('the MCP endpoint answers "Invalid API token" for a bad token', async (t) => {
  const res = await mcp({ 'X-API-KEY': 'sxt_mcp_bogusbogusbogusbogusbogus' });
  t.is(res.status, 401);
  t.is((await json(res))['detail'], 'Invalid API token');
});

test('the MCP endpoint refuses regular and CLI tokens with "Token does not have required MCP access"', async (t) => {
  const u = t0.user();
  for (const kind of ['api', 'cli'] as const) {
    const res = await mcp({ 'X-API-KEY': t0.token(u, kind) });
    t.is(res.status, 403);
    t.is((await json(res))['detail'], 'Token does not have required MCP access');
  }
});

test('the MCP endpoint refuses a token in the URL', async (t) => {
  const u = t0.user();
  const res = await mcp({}, `?api_key=${t0.token(u, 'mcp')}`);
  t.is(res.status, 401);
  t.is((await json(res))['code'], 'TOKEN_IN_URL');
});

test('the MCP endpoint accepts an MCP token and answers initialize', async (t) => {
  const u = t0.user();
  const res = await mcp({ 'X-API-KEY': t0.token(u, 'mcp') });
  t.is(res.status, 200);
  const text = await res.text();
  t.regex(text, /"serverInfo":\{"name":"sextant"/);
});

test('the MCP endpoint answers 405 to GET', async (t) => {
  const u = t0.user();
  const res = await t0.fetch('/ai/mcp', { headers: { 'X-API-KEY': t0.token(u, 'mcp') } });
  t.is(res.status, 405);
  t.is(res.headers.get('allow'), 'POST');
});

test('tokens never appear in the logs', async (t) => {
  const u = t0.user();
  const token = t0.token(u);
  await me({}, `/api/probe/sync?api_token=${token}&user_id=${u.id}`);
  await me({ 'API-KEY': token });
  t.false(JSON.stringify(t0.logs).includes(token));
});

test('every request writes one access line: method, path without its query, status, duration and user', async (t) => {
  const u = t0.user();
  const res = await me({ 'API-KEY': t0.token(u), 'X-Request-Id': 'access-line-probe' }, '/api/probe/me?secret=s3cr3t');
  t.is(res.status, 200);
  const lines = t0.logs.filter((l) => l['request_id'] === 'access-line-probe' && l['msg'] === 'request');
  t.is(lines.length, 1);
  t.like(lines[0], { method: 'GET', path: '/api/probe/me', status: 200, user_id: u.id });
  t.is(typeof lines[0]!['ms'], 'number');
  t.false(JSON.stringify(lines).includes('s3cr3t'));
});
