import test from 'ava';
import { createHash, randomBytes } from 'node:crypto';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedV2 } from '@modelcontextprotocol/client';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { invalidateSessionsQueries } from '../../../src/auth/index.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { fakeMcpPorts, type FakePorts } from '../../helpers/fake-mcp-ports.ts';
import { authorize, connectV1, CookieJar, expectUnauthorized, MemoryOAuthProvider, REDIRECT_URL, tokenRequest } from '../../helpers/oauth-browser.ts';

let t0: TestApp;
let ports: FakePorts;
test.before(async () => {
  ports = fakeMcpPorts();
  t0 = await startTestApp({}, { mcpPorts: ports });
});
test.after.always(() => t0.stop());

const mcpPost = (app: TestApp, headers: Record<string, string>) =>
  app.fetch('/ai/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

test('an SDK v1 client discovers, registers, signs in, consents and calls tools with OAuth', async (t) => {
  const user = t0.user({ orgId: t0.org('flow') });
  const { client, provider } = await connectV1(t0, t0.session(user));
  t.truthy(provider.info?.client_id);
  t.truthy(provider.saved?.refresh_token);
  t.is(provider.saved?.expires_in, 3600);
  t.regex(provider.authorizationUrl!.searchParams.get('code_challenge') ?? '', /^[\w-]{43}$/);
  t.is(provider.authorizationUrl!.searchParams.get('code_challenge_method'), 'S256');
  t.is(provider.authorizationUrl!.searchParams.get('resource'), `${t0.url}/ai/mcp`);
  const tools = await client.listTools();
  t.deepEqual(tools.tools.map((x) => x.name).sort(), ['ask_question', 'catalog', 'get_result', 'search_knowledge', 'wait']);
  const catalog = await client.callTool({ name: 'catalog', arguments: {} });
  t.like(catalog.structuredContent, { connections: [{ id: 'flow_warehouse' }] });
  // Tests run concurrently against one app: look for this user's call, not the last one.
  t.true(ports.calls.some((c) => c.method === 'catalog' && c.userId === user.id && c.orgId === 'flow'));
  await client.close();
});

test('an SDK v2 client completes the same flow and calls every tool it is offered', async (t) => {
  const admin = t0.user({ orgId: t0.org('flow2'), role: 'admin' });
  const url = new URL(`${t0.url}/ai/mcp`);
  const provider = new MemoryOAuthProvider('http://127.0.0.1:1/v2-callback', 'V2 client');
  const jar = new CookieJar();
  jar.set('sextant_session', t0.session(admin));
  const first = new TransportV2(url, { authProvider: provider });
  await expectUnauthorized(new ClientV2({ name: 'v2', version: '1.0.0' }).connect(first), UnauthorizedV2);
  const callback = await authorize(jar, provider.authorizationUrl!, provider.redirectUrl);
  t.is(callback.searchParams.get('iss'), `${t0.url}/oauth`);
  await first.finishAuth(callback.searchParams);
  const client = new ClientV2({ name: 'v2', version: '1.0.0' });
  await client.connect(new TransportV2(url, { authProvider: provider }));
  const names = (await client.listTools()).tools.map((x) => x.name).sort();
  t.deepEqual(names, ['ask_question', 'catalog', 'get_result', 'run_query', 'search_knowledge', 'wait']);
  const asked = await client.callTool({ name: 'ask_question', arguments: { question: 'revenue?' } });
  const chatId = (asked.structuredContent as { chat_id: string }).chat_id;
  t.like(await client.callTool({ name: 'get_result', arguments: { chat_id: chatId } }), { structuredContent: { status: 'processing' } });
  ports.complete(chatId);
  t.like(await client.callTool({ name: 'wait', arguments: { seconds: 1, chat_id: chatId } }), { structuredContent: { ready: true } });
  t.like(await client.callTool({ name: 'get_result', arguments: { chat_id: chatId } }), { structuredContent: { status: 'completed' } });
  t.like(await client.callTool({ name: 'catalog', arguments: {} }), { structuredContent: { connections: [{ id: 'flow2_warehouse' }] } });
  t.like(await client.callTool({ name: 'search_knowledge', arguments: { query: 'revenue' } }), { structuredContent: { hits: [{ id: 'flow2-revenue' }] } });
  const q = await client.callTool({ name: 'run_query', arguments: { connection_id: 'flow2_warehouse', sql: 'select 1' } });
  t.like(q, { structuredContent: { row_count: 1, csv: 'org,n\r\nflow2,1' } });
  await client.close();
});

test('an SDK v2 client pinned to protocol 2026-07-28 signs in with OAuth and calls tools', async (t) => {
  const user = t0.user({ orgId: t0.org('flow26') });
  const url = new URL(`${t0.url}/ai/mcp`);
  const provider = new MemoryOAuthProvider('http://127.0.0.1:1/v26-callback', 'Modern client');
  const jar = new CookieJar();
  jar.set('sextant_session', t0.session(user));
  const modern = () => new ClientV2({ name: 'v26', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  const first = new TransportV2(url, { authProvider: provider });
  await expectUnauthorized(modern().connect(first), UnauthorizedV2);
  const callback = await authorize(jar, provider.authorizationUrl!, provider.redirectUrl);
  await first.finishAuth(callback.searchParams);
  const client = modern();
  await client.connect(new TransportV2(url, { authProvider: provider }));
  t.is(client.getNegotiatedProtocolVersion(), '2026-07-28');
  const names = (await client.listTools()).tools.map((x) => x.name).sort();
  t.deepEqual(names, ['ask_question', 'catalog', 'get_result', 'search_knowledge', 'wait']);
  t.like(await client.callTool({ name: 'catalog', arguments: {} }), { structuredContent: { connections: [{ id: 'flow26_warehouse' }] } });
  t.true(ports.calls.some((c) => c.method === 'catalog' && c.userId === user.id && c.orgId === 'flow26'));
  await client.close();
});

test('a stale access token is refreshed, the refresh token rotates and the old one is refused', async (t) => {
  const user = t0.user();
  const { provider, url } = await connectV1(t0, t0.session(user));
  const before = provider.saved!;
  provider.saved = { ...before, access_token: 'stale' };
  t.is(await auth(provider, { serverUrl: url }), 'AUTHORIZED');
  const after = provider.saved!;
  t.not(after.refresh_token, before.refresh_token);
  t.not(after.access_token, before.access_token);
  t.is((await mcpPost(t0, { Authorization: `Bearer ${after.access_token}` })).status, 200);
  // Reuse of the rotated token is refused and, as a theft signal, revokes the whole grant.
  const reuse = await tokenRequest(t0.url, { grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: provider.info!.client_id });
  t.is(reuse.status, 400);
  t.is(reuse.body['error'], 'invalid_grant');
  const next = await tokenRequest(t0.url, { grant_type: 'refresh_token', refresh_token: after.refresh_token!, client_id: provider.info!.client_id });
  t.is(next.body['error'], 'invalid_grant');
  t.is((await mcpPost(t0, { Authorization: `Bearer ${after.access_token}` })).status, 401);
});

test('a revoked refresh token no longer refreshes', async (t) => {
  const { provider } = await connectV1(t0, t0.session(t0.user()));
  const revoke = await fetch(`${t0.url}/oauth/token/revocation`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: provider.saved!.refresh_token!, client_id: provider.info!.client_id }).toString(),
  });
  t.is(revoke.status, 200);
  const refresh = await tokenRequest(t0.url, { grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: provider.info!.client_id });
  t.is(refresh.body['error'], 'invalid_grant');
});

