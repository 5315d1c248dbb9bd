import test from 'ava';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Principal, Role } from '../../src/auth/index.ts';
import { createLogger } from '../../src/log.ts';
import { createMcpServer } from '../../src/mcp/create-mcp-server.ts';
import type { McpPorts } from '../../src/mcp/ports.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { fakeMcpPorts, type FakePorts } from '../helpers/fake-mcp-ports.ts';

const principal = (role: Role = 'user', orgId = 'acme', userId = `u-${role}`): Principal => ({
  userId,
  email: `${userId}@example.com`,
  orgId,
  baseOrgId: orgId,
  role,
  permissions: [],
  credential: 'mcp_token',
  scopes: ['mcp:*'],
});

/** A client talking in memory to a fresh server for `p`; sleeps are recorded, not slept. */
async function connect(p: Principal, ports: McpPorts = fakeMcpPorts()) {
  const slept: number[] = [];
  const server = createMcpServer({ principal: p, version: '0.0.0', ports, log: createLogger('silent'), sleep: async (ms) => void slept.push(ms) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'unit', version: '1' });
  await client.connect(b);
  return { client, slept };
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult;

test('every tool has a description for a model, an input schema and an output schema', async (t) => {
  const { client } = await connect(principal('admin'));
  const { tools } = await client.listTools();
  t.is(tools.length, 6);
  for (const tool of tools) {
    t.true((tool.description ?? '').length > 60, tool.name);
    t.is(tool.inputSchema.type, 'object');
    t.is(tool.outputSchema?.type, 'object', tool.name);
  }
  const ask = tools.find((x) => x.name === 'ask_question')!;
  t.deepEqual(ask.inputSchema.required, ['question']);
});

test('every tool has a title and says whether it is read-only, so clients ask approval only for ask_question', async (t) => {
  const { client } = await connect(principal('admin'));
  const { tools } = await client.listTools();
  const readOnly = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations?.readOnlyHint]));
  t.deepEqual(readOnly, { catalog: true, ask_question: false, get_result: true, wait: true, search_knowledge: true, run_query: true });
  for (const tool of tools) {
    t.true((tool.title ?? '').length > 3, tool.name);
    t.is(tool.annotations?.title, tool.title, tool.name);
    t.is(tool.annotations?.openWorldHint, false, tool.name);
  }
  t.like(tools.find((x) => x.name === 'ask_question')!.annotations, { destructiveHint: false, idempotentHint: false });
});

test('the CSV resource get_result names reads back the same table; a wrong index or chat is not found', async (t) => {
  const ports = fakeMcpPorts();
  const { client } = await connect(principal(), ports);
  t.truthy(client.getServerCapabilities()?.resources, 'resources capability declared');
  const chatId = ((await call(client, 'ask_question', { question: 'Revenue by country?' })).structuredContent as { chat_id: string }).chat_id;
  const running = `sextant://chats/${chatId}/tables/0.csv`;
  await t.throwsAsync(client.readResource({ uri: running }), { message: /not found/i }, 'no table while the answer runs');
  ports.complete(chatId);
  const done = await call(client, 'get_result', { chat_id: chatId });
  const block = done.content[1] as { resource: { uri: string; text: string } };
  const read = await client.readResource({ uri: block.resource.uri });
  t.deepEqual(read.contents, [{ uri: block.resource.uri, mimeType: 'text/csv', text: block.resource.text }]);
  await t.throwsAsync(client.readResource({ uri: `sextant://chats/${chatId}/tables/1.csv` }), { message: /not found/i });
  await t.throwsAsync(client.readResource({ uri: 'sextant://chats/nope/tables/0.csv' }), { message: /not found/i });
});

test('run_query is offered to admins and modelers only', async (t) => {
  for (const [role, offered] of [['user', false], ['modeler', true], ['admin', true]] as const) {
    const { client } = await connect(principal(role));
    t.is((await client.listTools()).tools.some((x) => x.name === 'run_query'), offered, role);
  }
  // A tool the user is not offered does not exist for them: SDK v2 answers the unknown tool with a
  // protocol error (-32602), as the specification prescribes, where SDK v1 returned a tool error.
  const { client } = await connect(principal('user'));
  await t.throwsAsync(call(client, 'run_query', { connection_id: 'x', sql: 'select 1' }), { message: /Tool run_query not found/ });
});

