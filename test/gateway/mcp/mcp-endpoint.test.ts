import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { fakeMcpPorts } from '../../helpers/fake-mcp-ports.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({}, { mcpPorts: fakeMcpPorts() });
});
test.after.always(() => t0.stop());

const post = (headers: Record<string, string>, body: unknown) =>
  t0.fetch('/ai/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(body) });

/** The JSON-RPC message of a response, whether sent as JSON or as one SSE event. */
async function message(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  const data = text.startsWith('{') ? text : (/^data: (.+)$/m.exec(text)?.[1] ?? '{}');
  return JSON.parse(data) as Record<string, unknown>;
}

for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
  test(`a client speaking protocol ${version} initializes and lists tools`, async (t) => {
    const key = { 'X-API-KEY': t0.token(t0.user(), 'mcp') };
    const init = await post(key, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '1' } } });
    t.is(init.status, 200);
    t.like(await message(init), { result: { protocolVersion: version, serverInfo: { name: 'sextant' } } });
    t.is(init.headers.get('mcp-session-id'), null);
    const headers = version >= '2025-06-18' ? { ...key, 'mcp-protocol-version': version } : key;
    const list = await post(headers, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    t.is(list.status, 200);
    const tools = ((await message(list))['result'] as { tools: { name: string }[] }).tools;
    t.true(tools.some((x) => x.name === 'ask_question'));
  });
}

test('a notification is accepted with 202 and no body', async (t) => {
  const res = await post({ 'X-API-KEY': t0.token(t0.user(), 'mcp') }, { jsonrpc: '2.0', method: 'notifications/initialized' });
  t.is(res.status, 202);
  t.is(await res.text(), '');
});

test('DELETE answers 405 like GET: the server keeps no sessions', async (t) => {
  const res = await t0.fetch('/ai/mcp', { method: 'DELETE', headers: { 'X-API-KEY': t0.token(t0.user(), 'mcp') } });
  t.is(res.status, 405);
  t.is(res.headers.get('allow'), 'POST');
  t.like(await res.json(), { jsonrpc: '2.0', error: { code: -32000 }, id: null });
});