test('a user lists connected clients and disconnecting one revokes its access and refresh tokens', async (t) => {
  const user = t0.user();
  const session = t0.session(user);
  const { provider, client } = await connectV1(t0, session, new MemoryOAuthProvider(undefined, 'Claude Desktop'));
  await client.close();
  const list = async (jwt = session) => (await (await t0.fetch('/api/auth/user/mcp/clients', { headers: { Authorization: `Bearer ${jwt}` } })).json()) as { clients: { grant_id: string; client_name: string; scopes: string[] }[] };
  const { clients } = await list();
  t.is(clients.length, 1);
  t.like(clients[0], { client_name: 'Claude Desktop' });
  t.true(clients[0]!.scopes.includes('mcp:tools'));
  // Another user neither sees nor disconnects it.
  const other = t0.session(t0.user());
  t.deepEqual((await list(other)).clients, []);
  const del = (jwt: string) => t0.fetch(`/api/auth/user/mcp/clients/${clients[0]!.grant_id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${jwt}` } });
  t.is((await del(other)).status, 404);
  t.is((await mcpPost(t0, { Authorization: `Bearer ${provider.saved!.access_token}` })).status, 200);
  t.is((await del(session)).status, 204);
  t.deepEqual((await list()).clients, []);
  const res = await mcpPost(t0, { Authorization: `Bearer ${provider.saved!.access_token}` });
  t.is(res.status, 401);
  t.regex(res.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  const refresh = await tokenRequest(t0.url, { grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: provider.info!.client_id });
  t.is(refresh.body['error'], 'invalid_grant');
  t.is((await del(session)).status, 404);
});

test('the connected-clients endpoints need a REST credential', async (t) => {
  t.is((await t0.fetch('/api/auth/user/mcp/clients')).status, 401);
  const u = t0.user();
  t.is((await t0.fetch('/api/auth/user/mcp/clients', { headers: { 'API-KEY': t0.token(u, 'mcp') } })).status, 403);
});

test('a password change (which ends sessions) does not revoke OAuth grants', async (t) => {
  const user = t0.user();
  const { provider, client } = await connectV1(t0, t0.session(user));
  await client.close();
  // What a password reset does to the account: new hash, every session ended.
  t0.app.services.store.sqlite!.prepare("UPDATE users SET password_hash = 'changed' WHERE id = ?").run(user.id);
  await t0.app.services.executor.batch(invalidateSessionsQueries(user.id, t0.clock.now()));
  t.is((await mcpPost(t0, { Authorization: `Bearer ${provider.saved!.access_token}` })).status, 200);
  const refresh = await tokenRequest(t0.url, { grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: provider.info!.client_id });
  t.is(refresh.status, 200);
});

