import test from 'ava';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { startTestApp } from '../helpers/app.ts';

test('readiness answers 200 with the store and the knowledge folder checked', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const res = await app.fetch('/api/ready');
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { status: 'ready', checks: { store: 'ok', knowledge: 'ok' } });
  t.is((await app.fetch('/api/health')).status, 200);
});

test('readiness answers 503 draining once the graceful shutdown begins, while liveness stays 200', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  await app.app.finishRuns(0);
  const res = await app.fetch('/api/ready');
  t.is(res.status, 503);
  t.like(await res.json(), { status: 'draining' });
  t.is((await app.fetch('/api/health')).status, 200);
});

test('readiness answers 503 not_ready naming the store when the database is gone', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  app.app.services.store.sqlite!.close();
  const res = await app.fetch('/api/ready');
  t.is(res.status, 503);
  t.deepEqual(await res.json(), { status: 'not_ready', checks: { store: 'failed', knowledge: 'ok' } });
});

test('readiness pings Redis when SEXTANT_REDIS_URL is set', async (t) => {
  const app = await startTestApp({ SEXTANT_REDIS_URL: 'redis://127.0.0.1:6379/0' });
  t.teardown(() => app.stop());
  const res = await app.fetch('/api/ready');
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { status: 'ready', checks: { store: 'ok', knowledge: 'ok', redis: 'ok' } });
});

