import test from 'ava';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { route } from '../../src/gateway/route.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// A route that answers with the body it was given: the plain JSON path (json-body.ts) and koa-body's
// must read the same bodies the same way.
const echo = () => [
  route({
    method: 'POST',
    path: '/api/echo-body',
    operationId: 'echo_body',
    summary: 'echo',
    tags: ['test'],
    auth: 'none',
    body: z.object({ text: z.string(), nested: z.record(z.string(), z.unknown()).optional() }),
    handler: ({ body }) => body,
  }),
];

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({}, { extraRoutes: echo });
});
test.after.always(() => t0.stop());

const post = (body: string | Uint8Array, headers: Record<string, string>) => t0.fetch('/api/echo-body', { method: 'POST', headers, body });
// Types the plain path takes, and others koa-body reads as JSON.
const plainTypes = ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'];
const otherJsonTypes = ['application/vnd.api+json'];

test('a JSON body is read alike whichever path takes it', async (t) => {
  const body = { text: 'Combien de commandes — 注文 🚀?', nested: { a: [1, 2, { b: null }] } };
  for (const type of [...plainTypes, ...otherJsonTypes]) {
    const res = await post(JSON.stringify(body), { 'content-type': type });
    t.is(res.status, 200, type);
    t.deepEqual(await res.json(), body, type);
  }
});

test('a __proto__ key is refused as malformed JSON in every spelling, on both paths', async (t) => {
  for (const key of ['__proto__', '\\u005f_proto__', '__prot\\u006F__']) {
    for (const type of ['application/json', 'application/vnd.api+json']) {
      const res = await post(`{"text": "x", "nested": {"${key}": {"admin": true}}}`, { 'content-type': type });
      t.is(res.status, 422, `${key} ${type}`);
      t.is(((await res.json()) as { detail: { type: string }[] }).detail[0]?.type, 'json_invalid');
    }
  }
  // The words alone, as a value, are fine.
  const res = await post('{"text": "\\"__proto__\\": is a key we refuse"}', { 'content-type': 'application/json' });
  t.is(res.status, 200);
});

test('malformed JSON, an empty body and a byte-order mark answer as through koa-body', async (t) => {
  for (const type of ['application/json', 'application/vnd.api+json']) {
    const bad = await post('{"text": ', { 'content-type': type });
    t.is(bad.status, 422, type);
    t.is(((await bad.json()) as { detail: { type: string }[] }).detail[0]?.type, 'json_invalid');
    const empty = await post('', { 'content-type': type });
    t.is(empty.status, 422, `${type}: an empty body is not the object the route asks for`);
    t.not(((await empty.json()) as { detail: { type: string }[] }).detail[0]?.type, 'json_invalid');
    const bom = await post(`\uFEFF${JSON.stringify({ text: 'bom' })}`, { 'content-type': type });
    t.is(bom.status, 200, `${type}: the mark is dropped`);
    t.deepEqual(await bom.json(), { text: 'bom' });
  }
});

test('bytes that are not UTF-8 are a decode error, not text saved with replacement characters', async (t) => {
  for (const type of plainTypes) {
    const bytes = Buffer.concat([Buffer.from('{"text": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const res = await post(bytes, { 'content-type': type });
    t.is(res.status, 422, type);
    t.is(((await res.json()) as { detail: { type: string }[] }).detail[0]?.type, 'json_invalid');
  }
  // A replacement character the writer sent is theirs.
  const sent = await post(JSON.stringify({ text: 'caf\uFFFD' }), { 'content-type': 'application/json' });
  t.deepEqual(await sent.json(), { text: 'caf\uFFFD' });
});

test('a compressed body and one over the limit still go through koa-body', async (t) => {
  const zipped = await post(gzipSync(JSON.stringify({ text: 'zipped' })), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  t.is(zipped.status, 200);
  t.deepEqual(await zipped.json(), { text: 'zipped' });
  const large = await post(JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }), { 'content-type': 'application/json' });
  t.is(large.status, 413);
  t.is(((await large.json()) as { code: string }).code, 'BODY_TOO_LARGE');
});

test('a body that arrives in pieces, a character split between them, is read whole', async (t) => {
  const { hostname, port } = new URL(t0.url);
  const bytes = Buffer.from(JSON.stringify({ text: 'naïve 注文' }), 'utf8');
  const cut = bytes.indexOf(Buffer.from('注', 'utf8')) + 1;
  const socket = connect(Number(port), hostname);
  t.teardown(() => socket.destroy());
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  const ended = new Promise<void>((resolve) => socket.on('data', (d) => (answer += d.toString('utf8'))).on('end', resolve));
  socket.write(`POST /api/echo-body HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}\r\n\r\n`);
  socket.write(bytes.subarray(0, cut));
  // The second piece only once the first has reached the server's parser.
  await new Promise((resolve) => setImmediate(resolve));
  socket.write(bytes.subarray(cut));
  await ended;
  t.regex(answer, /^HTTP\/1\.1 200 /);
  t.true(answer.endsWith(JSON.stringify({ text: 'naïve 注文' })));
});

test('a body shorter than its Content-Length is a decode error once the client stops sending', async (t) => {
  const { hostname, port } = new URL(t0.url);
  const socket = connect(Number(port), hostname, () => {
    socket.write('POST /api/echo-body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"text": "short"}');
    socket.end();
  });
  t.teardown(() => socket.destroy());
  let answer = '';
  await new Promise<void>((resolve) => socket.on('data', (d) => (answer += d.toString('utf8'))).on('close', () => resolve()));
  // Either a 422 or a closed connection: never the short body taken as the whole.
  t.notRegex(answer, /^HTTP\/1\.1 200 /);
});