test('run_query restricts modelers to governed sources and returns CSV', async (t) => {
  const ports = fakeMcpPorts();
  const modeler = await connect(principal('modeler'), ports);
  await call(modeler.client, 'run_query', { connection_id: 'w', sql: 'select 1' });
  t.like(ports.calls.at(-1), { method: 'runQuery', input: { governedOnly: true, rowLimit: 1000 } });
  const admin = await connect(principal('admin'), ports);
  const r = await call(admin.client, 'run_query', { connection_id: 'w', sql: 'select 1', row_limit: 5 });
  t.like(ports.calls.at(-1), { method: 'runQuery', input: { governedOnly: false, rowLimit: 5, connectionId: 'w' } });
  t.like(r.structuredContent, { columns: ['org', 'n'], row_count: 1, truncated: false, csv: 'org,n\r\nacme,1' });
});

test('run_query neutralises text cells that would start a spreadsheet formula', async (t) => {
  const ports = fakeMcpPorts();
  ports.runQuery = async () => ({ columns: ['=c', 'n'], rows: [['=cmd|calc', -5]], rowCount: 1, truncated: false, executionMs: 1 });
  const admin = await connect(principal('admin'), ports);
  const r = await call(admin.client, 'run_query', { connection_id: 'w', sql: 'select 1' });
  t.like(r.structuredContent, { csv: "'=c,n\r\n'=cmd|calc,-5" });
});

test('catalog answers from the port with structured content', async (t) => {
  const ports = fakeMcpPorts();
  const { client } = await connect(principal(), ports);
  const r = await call(client, 'catalog');
  t.like(r.structuredContent, { connections: [{ id: 'acme_warehouse', type: 'duckdb' }], tables: [{ name: 'acme_orders' }] });
  t.deepEqual(ports.calls.map((c) => c.method), ['catalog']);
});

