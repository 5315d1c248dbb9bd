// /ai/mcp is a JSON-RPC endpoint: whatever body arrives, the answer is a JSON-RPC error (or a
// result), never a 5xx and never the REST error shape. Malformed JSON is -32700 with HTTP 400; JSON
// nested deeper than the limit is refused before it is parsed.
import test from 'ava';
import { gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { fakeMcpPorts } from '../../helpers/fake-mcp-ports.ts';
import { MAX_JSON_DEPTH, nestingExceeds } from '../../../src/gateway/mcp/read-json-rpc-body.ts';

let t0: TestApp;
let key: string;
test.before(async () => {
  t0 = await startTestApp({}, { mcpPorts: fakeMcpPorts() });
  key = t0.token(t0.user({ role: 'admin' }), 'mcp');
});
test.after.always(() => t0.stop());

const ACCEPT = 'application/json, text/event-stream';
const LEGACY = { 'mcp-protocol-version': '2025-11-25' };
const MODERN = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };

function post(body: string | Uint8Array, headers: Record<string, string> = {}) {
  return t0.fetch('/ai/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT, 'X-API-KEY': key, ...headers }, body });
}

/** The JSON-RPC message of a response, whether sent as JSON or as an SSE event; undefined when empty. */
async function message(res: Response): Promise<Record<string, unknown> | undefined> {
  const text = await res.text();
  if (text === '') return undefined;
  const data = text.trimStart().startsWith('{') || text.trimStart().startsWith('[') ? text : /^data: (.+)$/m.exec(text)?.[1];
  if (data === undefined) throw new Error(`not JSON-RPC: ${text.slice(0, 200)}`);
  return JSON.parse(data) as Record<string, unknown>;
}

const deep = (n: number, open = '[', close = ']', inner = '') => `${open.repeat(n)}${inner}${close.repeat(n)}`;

test('nesting is counted on the text: up to the limit passes, one more does not, and strings and escapes do not count', (t) => {
  t.false(nestingExceeds(deep(MAX_JSON_DEPTH), MAX_JSON_DEPTH));
  t.true(nestingExceeds(deep(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH));
  t.false(nestingExceeds(`{"a":"${'['.repeat(100)}"}`, 2));
  t.false(nestingExceeds(String.raw`{"a":"\\"}`, 1), 'an escaped backslash ends before the closing quote');
  t.false(nestingExceeds(String.raw`{"a":"\\"` + '[]'.repeat(50), 2));
  t.false(nestingExceeds(String.raw`["\"[[[[[["]`, 1), 'an escaped quote does not end the string');
  t.true(nestingExceeds(`[[{"a":[1]}]]`, 3));
});

test('malformed JSON answers HTTP 400 with the JSON-RPC parse error -32700', async (t) => {
  for (const body of ['{', '{"jsonrpc":"2.0",', 'not json', '{"a":1}}', "{'jsonrpc':'2.0'}", '{"jsonrpc":"2.0","id":1,"method":"ping",}', 'NaN', '\u0000', '{"a":"\u0001"', '   ']) {
    for (const headers of [LEGACY, MODERN]) {
      const res = await post(body, headers);
      t.is(res.status, 400, JSON.stringify(body));
      t.like(await message(res), { jsonrpc: '2.0', error: { code: -32700 }, id: null }, JSON.stringify(body));
    }
  }
  const invalidUtf8 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
  const res = await post(invalidUtf8);
  t.true(res.status === 400, `invalid UTF-8: ${res.status}`);
});

test('JSON nested 10,000 levels deep is refused with a JSON-RPC error, whether the whole body or one argument', async (t) => {
  const bodies = [
    deep(10_000),
    deep(10_000, '{"a":', '}', '1'),
    `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"catalog","arguments":{"x":${deep(10_000)}}}}`,
    `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"catalog","arguments":{"x":${deep(65)}}}}`,
  ];
  for (const body of bodies) {
    for (const headers of [LEGACY, MODERN]) {
      const res = await post(body, headers);
      t.is(res.status, 400, body.slice(0, 60));
      const msg = await message(res);
      t.is(msg?.['jsonrpc'], '2.0');
      t.is((msg?.['error'] as { code: number }).code, -32600);
    }
  }
  // Brackets inside strings are text, not nesting.
  const ok = await post(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping', params: { _meta: { note: deep(5_000) } } }), LEGACY);
  t.is(ok.status, 200);
  t.like(await message(ok), { id: 9, result: {} });
});

test('no body of a hostile set gets a 5xx, each answer is JSON-RPC, and the endpoint still serves afterwards', async (t) => {
  const bodies: (string | Uint8Array)[] = [
    'null', 'true', '1', '-0', '1e400', '"str"', '[]', '[1]', '[{}]', '[null]', '{}', '{"jsonrpc":"1.0","id":1,"method":"ping"}',
    '{"jsonrpc":"2.0"}', '{"jsonrpc":"2.0","method":123,"id":1}', '{"jsonrpc":"2.0","method":"ping","id":{}}', '{"jsonrpc":"2.0","method":"ping","id":[1]}',
    '{"jsonrpc":"2.0","method":"ping","id":1e308}', '{"jsonrpc":"2.0","method":"ping","id":-1}', '{"jsonrpc":"2.0","method":"ping","id":null}',
    '{"jsonrpc":"2.0","method":"ping","id":true}', '{"jsonrpc":"2.0","method":"ping","id":"\\ud800"}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[]}', '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":"x"}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope","arguments":{}}}', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"catalog","arguments":[]}}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":{"x":1}}}', '{"jsonrpc":"2.0","id":1,"method":"tools/call"}',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":{},"capabilities":[],"clientInfo":"x"}}',
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}',
    '{"__proto__":{"polluted":true},"jsonrpc":"2.0","method":"ping","id":1}', '{"constructor":{"prototype":{"polluted":true}},"jsonrpc":"2.0","method":"ping","id":2}',
    '{"jsonrpc":"2.0","id":1,"method":"../../admin","params":{}}', '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":"x"}}',
    '{"jsonrpc":"2.0","id":1,"result":{}}', '{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}', '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{}}}',
    JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))),
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'run_query', arguments: { connection_id: 'x'.repeat(100_000), sql: 's'.repeat(500_000) } } }),
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])) } }),
    '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}', new Uint8Array([0xef, 0xbb, 0xbf]),
  ];
  const headerSets: Record<string, string>[] = [LEGACY, MODERN, {}, { 'mcp-protocol-version': '9999-01-01' }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': '\u00e9' }];
  for (const body of bodies) {
    for (const headers of headerSets) {
      const res = await post(body, headers);
      const label = `${typeof body === 'string' ? body.slice(0, 80) : `bytes ${body.length}`} ${JSON.stringify(headers)}`;
      t.true(res.status < 500, `${res.status}: ${label}`);
      const msg = await message(res).catch((err: Error) => ({ unreadable: err.message }));
      if (msg === undefined) continue;
      const one = (Array.isArray(msg) ? msg[0] : msg) as Record<string, unknown>;
      t.is(one['jsonrpc'], '2.0', label);
    }
  }
  t.is(({} as Record<string, unknown>)['polluted'], undefined);
  const after = await post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }), LEGACY);
  t.is(after.status, 200);
  t.true(((await message(after))?.['result'] as { tools: unknown[] }).tools.length > 0);
});

test('bodies the transport does not take get JSON-RPC errors too: wrong media type, unknown encoding, too large', async (t) => {
  const ping = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  const cases: [string | Uint8Array, Record<string, string>, number][] = [
    [ping, { 'content-type': 'text/plain' }, 415],
    [ping, { 'content-type': 'application/x-www-form-urlencoded' }, 415],
    [ping, { 'content-encoding': 'compress' }, 415],
    [ping, { 'content-encoding': 'br' }, 400],
    [ping, { 'content-encoding': 'gzip' }, 400],
    [`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"${'x'.repeat(4 * 1024 * 1024)}"}}}`, {}, 413],
  ];
  for (const [body, headers, status] of cases) {
    const res = await post(body, { ...LEGACY, ...headers });
    t.is(res.status, status, JSON.stringify(headers));
    t.like(await message(res), { jsonrpc: '2.0', id: null }, JSON.stringify(headers));
  }
  // A gzip body that really is gzip is read like any other.
  const zipped = await post(gzipSync(ping), { ...LEGACY, 'content-encoding': 'gzip' });
  t.is(zipped.status, 200);
  t.like(await message(zipped), { id: 1, result: {} });
});
