import test from 'ava';
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { route } from '../../src/gateway/route.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// A route that answers with the body it was given: the JSON path (json-body.ts) must read bodies as
// koa-body did, but for bytes that are not UTF-8, which are a decode error instead of replaced text.
const echo = () => [
  route({
    method: 'POST',
    path: '/api/echo-optional-body',
    operationId: 'echo_optional_body',
    summary: 'echo',
    tags: ['test'],
    auth: 'none',
    body: z.object({ text: z.string() }).optional(),
    handler: ({ body }) => ({ got: body ?? null }),
  }),
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

test('compressed bodies are read as the same text, checked as UTF-8 after inflating, and limited by their inflated size', async (t) => {
  const text = JSON.stringify({ text: 'zipped 注文' });
  for (const [encoding, zip] of [['gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync]] as const) {
    const zipped = await post(zip(text), { 'content-type': 'application/json', 'content-encoding': encoding });
    t.is(zipped.status, 200, encoding);
    t.deepEqual(await zipped.json(), { text: 'zipped 注文' }, encoding);
    const latin = await post(zip(Buffer.concat([Buffer.from('{"text": "caf'), Buffer.from([0xe9]), Buffer.from('"}')])), { 'content-type': 'application/json', 'content-encoding': encoding });
    t.is(latin.status, 422, `${encoding}: not UTF-8`);
    t.is(((await latin.json()) as { detail: { type: string }[] }).detail[0]?.type, 'json_invalid');
  }
  // 2 KB of gzip that would inflate to 2 MB: refused as a body over the limit.
  const bomb = gzipSync(JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }));
  t.true(bomb.length < 10_000);
  const inflated = await post(bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  t.is(inflated.status, 413);
  const broken = await post(Buffer.from('not gzip at all'), { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  t.is(broken.status, 422);
  const large = await post(JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }), { 'content-type': 'application/json' });
  t.is(large.status, 413);
  t.is(((await large.json()) as { code: string }).code, 'BODY_TOO_LARGE');
  // Still serving after all of it.
  t.is((await post(text, { 'content-type': 'application/json' })).status, 200);
});

/** Sends a chunked POST of `pieces` over a socket; the status line and body of the answer. */
async function chunked(pieces: Buffer[], type = 'application/json'): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(t0.url);
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  const ended = new Promise<void>((resolve) => socket.on('data', (d) => (answer += d.toString('latin1'))).on('close', () => resolve()));
  socket.write(`POST /api/echo-body HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n`);
  for (const piece of pieces) socket.write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
  socket.end('0\r\n\r\n');
  await ended;
  return { status: Number(answer.slice(9, 12)), body: Buffer.from(answer.slice(answer.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8') };
}

test('a chunked body, or one of another JSON type, is checked as UTF-8 too; a body in another charset is decoded in it, and one in an unknown charset refused', async (t) => {
  const good = await chunked([Buffer.from('{"text": "na'), Buffer.from('ïve"}')]);
  t.is(good.status, 200);
  t.true(good.body.includes('naïve'));
  for (const type of ['application/json', 'application/vnd.api+json']) {
    const bad = await chunked([Buffer.from('{"text": "caf'), Buffer.from([0xe9]), Buffer.from('"}')], type);
    t.is(bad.status, 422, type);
    t.true(bad.body.includes('json_invalid'), type);
  }
  const vnd = await post(Buffer.concat([Buffer.from('{"text": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]), { 'content-type': 'application/vnd.api+json' });
  t.is(vnd.status, 422);
  const latin1 = await post(Buffer.concat([Buffer.from('{"text": "caf'), Buffer.from([0xe9]), Buffer.from('"}')]), { 'content-type': 'application/json; charset=latin1' });
  t.is(latin1.status, 200);
  t.deepEqual(await latin1.json(), { text: 'café' });
  const utf16 = await post(Buffer.from(JSON.stringify({ text: '注文' }), 'utf16le'), { 'content-type': 'application/json; charset=utf-16le' });
  t.deepEqual(await utf16.json(), { text: '注文' });
  const unknown = await post(JSON.stringify({ text: 'x' }), { 'content-type': 'application/json; charset=no-such-charset' });
  t.is(unknown.status, 400);
  t.is(((await unknown.json()) as { code: string }).code, 'UNSUPPORTED_MEDIA_TYPE');
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

test('a POST with a JSON type and no body at all (no length, no chunks) leaves an optional body unset', async (t) => {
  const { hostname, port } = new URL(t0.url);
  const socket = connect(Number(port), hostname);
  t.teardown(() => socket.destroy());
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  const ended = new Promise<void>((resolve) => socket.on('data', (d) => (answer += d.toString('utf8'))).on('close', () => resolve()));
  socket.write('POST /api/echo-optional-body HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n\r\n');
  await ended;
  t.regex(answer, /^HTTP\/1\.1 200 /);
  t.true(answer.endsWith('{"got":null}'), answer);
});