test('ask_question returns a chat id at once; get_result reports processing, then the answer with CSV tables and charts', async (t) => {
  const ports = fakeMcpPorts();
  const { client } = await connect(principal(), ports);
  const asked = await call(client, 'ask_question', { question: 'Revenue by country?' });
  const chatId = (asked.structuredContent as { chat_id: string }).chat_id;
  t.truthy(chatId);
  const pending = await call(client, 'get_result', { chat_id: chatId });
  t.like(pending.structuredContent, { status: 'processing', chat_id: chatId, suggested_wait_seconds: 5 });
  ports.complete(chatId);
  const done = await call(client, 'get_result', { chat_id: chatId });
  t.like(done.structuredContent, { status: 'completed', answer: 'Revenue is up (acme/u-user).', tables: [{ name: 'revenue', row_count: 2, sql: 'SELECT country, SUM(total_amount) AS revenue FROM orders GROUP BY 1' }] });
  t.like(done.structuredContent, { queries: [{ sql: 'SELECT country, SUM(total_amount) AS revenue FROM orders GROUP BY 1', ok: true }] });
  const csv = 'country,revenue\r\nFrance,10.5\r\n"United States, ""US""",20';
  t.is((done.structuredContent as { tables: { csv: string }[] }).tables[0]!.csv, csv);
  t.like(done.content[1], { type: 'resource', resource: { mimeType: 'text/csv', text: csv } });
  t.like(done.content[2], { type: 'image', mimeType: 'image/png' });
  t.like(done.content[3], { type: 'text' });
  // The spec-only chart is also drawn on the server, next to its spec.
  const drawn = done.content[4] as { type: string; mimeType: string; data: string };
  t.like(drawn, { type: 'image', mimeType: 'image/png' });
  t.deepEqual([...Buffer.from(drawn.data, 'base64').subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const followUp = await call(client, 'ask_question', { question: 'And in 2024?', chat_id: chatId });
  t.is((followUp.structuredContent as { chat_id: string }).chat_id, chatId);
  t.like(ports.calls.at(-1), { method: 'askQuestion', input: { chatId } });
});

test('get_result answers "chat not found" for unknown chats', async (t) => {
  const { client } = await connect(principal());
  const r = await call(client, 'get_result', { chat_id: 'nope' });
  t.true(r.isError);
  t.like(r.structuredContent, { status: 'not_found', message: 'Chat not found.' });
});

test('wait is bounded and returns as soon as the chat is ready', async (t) => {
  const ports = fakeMcpPorts();
  const { client, slept } = await connect(principal(), ports);
  t.true((await call(client, 'wait', { seconds: 31 })).isError);
  t.true((await call(client, 'wait', { seconds: 0 })).isError);
  const chatId = ((await call(client, 'ask_question', { question: 'q' })).structuredContent as { chat_id: string }).chat_id;
  ports.complete(chatId);
  const r = await call(client, 'wait', { seconds: 30, chat_id: chatId });
  t.like(r.structuredContent, { ready: true, waited_seconds: 0 });
  t.deepEqual(slept, []);
  const running = ((await call(client, 'ask_question', { question: 'q2' })).structuredContent as { chat_id: string }).chat_id;
  t.like((await call(client, 'wait', { seconds: 3, chat_id: running })).structuredContent, { ready: false, waited_seconds: 3 });
  t.deepEqual(slept, [1000, 1000, 1000]);
  t.like((await call(client, 'wait', { seconds: 2 })).structuredContent, { waited_seconds: 2 });
  // A chat that is none of the caller's is said at once, not reported ready.
  const missing = await call(client, 'wait', { seconds: 3, chat_id: '00000000-0000-4000-8000-000000000000' });
  t.true(missing.isError);
  t.like(missing.structuredContent, { status: 'not_found' });
  t.deepEqual(slept, [1000, 1000, 1000, 1000, 1000]);
});

test('search_knowledge passes the query and limit and returns hits', async (t) => {
  const ports = fakeMcpPorts();
  const { client } = await connect(principal(), ports);
  const r = await call(client, 'search_knowledge', { query: 'net revenue', limit: 3 });
  t.like(r.structuredContent, { hits: [{ kind: 'note', id: 'acme-revenue', snippet: 'net revenue' }] });
  t.like(ports.calls.at(-1), { input: { query: 'net revenue', limit: 3 } });
});

test('tools on a server whose ports are not wired answer with a clear tool error', async (t) => {
  const { unwiredMcpPorts } = await import('../helpers/unwired-mcp-ports.ts');
  const { client } = await connect(principal(), unwiredMcpPorts);
  const r = await call(client, 'catalog');
  t.true(r.isError);
  t.regex(JSON.stringify(r.content), /MCP_CAPABILITY_UNAVAILABLE/);
});

// Over HTTP with real credentials: the principal comes from the token, never from the arguments.
let t0: TestApp;
let ports: FakePorts;
test.before(async () => {
  ports = fakeMcpPorts();
  t0 = await startTestApp({}, { mcpPorts: ports });
});
test.after.always(() => t0.stop());

async function httpClient(token: string) {
  const client = new Client({ name: 'http', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t0.url}/ai/mcp`), { requestInit: { headers: { 'X-API-KEY': token } } }));
  return client;
}

test('a user never sees another organization’s data or chats through the tools', async (t) => {
  const alice = t0.user({ orgId: t0.org('alpha') });
  const bob = t0.user({ orgId: t0.org('beta'), role: 'admin' });
  const a = await httpClient(t0.token(alice, 'mcp'));
  const b = await httpClient(t0.token(bob, 'mcp'));
  const catA = JSON.stringify((await call(a, 'catalog')).structuredContent);
  t.regex(catA, /alpha_orders/);
  t.notRegex(catA, /beta/);
  const chatB = ((await call(b, 'ask_question', { question: 'secret?' })).structuredContent as { chat_id: string }).chat_id;
  ports.complete(chatB);
  const stolen = await call(a, 'get_result', { chat_id: chatB });
  t.like(stolen.structuredContent, { status: 'not_found' });
  t.true((await call(a, 'ask_question', { question: 'continue', chat_id: chatB })).isError);
  t.notRegex(JSON.stringify((await call(a, 'search_knowledge', { query: 'revenue' })).structuredContent), /beta/);
  const uri = ((await call(b, 'get_result', { chat_id: chatB })).content[1] as { resource: { uri: string } }).resource.uri;
  t.is((await b.readResource({ uri })).contents.length, 1, 'the owner reads the table back over HTTP');
  await t.throwsAsync(a.readResource({ uri }), { message: /not found/i }, 'another organization cannot');
  const colleague = await httpClient(t0.token(t0.user({ orgId: 'beta' }), 'mcp'));
  await t.throwsAsync(colleague.readResource({ uri }), { message: /not found/i }, 'nor another user of the same organization');
  await colleague.close();
  const byAlice = ports.calls.filter((c) => c.userId === alice.id);
  t.true(byAlice.length >= 4);
  t.true(byAlice.every((c) => c.orgId === 'alpha'));
  await a.close();
  await b.close();
});
