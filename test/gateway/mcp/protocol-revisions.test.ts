import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { fakeMcpPorts } from '../../helpers/fake-mcp-ports.ts';

const ports = fakeMcpPorts();
let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({}, { mcpPorts: ports });
});
test.after.always(() => t0.stop());

/** What a client put on the wire: each request's method header, name header and JSON-RPC method. */
interface Sent {
  mcpMethod: string | null;
  mcpName: string | null;
  protocolVersion: string | null;
  method: string | undefined;
}

/** A fetch that records the MCP headers and body method of every request. */
function recordingFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
    sent.push({ mcpMethod: headers.get('mcp-method'), mcpName: headers.get('mcp-name'), protocolVersion: headers.get('mcp-protocol-version'), method: body.method });
    return fetch(input, init);
  };
}

const modernClient = () => new ClientV2({ name: 'modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });

test('a client pinned to 2026-07-28 discovers the server, lists and calls tools with an MCP token', async (t) => {
  const user = t0.user({ orgId: t0.org('rev26'), role: 'admin' });
  const sent: Sent[] = [];
  const transport = new TransportV2(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': t0.token(user, 'mcp') } }, fetch: recordingFetch(sent) });
  const client = modernClient();
  await client.connect(transport);
  t.is(client.getProtocolEra(), 'modern');
  t.is(client.getNegotiatedProtocolVersion(), '2026-07-28');
  t.is(client.getServerVersion()?.name, 'sextant');
  const names = (await client.listTools()).tools.map((x) => x.name).sort();
  t.deepEqual(names, ['ask_question', 'catalog', 'get_result', 'run_query', 'search_knowledge', 'wait']);
  const catalog = await client.callTool({ name: 'catalog', arguments: {} });
  t.like(catalog, { structuredContent: { connections: [{ id: 'rev26_warehouse' }] } });
  t.true(ports.calls.some((c) => c.method === 'catalog' && c.userId === user.id && c.orgId === 'rev26'));
  const q = await client.callTool({ name: 'run_query', arguments: { connection_id: 'rev26_warehouse', sql: 'select 1' } });
  t.like(q, { structuredContent: { row_count: 1, csv: 'org,n\r\nrev26,1' } });
  // Invalid arguments stay a tool error the model can read, as on the 2025 revisions.
  t.true((await client.callTool({ name: 'wait', arguments: { seconds: 99 } })).isError);
  await client.close();
  // The current revision: no initialize, server/discover instead, method and name in headers.
  t.false(sent.some((s) => s.method === 'initialize'));
  t.like(sent[0], { method: 'server/discover', mcpMethod: 'server/discover' });
  const call = sent.find((s) => s.method === 'tools/call');
  t.like(call, { mcpMethod: 'tools/call', mcpName: 'catalog', protocolVersion: '2026-07-28' });
});

test('an SDK v2 client negotiating automatically settles on 2026-07-28', async (t) => {
  const transport = new TransportV2(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': t0.token(t0.user(), 'mcp') } } });
  const client = new ClientV2({ name: 'auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(transport);
  t.is(client.getNegotiatedProtocolVersion(), '2026-07-28');
  t.true((await client.listTools()).tools.some((x) => x.name === 'catalog'));
  await client.close();
});

test('a 2026-07-28 client without a credential gets the 401 challenge, and a general API token the fixed refusal', async (t) => {
  const bare = modernClient();
  await t.throwsAsync(bare.connect(new TransportV2(new URL(`${t0.url}/ai/mcp`))));
  const res = await t0.fetch('/ai/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'mcp-method': 'tools/list' }, body: '{}' });
  t.is(res.status, 401);
  t.regex(res.headers.get('www-authenticate') ?? '', /resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/ai\/mcp"/);
  const wrong = await t0.fetch('/ai/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'X-API-KEY': t0.token(t0.user(), 'api') }, body: '{}' });
  t.is(wrong.status, 403);
  t.like(await wrong.json(), { detail: 'Token does not have required MCP access' });
});

test('a 2025-11-25 client of SDK v1 still initializes statelessly and calls tools', async (t) => {
  const user = t0.user({ orgId: t0.org('rev25') });
  const transport = new StreamableHTTPClientTransport(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': t0.token(user, 'mcp') } } });
  const client = new Client({ name: 'v1', version: '1.0.0' });
  await client.connect(transport);
  t.is(transport.protocolVersion, '2025-11-25');
  t.is(transport.sessionId, undefined);
  const names = (await client.listTools()).tools.map((x) => x.name).sort();
  t.deepEqual(names, ['ask_question', 'catalog', 'get_result', 'search_knowledge', 'wait']);
  t.like(await client.callTool({ name: 'catalog', arguments: {} }), { structuredContent: { connections: [{ id: 'rev25_warehouse' }] } });
  await client.close();
});

test('an SDK v2 client in its default mode still talks 2025-11-25 to the endpoint', async (t) => {
  const transport = new TransportV2(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': t0.token(t0.user(), 'mcp') } } });
  const client = new ClientV2({ name: 'default', version: '1.0.0' });
  await client.connect(transport);
  t.is(client.getProtocolEra(), 'legacy');
  t.true((await client.listTools()).tools.some((x) => x.name === 'catalog'));
  await client.close();
});

test('a 2026-07-28 request whose Mcp-Method header disagrees with its body is refused', async (t) => {
  const sent: { headers: Headers; body: string }[] = [];
  const capture: typeof fetch = async (input, init) => {
    if (typeof init?.body === 'string') sent.push({ headers: new Headers(init.headers), body: init.body });
    return fetch(input, init);
  };
  const key = t0.token(t0.user(), 'mcp');
  const client = modernClient();
  await client.connect(new TransportV2(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': key } }, fetch: capture }));
  await client.listTools();
  await client.close();
  const list = sent.find((s) => (JSON.parse(s.body) as { method?: string }).method === 'tools/list');
  if (!list) return t.fail('the client sent no tools/list');
  const replay = (mcpMethod: string) => {
    const headers = new Headers(list.headers);
    headers.set('mcp-method', mcpMethod);
    return t0.fetch('/ai/mcp', { method: 'POST', headers, body: list.body });
  };
  const ok = await replay('tools/list');
  t.is(ok.status, 200);
  const refused = await replay('tools/call');
  t.is(refused.status, 400);
  const body = (await refused.json()) as { error?: { code: number } };
  t.is(body.error?.code, -32020);
});

test('GET and DELETE answer 405 for every revision', async (t) => {
  const key = t0.token(t0.user(), 'mcp');
  for (const method of ['GET', 'DELETE']) {
    const res = await t0.fetch('/ai/mcp', { method, headers: { 'X-API-KEY': key, 'mcp-protocol-version': '2026-07-28' } });
    t.is(res.status, 405, method);
    t.is(res.headers.get('allow'), 'POST');
  }
});
