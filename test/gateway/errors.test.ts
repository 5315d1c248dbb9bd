import test from 'ava';
import { z } from 'zod';
import { route } from '../../src/gateway/route.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

// Probe routes exercising each validation location and an unexpected failure.
const probes = () => [
  route({
    method: 'POST',
    path: '/api/probe/{item_id}',
    operationId: 'probe',
    summary: 'probe',
    tags: ['test'],
    auth: 'none',
    params: z.object({ item_id: z.coerce.number().int().min(1) }),
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(40) }),
    body: z.object({ name: z.string().min(1), tags: z.array(z.string()).default([]) }),
    handler: ({ params, query, body }) => ({ params, query, body }),
  }),
  route({
    method: 'GET',
    path: '/api/probe-crash',
    operationId: 'probe_crash',
    summary: 'crash',
    tags: ['test'],
    auth: 'none',
    handler: () => {
      throw new Error('secret database password hunter2 leaked in message');
    },
  }),
];

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp({}, { extraRoutes: probes });
});
test.after.always(() => t0.stop());

const post = (path: string, body: unknown, raw = false) =>
  t0.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw ? (body as string) : JSON.stringify(body) });

test('a valid request reaches the handler with coerced values and defaults', async (t) => {
  const res = await post('/api/probe/7?limit=5', { name: 'x' });
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { params: { item_id: 7 }, query: { limit: 5 }, body: { name: 'x', tags: [] } });
});

test('a bad path parameter answers 422 located under path', async (t) => {
  const res = await post('/api/probe/abc', { name: 'x' });
  t.is(res.status, 422);
  const body = (await res.json()) as { detail: { loc: unknown[]; msg: string; type: string }[] };
  t.deepEqual(body.detail[0]?.loc, ['path', 'item_id']);
  t.is(typeof body.detail[0]?.msg, 'string');
  t.is(typeof body.detail[0]?.type, 'string');
});

test('a query parameter out of bounds answers 422 located under query', async (t) => {
  for (const limit of ['0', '501', 'x']) {
    const res = await post(`/api/probe/1?limit=${limit}`, { name: 'x' });
    t.is(res.status, 422);
    const body = (await res.json()) as { detail: { loc: unknown[] }[] };
    t.deepEqual(body.detail[0]?.loc, ['query', 'limit']);
  }
});

test('a missing body field answers 422 with type missing', async (t) => {
  const res = await post('/api/probe/1', { tags: [1] });
  t.is(res.status, 422);
  const body = (await res.json()) as { detail: { loc: unknown[]; type: string; msg: string }[] };
  t.deepEqual(
    body.detail.map((d) => d.loc),
    [['body', 'name'], ['body', 'tags', 0]],
  );
  t.is(body.detail[0]?.type, 'missing');
  t.is(body.detail[0]?.msg, 'Field required');
});

test('malformed JSON answers 422 json_invalid', async (t) => {
  const res = await post('/api/probe/1', '{"name": ', true);
  t.is(res.status, 422);
  const body = (await res.json()) as { detail: { type: string }[] };
  t.is(body.detail[0]?.type, 'json_invalid');
});

test('a body over the size limit answers 413', async (t) => {
  const res = await post('/api/probe/1', { name: 'x'.repeat(2 * 1024 * 1024) });
  t.is(res.status, 413);
  t.is(((await res.json()) as { code: string }).code, 'BODY_TOO_LARGE');
});

test('an unknown path answers 404 with detail Not Found and code NOT_FOUND', async (t) => {
  const res = await t0.fetch('/api/does-not-exist');
  t.is(res.status, 404);
  t.deepEqual(await res.json(), { detail: 'Not Found', code: 'NOT_FOUND' });
});

test('a wrong method answers 405 with an Allow header', async (t) => {
  const res = await t0.fetch('/api/health', { method: 'DELETE' });
  t.is(res.status, 405);
  t.is(res.headers.get('allow'), 'GET');
  t.deepEqual(await res.json(), { detail: 'Method Not Allowed', code: 'METHOD_NOT_ALLOWED' });
});

test('an unexpected error answers a generic 500 and logs the cause with the request id', async (t) => {
  const res = await t0.fetch('/api/probe-crash', { headers: { 'X-Request-Id': 'req-crash-1' } });
  t.is(res.status, 500);
  const text = await res.text();
  t.false(text.includes('hunter2'));
  t.deepEqual(JSON.parse(text), { detail: 'Internal Server Error', code: 'INTERNAL_ERROR', request_id: 'req-crash-1' });
  const line = t0.logs.find((l) => l['request_id'] === 'req-crash-1' && l['msg'] === 'unexpected error');
  t.truthy(line);
});

test('responses carry a request id and security headers', async (t) => {
  const res = await t0.fetch('/api/health');
  t.regex(res.headers.get('x-request-id') ?? '', /^[\w-]+$/);
  t.is(res.headers.get('x-content-type-options'), 'nosniff');
  t.is(res.headers.get('x-frame-options'), 'DENY');
});