test('a start with an unreachable Redis fails with the URL named and its password left out', async (t) => {
  const err = await t.throwsAsync(startTestApp({ SEXTANT_REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:1/0' }));
  t.regex(err!.message, /Redis at redis:\/\/127\.0\.0\.1:1\/0 is unreachable/);
  t.false(err!.message.includes('hunter2'));
});

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const bearer = { authorization: `Bearer ${METRICS_TOKEN}` };

test('metrics are served to the metrics token with request latencies by route template', async (t) => {
  const app = await startTestApp({ SEXTANT_METRICS_TOKEN: METRICS_TOKEN });
  t.teardown(() => app.stop());
  await app.fetch('/api/share/chat-123456');
  await app.fetch('/api/share/chat-abcdef');
  await app.fetch('/api/health');
  const res = await app.fetch('/metrics', { headers: bearer });
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type')!, /^text\/plain/);
  const text = await res.text();
  t.regex(text, /sextant_http_request_duration_seconds_count\{method="GET",route="\/api\/share\/\{chat_id\}",status="\d+"\} 2/);
  t.regex(text, /sextant_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} 1/);
  t.false(text.includes('chat-123456'), 'raw paths never become labels');
  t.regex(text, /^sextant_answers_running 0$/m);
  for (const queue of ['mail', 'evaluation', 'query_processes']) t.regex(text, new RegExp(`^sextant_queue_depth\\{queue="${queue}"\\} 0$`, 'm'));
  t.regex(text, /^process_cpu_user_seconds_total /m);
});

test('without a token or a metrics port, the public listener does not serve metrics to anyone, loopback included', async (t) => {
  // Issue 33: /metrics answered a loopback client without credentials; a proxy on the same machine is one.
  const app = await startTestApp();
  t.teardown(() => app.stop());
  t.is(app.metricsUrl, undefined);
  const attempts: Record<string, string>[] = [{}, { 'X-Forwarded-For': '203.0.113.9' }, { authorization: 'Bearer anything-at-all-0123456789' }];
  for (const headers of attempts) {
    const res = await app.fetch('/metrics', { headers });
    t.is(res.status, 404);
    t.false((await res.text()).includes('sextant_'));
  }
  // Another spelling reaches the web client's page (not built here), never the metrics.
  t.false((await (await app.fetch('/METRICS')).text()).includes('sextant_'));
});

test('with SEXTANT_METRICS_TOKEN, metrics require that bearer token', async (t) => {
  const app = await startTestApp({ SEXTANT_METRICS_TOKEN: METRICS_TOKEN });
  t.teardown(() => app.stop());
  for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${METRICS_TOKEN}`, `Bearer ${METRICS_TOKEN}x`, 'Bearer']) {
    const res = await app.fetch('/metrics', authorization ? { headers: { authorization } } : {});
    t.is(res.status, 401);
    t.like(await res.json(), { code: 'METRICS_TOKEN_REQUIRED' });
  }
  const ok = await app.fetch('/metrics', { headers: { ...bearer, 'X-Forwarded-For': '203.0.113.9' } });
  t.is(ok.status, 200);
});

test('SEXTANT_METRICS_PORT serves metrics on a separate loopback listener, and only metrics', async (t) => {
  const app = await startTestApp({ SEXTANT_METRICS_PORT: '0' });
  t.teardown(() => app.stop());
  t.regex(app.metricsUrl!, /^http:\/\/127\.0\.0\.1:\d+$/);
  t.not(new URL(app.metricsUrl!).port, new URL(app.url).port);
  const res = await fetch(`${app.metricsUrl}/metrics`);
  t.is(res.status, 200);
  t.regex(await res.text(), /^process_cpu_user_seconds_total /m);
  t.is((await app.fetch('/metrics')).status, 404, 'not on the public listener');
  for (const path of ['/api/health', '/api/auth/me', '/openapi.json', '/metrics/x']) t.is((await fetch(`${app.metricsUrl}${path}`)).status, 404, path);
  t.is((await fetch(`${app.metricsUrl}/metrics`, { method: 'POST' })).status, 404);
});

test('a metrics listener with a token configured requires it there too', async (t) => {
  const app = await startTestApp({ SEXTANT_METRICS_PORT: '0', SEXTANT_METRICS_TOKEN: METRICS_TOKEN });
  t.teardown(() => app.stop());
  t.is((await fetch(`${app.metricsUrl}/metrics`)).status, 401);
  t.is((await fetch(`${app.metricsUrl}/metrics`, { headers: bearer })).status, 200);
  t.is((await app.fetch('/metrics', { headers: bearer })).status, 200);
});

test('SEXTANT_METRICS=false turns the endpoint off, the metrics listener included', async (t) => {
  const app = await startTestApp({ SEXTANT_METRICS: 'false', SEXTANT_METRICS_TOKEN: METRICS_TOKEN, SEXTANT_METRICS_PORT: '0' });
  t.teardown(() => app.stop());
  t.is((await app.fetch('/metrics', { headers: bearer })).status, 404);
  t.is(app.metricsUrl, undefined);
});

test('readiness and metrics are public operations in the OpenAPI document', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const doc = (await (await app.fetch('/openapi.json')).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
  t.deepEqual(doc.paths['/api/ready']?.['get']?.security, []);
  t.deepEqual(doc.paths['/metrics']?.['get']?.security, []);
});

test('metrics time governed warehouse queries by engine and outcome, and the store transactions', async (t) => {
  const root = tempDir();
  placeOrgFile(root, 'morg', 'wh.duckdb', (await duckdbFixture()).path!);
  const app = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_METRICS_TOKEN: METRICS_TOKEN });
  t.teardown(() => app.stop());
  app.org('morg');
  const admin = app.session(app.user({ orgId: 'morg', role: 'admin' }));
  const post = (path: string, body: unknown) => app.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  t.is((await post('/api/connections', { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } })).status, 201);
  t.is((await post('/api/context-agent/execute-query', { connection_id: 'wh', sql: 'SELECT count(*) FROM orders' })).status, 200);
  const text = await (await app.fetch('/metrics', { headers: bearer })).text();
  t.regex(text, /^sextant_warehouse_query_duration_seconds_count\{engine="duckdb",status="ok"\} 1$/m);
  t.regex(text, /^sextant_store_transaction_duration_seconds_count [1-9]\d*$/m);
});
