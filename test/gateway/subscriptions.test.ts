// /api/subscriptions: who sees and changes what (owner; admins see all and pause), validation (422
// with the HTTPValidationError shape), presets mapped to cron, other organizations (404), recipients
// outside the organization (403 unless an admin allows them), hostile bodies (a webhook to a private
// address, header injection in an address).
import test from 'ava';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { sql } from 'kysely';

let t0: TestApp;
const org = 'subapi';
const other = 'subapiother';
let admin: string, analyst: string, analyst2: string, otherAdmin: string;
let questionId: string;
const member = 'member@subapi.test';

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_SUBSCRIPTION_TICK_MS: '0' }, { tableDocs: docs });
  t0.org(org);
  t0.org(other);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  analyst = t0.session(t0.user({ orgId: org, role: 'user' }));
  analyst2 = t0.session(t0.user({ orgId: org, role: 'user' }));
  t0.user({ orgId: org, role: 'user', email: member });
  otherAdmin = t0.session(t0.user({ orgId: other, role: 'admin' }));
  docs.setTables(org, undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true }]);
  await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  questionId = (await call(t0, 'POST', '/api/saved_questions', { token: analyst, body: { title: 'Orders', connection_id: 'wh', sql: 'SELECT count(*) AS n FROM orders' } })).body.id;
});
test.after.always(() => t0?.stop());

const body = (over: Record<string, unknown> = {}) => ({ saved_question_id: questionId, schedule: { cron: '0 9 * * 1', timezone: 'Europe/Paris' }, channels: [{ type: 'email', to: [member] }], ...over });
const create = (token: string, over: Record<string, unknown> = {}) => call(t0, 'POST', '/api/subscriptions', { token, body: body(over) });

test('the owner creates, reads, lists, edits and deletes a subscription', async (t) => {
  const res = await create(analyst);
  t.is(res.status, 201, JSON.stringify(res.body));
  t.like(res.body, { saved_question_id: questionId, dashboard_id: null, schedule: { cron: '0 9 * * 1', timezone: 'Europe/Paris' }, status: 'active', alert: null, unsubscribed: [] });
  t.is(res.body.next_run_at, '2026-01-19T08:00:00.000Z');
  const id = res.body.id as string;
  t.is((await call(t0, 'GET', `/api/subscriptions/${id}`, { token: analyst })).status, 200);
  t.true((await call(t0, 'GET', '/api/subscriptions', { token: analyst })).body.subscriptions.some((s: { id: string }) => s.id === id));
  const edited = await call(t0, 'PATCH', `/api/subscriptions/${id}`, { token: analyst, body: { schedule: { every: 'day', at: '07:30', timezone: 'America/New_York' } } });
  t.is(edited.status, 200, JSON.stringify(edited.body));
  t.like(edited.body, { schedule: { cron: '30 7 * * *', timezone: 'America/New_York' }, next_run_at: '2026-01-15T12:30:00.000Z' });
  t.deepEqual((await call(t0, 'GET', `/api/subscriptions/${id}/runs`, { token: analyst })).body, { runs: [] });
  t.is((await call(t0, 'DELETE', `/api/subscriptions/${id}`, { token: analyst })).status, 200);
  t.is((await call(t0, 'GET', `/api/subscriptions/${id}`, { token: analyst })).status, 404);
});

test('presets become cron: weekly and monthly at a time', async (t) => {
  const weekly = await create(analyst, { schedule: { every: 'week', day: 1, at: '09:15', timezone: 'UTC' } });
  t.is(weekly.body.schedule.cron, '15 9 * * 1');
  const monthly = await create(analyst, { schedule: { every: 'month', day: 1, at: '06:00', timezone: 'Asia/Tokyo' } });
  t.like(monthly.body, { schedule: { cron: '0 6 1 * *' }, next_run_at: '2026-01-31T21:00:00.000Z' });
});