test('a disabled user or a removed membership stops OAuth access at once', async (t) => {
  const user = t0.user();
  const { provider, client } = await connectV1(t0, t0.session(user));
  await client.close();
  const db = t0.app.services.store.sqlite!;
  db.prepare('UPDATE users SET disabled_at = 1 WHERE id = ?').run(user.id);
  t.is((await mcpPost(t0, { Authorization: `Bearer ${provider.saved!.access_token}` })).status, 401);
});

test('an SDK client connects with an MCP token in X-API-KEY, and deleting the token cuts it off', async (t) => {
  const user = t0.user({ orgId: t0.org('tokenorg') });
  const auth = { Authorization: `Bearer ${t0.session(user)}` };
  const created = (await (await t0.fetch('/api/auth/user/tokens/mcp', { method: 'POST', headers: auth })).json()) as { token: string; token_id: string };
  const client = new Client({ name: 'token', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': created.token } } }));
  t.like(await client.callTool({ name: 'catalog', arguments: {} }), { structuredContent: { connections: [{ id: 'tokenorg_warehouse' }] } });
  await client.close();
  const del = await t0.fetch(`/api/auth/user/tokens/mcp/${created.token_id}`, { method: 'DELETE', headers: auth });
  t.is(del.status, 204);
  const res = await mcpPost(t0, { 'X-API-KEY': created.token });
  t.is(res.status, 401);
  t.is(((await res.json()) as { detail: string }).detail, 'Invalid API token');
});

test('the connected-clients and consent endpoints validate their input with 422', async (t) => {
  const jwt = t0.session(t0.user());
  const del = await t0.fetch(`/api/auth/user/mcp/clients/${'x'.repeat(201)}`, { method: 'DELETE', headers: { Authorization: `Bearer ${jwt}` } });
  t.is(del.status, 422);
  t.deepEqual(((await del.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc, ['path', 'grant_id']);
  const post = await t0.fetch('/interaction/abc/confirm', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  t.is(post.status, 422);
  t.deepEqual(((await post.json()) as { detail: { loc: unknown[] }[] }).detail[0]!.loc, ['body', 'csrf']);
});

test('a different user signed in to the same browser gets their own consent and grant', async (t) => {
  const alice = t0.user();
  const { provider, jar } = await connectV1(t0, t0.session(alice));
  const bob = t0.user({ orgId: t0.org('bobs') });
  jar.set('sextant_session', t0.session(bob));
  const url = new URL(provider.authorizationUrl!);
  url.searchParams.set('state', 'second');
  const callback = await authorize(jar, url);
  const { body } = await tokenRequest(t0.url, {
    grant_type: 'authorization_code',
    code: callback.searchParams.get('code')!,
    client_id: provider.info!.client_id,
    redirect_uri: provider.redirectUrl,
    code_verifier: provider.verifier,
    resource: `${t0.url}/ai/mcp`,
  });
  const client = new Client({ name: 'bob', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { Authorization: `Bearer ${String(body['access_token'])}` } } }));
  await client.callTool({ name: 'catalog', arguments: {} });
  t.true(ports.calls.some((c) => c.method === 'catalog' && c.userId === bob.id && c.orgId === 'bobs'));
  t.false(ports.calls.some((c) => c.userId === alice.id && c.orgId === 'bobs'));
  await client.close();
});

test('a client naming no scope, or only offline_access, is granted mcp:tools after Allow, as the consent page says', async (t) => {
  const reg = (await (await t0.fetch('/oauth/reg', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Scopeless', redirect_uris: [REDIRECT_URL], application_type: 'native', token_endpoint_auth_method: 'none' }) })).json()) as { client_id: string };
  for (const scope of [undefined, '', 'offline_access', 'openid offline_access']) {
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${t0.url}/oauth/auth`);
    const params = { response_type: 'code', client_id: reg.client_id, redirect_uri: REDIRECT_URL, state: 's', code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256', resource: `${t0.url}/ai/mcp`, ...(scope === undefined ? {} : { scope }) };
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    const jar = new CookieJar();
    jar.set('sextant_session', t0.session(t0.user()));
    const code = (await authorize(jar, url)).searchParams.get('code')!;
    const token = await tokenRequest(t0.url, { grant_type: 'authorization_code', code, client_id: reg.client_id, redirect_uri: REDIRECT_URL, code_verifier: verifier, resource: `${t0.url}/ai/mcp` });
    t.is(token.status, 200, `${scope}: ${JSON.stringify(token.body)}`);
    t.is(token.body['scope'], 'mcp:tools', String(scope));
    t.truthy(token.body['refresh_token'], String(scope));
    t.is((await mcpPost(t0, { Authorization: `Bearer ${token.body['access_token']}` })).status, 200, String(scope));
  }
});
