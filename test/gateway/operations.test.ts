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

test('metrics are served to a direct loopback client with request latencies by route template', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  await app.fetch('/api/share/chat-123456');
  await app.fetch('/api/share/chat-abcdef');
  await app.fetch('/api/health');
  const res = await app.fetch('/metrics');
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

test('metrics refuse a request forwarded by a proxy when no token is configured', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  for (const header of ['X-Forwarded-For', 'Forwarded', 'X-Real-IP']) {
    const res = await app.fetch('/metrics', { headers: { [header]: '203.0.113.9' } });
    t.is(res.status, 403, header);
    t.like(await res.json(), { code: 'METRICS_LOOPBACK_ONLY' });
  }
});

test('with SEXTANT_METRICS_TOKEN, metrics require that bearer token', async (t) => {
  const token = 'metrics-token-0123456789abcdef';
  const app = await startTestApp({ SEXTANT_METRICS_TOKEN: token });
  t.teardown(() => app.stop());
  for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Basic ${token}`]) {
    const res = await app.fetch('/metrics', authorization ? { headers: { authorization } } : {});
    t.is(res.status, 401);
    t.like(await res.json(), { code: 'METRICS_TOKEN_REQUIRED' });
  }
  const ok = await app.fetch('/metrics', { headers: { authorization: `Bearer ${token}`, 'X-Forwarded-For': '203.0.113.9' } });
  t.is(ok.status, 200);
});

test('SEXTANT_METRICS=false turns the endpoint off', async (t) => {
  const app = await startTestApp({ SEXTANT_METRICS: 'false' });
  t.teardown(() => app.stop());
  t.is((await app.fetch('/metrics')).status, 404);
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
  const app = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  t.teardown(() => app.stop());
  app.org('morg');
  const admin = app.session(app.user({ orgId: 'morg', role: 'admin' }));
  const post = (path: string, body: unknown) => app.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  t.is((await post('/api/connections', { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } })).status, 201);
  t.is((await post('/api/context-agent/execute-query', { connection_id: 'wh', sql: 'SELECT count(*) FROM orders' })).status, 200);
  const text = await (await app.fetch('/metrics')).text();
  t.regex(text, /^sextant_warehouse_query_duration_seconds_count\{engine="duckdb",status="ok"\} 1$/m);
  t.regex(text, /^sextant_store_transaction_duration_seconds_count [1-9]\d*$/m);
});