test('bad bodies answer 422 with the validation shape', async (t) => {
  const bad: Record<string, unknown>[] = [
    { schedule: { cron: '0 9 * * *' } },
    { schedule: { cron: 'every day', timezone: 'UTC' } },
    { schedule: { cron: '*/5 * * * * *', timezone: 'UTC' } },
    { schedule: { cron: '0 9 * * *', timezone: 'Mars/Olympus' } },
    { schedule: { every: 'week', at: '09:00', timezone: 'UTC' } },
    { channels: [] },
    { channels: [{ type: 'pigeon' }] },
    { channels: [{ type: 'email', to: ['member@subapi.test\r\nBcc: spy@evil.test'] }] },
    { channels: [{ type: 'email', to: ['"Spy" <spy@evil.test>'] }] },
    { channels: [{ type: 'webhook', url: 'ftp://example.com/x', format: 'json' }] },
    { channels: [{ type: 'webhook', url: 'https://example.com/x', format: 'xml' }] },
    { dashboard_id: 'dash_1' },
    { saved_question_id: undefined },
  ];
  for (const over of bad) {
    const res = await create(analyst, over);
    t.is(res.status, 422, JSON.stringify(over));
    t.true(Array.isArray(res.body.detail) && res.body.detail.every((d: { loc: unknown[]; msg: string; type: string }) => Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string'), JSON.stringify(res.body));
  }
});

test('a schedule giving both cron and a preset is 422 on the schedule, on create and on edit, rather than dropping the preset', async (t) => {
  const both = [
    { cron: '0 9 * * *', every: 'week', day: 1, at: '08:00', timezone: 'UTC' },
    { cron: '0 9 * * *', every: 'day', at: '08:00', timezone: 'UTC' },
    { cron: '0 9 * * *', at: '08:00', timezone: 'UTC' },
    { cron: '0 9 * * *', day: 3, timezone: 'UTC' },
  ];
  const id = (await create(analyst)).body.id as string;
  for (const schedule of both) {
    for (const res of [await create(analyst, { schedule }), await call(t0, 'PATCH', `/api/subscriptions/${id}`, { token: analyst, body: { schedule } })]) {
      t.is(res.status, 422, JSON.stringify(schedule));
      t.true(res.body.detail.every((d: { loc: unknown; msg: unknown; type: unknown }) => Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string'), JSON.stringify(res.body));
      t.deepEqual(res.body.detail[0].loc.slice(0, 2), ['body', 'schedule'], JSON.stringify(res.body.detail));
    }
  }
  t.is((await call(t0, 'GET', `/api/subscriptions/${id}`, { token: analyst })).body.schedule.cron, '0 9 * * 1', 'the refused edit changed nothing');
});

test('a webhook to an address the outbound rules refuse is 422 on its field', async (t) => {
  for (const url of ['http://10.0.0.8/hook', 'http://169.254.169.254/latest/meta-data', 'http://[fd00::1]/x', 'http://0.0.0.0/x']) {
    const res = await create(analyst, { channels: [{ type: 'webhook', url, format: 'json' }] });
    t.is(res.status, 422, url);
    t.deepEqual(res.body.detail[0].loc, ['body', 'channels', 0, 'url']);
  }
});

test('an alert watches a saved question; a dashboard subscription with no dashboard is 404', async (t) => {
  t.is((await create(analyst, { alert: { column: 'n', op: '<', threshold: 1000 } })).status, 201);
  t.is((await create(analyst, { alert: { column: 'n', op: '~', threshold: 1 } })).status, 422);
  const dash = await create(analyst, { saved_question_id: undefined, dashboard_id: 'dash_missing' });
  t.is(dash.status, 404);
});

test('recipients outside the organization need an admin\'s setting', async (t) => {
  const outside = { channels: [{ type: 'email', to: [member, 'someone@elsewhere.test'] }] };
  const refused = await create(analyst, outside);
  t.is(refused.status, 403);
  t.is(refused.body.code, 'EXTERNAL_RECIPIENT_REFUSED');
  const setting = await call(t0, 'PATCH', '/api/admin/organization/settings', { token: admin, body: { subscription_external_recipients: true } });
  t.is(setting.status, 200);
  t.true(setting.body.subscription_external_recipients);
  try {
    t.is((await create(analyst, outside)).status, 201);
  } finally {
    await call(t0, 'PATCH', '/api/admin/organization/settings', { token: admin, body: { subscription_external_recipients: false } });
  }
});

test('a question the caller cannot read, or another organization\'s, is 404', async (t) => {
  t.is((await create(analyst2)).status, 404, 'another user\'s private question');
  t.is((await create(otherAdmin)).status, 404, 'another organization');
});

test('others see nothing; admins see all, may pause and resume but not rewrite; other organizations get 404', async (t) => {
  const id = (await create(analyst)).body.id as string;
  for (const token of [analyst2, otherAdmin]) {
    t.is((await call(t0, 'GET', `/api/subscriptions/${id}`, { token })).status, 404);
    t.is((await call(t0, 'PATCH', `/api/subscriptions/${id}`, { token, body: { status: 'paused' } })).status, 404);
    t.is((await call(t0, 'DELETE', `/api/subscriptions/${id}`, { token })).status, 404);
    t.is((await call(t0, 'POST', `/api/subscriptions/${id}/send_now`, { token })).status, 404);
    t.is((await call(t0, 'GET', `/api/subscriptions/${id}/runs`, { token })).status, 404);
    t.false((await call(t0, 'GET', '/api/subscriptions?all=true', { token })).body.subscriptions.some((s: { id: string }) => s.id === id));
  }
  t.false((await call(t0, 'GET', '/api/subscriptions', { token: admin })).body.subscriptions.some((s: { id: string }) => s.id === id), 'an admin\'s own list');
  t.true((await call(t0, 'GET', '/api/subscriptions?all=true', { token: admin })).body.subscriptions.some((s: { id: string }) => s.id === id));
  const paused = await call(t0, 'PATCH', `/api/subscriptions/${id}`, { token: admin, body: { status: 'paused' } });
  t.like(paused.body, { status: 'paused', next_run_at: null });
  t.is((await call(t0, 'PATCH', `/api/subscriptions/${id}`, { token: admin, body: { channels: [{ type: 'email', to: [member] }] } })).status, 403);
  t.is((await call(t0, 'DELETE', `/api/subscriptions/${id}`, { token: admin })).status, 403);
  t.is((await call(t0, 'GET', `/api/subscriptions/${id}/runs`, { token: admin })).status, 200);
  const resumed = await call(t0, 'PATCH', `/api/subscriptions/${id}`, { token: analyst, body: { status: 'active' } });
  t.is(resumed.body.status, 'active');
  t.is((await call(t0, 'GET', `/api/subscriptions/missing`, { token: analyst })).status, 404);
});

test('bad queries and edits answer 422 with the validation shape, naming the field', async (t) => {
  const id = (await create(analyst)).body.id as string;
  const cases: [string, string, unknown, (string | number)[]][] = [
    ['PATCH', `/api/subscriptions/${id}`, { schedule: { cron: 'often', timezone: 'UTC' } }, ['body', 'schedule']],
    ['PATCH', `/api/subscriptions/${id}`, { status: 'stopped' }, ['body', 'status']],
    ['PATCH', `/api/subscriptions/${id}`, { channels: [{ type: 'email', to: ['not an address'] }] }, ['body', 'channels', 0]],
    ['PATCH', `/api/subscriptions/${id}`, { alert: { column: 'n', op: '~', threshold: 1 } }, ['body', 'alert', 'op']],
    ['GET', `/api/subscriptions/${id}/runs?limit=0`, undefined, ['query', 'limit']],
    ['GET', '/api/subscriptions?all=maybe', undefined, ['query', 'all']],
  ];
  for (const [method, path, sent, loc] of cases) {
    const res = await call(t0, method, path, { token: analyst, ...(sent === undefined ? {} : { body: sent }) });
    t.is(res.status, 422, `${method} ${path} ${JSON.stringify(sent)}`);
    t.true(Array.isArray(res.body.detail) && typeof res.body.detail[0].msg === 'string' && typeof res.body.detail[0].type === 'string', JSON.stringify(res.body));
    t.deepEqual(res.body.detail[0].loc.slice(0, loc.length), loc, JSON.stringify(res.body.detail));
  }
  // Validation comes after the credential and never reveals another organization's subscription.
  t.is((await call(t0, 'PATCH', `/api/subscriptions/${id}`, { body: { status: 'stopped' } })).status, 401);
  t.is((await call(t0, 'PATCH', `/api/subscriptions/${id}`, { token: otherAdmin, body: { status: 'paused' } })).status, 404);
});

test('the routes are documented in the OpenAPI document', async (t) => {
  const doc = (await call(t0, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
  t.deepEqual(Object.keys(doc.paths['/api/subscriptions'] ?? {}).sort(), ['get', 'post']);
  t.deepEqual(Object.keys(doc.paths['/api/subscriptions/{id}'] ?? {}).sort(), ['delete', 'get', 'patch']);
  t.truthy(doc.paths['/api/subscriptions/{id}/send_now']?.['post']);
  t.truthy(doc.paths['/api/subscriptions/{id}/runs']?.['get']);
  t.truthy(doc.paths['/api/subscriptions/unsubscribe']?.['post']);
  for (const [path, methods] of Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/subscriptions/{id}'))) {
    for (const [method, op] of Object.entries(methods)) t.truthy(op.responses?.['404'], `${method} ${path} documents its 404`);
  }
});

test('every route wants a credential but the unsubscribe link', async (t) => {
  for (const [method, path] of [['GET', '/api/subscriptions'], ['POST', '/api/subscriptions'], ['GET', '/api/subscriptions/x'], ['PATCH', '/api/subscriptions/x'], ['DELETE', '/api/subscriptions/x'], ['POST', '/api/subscriptions/x/send_now'], ['GET', '/api/subscriptions/x/runs']] as const) {
    t.is((await call(t0, method, path, method === 'POST' || method === 'PATCH' ? { body: body() } : {})).status, 401, `${method} ${path}`);
  }
  const res = await call(t0, 'POST', '/api/subscriptions/unsubscribe', { body: { token: 'sub_x.bWVAeC50ZXN0.forged' } });
  t.is(res.status, 400);
  t.is(res.body.code, 'INVALID_UNSUBSCRIBE_LINK');
  t.is((await call(t0, 'POST', '/api/subscriptions/unsubscribe', { body: {} })).status, 400);
});

test('a webhook URL (its secret) is sealed at rest and shown whole to the owner only', async (t) => {
  const url = 'https://hooks.slack.com/services/T000/B000/very-secret-token';
  const res = await create(analyst, { channels: [{ type: 'webhook', url, format: 'slack' }] });
  t.is(res.status, 201, JSON.stringify(res.body));
  t.is(res.body.channels[0].url, url);
  const row = await t0.app.services.executor.one(sql<{ channels: string }>`SELECT channels FROM subscriptions WHERE id = ${res.body.id}`);
  t.false(row!.channels.includes('very-secret-token'));
  const asAdmin = await call(t0, 'GET', `/api/subscriptions/${res.body.id as string}`, { token: admin });
  t.is(asAdmin.body.channels[0].url, 'https://hooks.slack.com/…');
});
