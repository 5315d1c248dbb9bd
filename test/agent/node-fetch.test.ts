import test from 'ava';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicProvider } from '../../src/agent/providers/anthropic-provider.ts';
import { LlmError } from '../../src/agent/providers/errors.ts';
import { nodeFetch } from '../../src/agent/providers/node-fetch.ts';
import { openAiProvider } from '../../src/agent/providers/openai-provider.ts';
import { collectTurn } from '../../src/agent/providers/types.ts';

/** A loopback server whose handler the test drives; the open responses are ended at teardown. */
async function server(handler: (body: string, res: ServerResponse, headers: Record<string, unknown>) => void) {
  const open = new Set<ServerResponse>();
  const srv = createServer((req, res) => {
    open.add(res);
    let body = '';
    req.on('data', (d: Buffer) => (body += d));
    req.on('end', () => handler(body, res, req.headers));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: () => {
      for (const res of open) res.destroy();
      srv.close();
    },
  };
}

test('the body streams as it arrives, with the status, headers and the request as sent', async (t) => {
  let second: () => void = () => {};
  const s = await server((body, res, headers) => {
    res.writeHead(201, { 'content-type': 'text/event-stream', 'x-request-id': 'r1' });
    res.write(`got ${body} ${String(headers['authorization'])}\n`);
    second = () => res.end('second\n');
  });
  t.teardown(s.close);
  const res = await nodeFetch(`${s.url}/v1/x`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{"a":1}' });
  t.is(res.status, 201);
  t.is(res.headers.get('x-request-id'), 'r1');
  const chunks: string[] = [];
  for await (const chunk of res.body as unknown as AsyncIterable<Buffer>) {
    chunks.push(chunk.toString());
    // The second piece is sent only once the first was read: nothing waits for the end.
    second();
  }
  t.deepEqual(chunks, ['got {"a":1} Bearer k\n', 'second\n']);
});

test('an error answer reads as text and JSON', async (t) => {
  const s = await server((_b, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end('{"error":{"message":"slow down"}}');
  });
  t.teardown(s.close);
  const res = await nodeFetch(`${s.url}/x`, { method: 'POST', body: '{}' });
  t.is(res.status, 429);
  t.deepEqual(await res.json(), { error: { message: 'slow down' } });
});

test('an abort before the answer rejects, and during the answer ends the body, with an AbortError', async (t) => {
  const s = await server((_b, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('first\n');
  });
  t.teardown(s.close);
  const before = new AbortController();
  before.abort();
  await t.throwsAsync(nodeFetch(`${s.url}/x`, { signal: before.signal }), { name: 'AbortError' });
  const during = new AbortController();
  const res = await nodeFetch(`${s.url}/x`, { signal: during.signal });
  const read = (async () => {
    for await (const _ of res.body as unknown as AsyncIterable<Buffer>) during.abort();
  })();
  await t.throwsAsync(read, { name: 'AbortError' });
});

test('a refused connection rejects', async (t) => {
  const s = await server(() => {});
  s.close();
  await t.throwsAsync(nodeFetch(`${s.url}/x`));
});

for (const [protocol, make] of [
  ['openai', (url: string) => openAiProvider({ model: 'm', apiKey: 'k', baseUrl: `${url}/v1`, maxRetries: 0, timeoutMs: 300 })],
  ['anthropic', (url: string) => anthropicProvider({ model: 'm', apiKey: 'k', baseUrl: url, maxRetries: 0, timeoutMs: 300 })],
] as const) {
  test(`${protocol}: a model that never answers is cut at the configured timeout with LLM_TIMEOUT`, async (t) => {
    const s = await server(() => {});
    t.teardown(s.close);
    const err = await t.throwsAsync(collectTurn(make(s.url).stream({ system: 's', messages: [{ role: 'user', content: 'q' }], tools: [] })));
    t.true(err instanceof LlmError);
    t.is((err as LlmError).code, 'LLM_TIMEOUT');
  });
}
