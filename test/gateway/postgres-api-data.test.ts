// Data, knowledge, evaluations and chats served from PostgreSQL, on the demo organization (the demo
// DuckDB warehouse and the offline model): every group once on its success path and its main refusal.
import { call } from '../helpers/api.ts';
import { pgApp, pgTest as test, sharedPgApp } from '../helpers/pg-app.ts';
import type { TestApp } from '../helpers/app.ts';
import { collectEvents } from '../helpers/sse.ts';
import { connectV1 } from '../helpers/oauth-browser.ts';
import { SLOW_TEST_MS } from '../helpers/patience.ts';

sharedPgApp({ SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '500', SEXTANT_METRICS: 'true', SEXTANT_METRICS_PORT: '0' });

const signIn = async (a: TestApp, who: 'admin' | 'modeler' | 'analyst') => {
  const res = await call(a, 'POST', '/api/auth/token', { body: { username: `${who}@demo.sextant.local`, password: `demo-${who}-password` } });
  if (res.status !== 200) throw new Error(`sign-in of ${who}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
};

test('health, readiness and metrics on the demo served from PostgreSQL', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  t.is((await call(a, 'GET', '/api/health')).status, 200);
  t.is((await call(a, 'GET', '/api/ready')).status, 200);
  // Metrics on their own loopback listener; the public one does not serve them without a token.
  t.is((await a.fetch('/metrics')).status, 404);
  const metrics = await fetch(`${a.metricsUrl}/metrics`);
  t.is(metrics.status, 200);
  t.regex(await metrics.text(), /http_request/);
});

test('connections: list, read, test, catalog; a user cannot change one', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const admin = await signIn(a, 'admin');
  const analyst = await signIn(a, 'analyst');
  const list = await call(a, 'GET', '/api/connections', { token: admin });
  t.is(list.status, 200, JSON.stringify(list.body));
  t.true(JSON.stringify(list.body).includes('demo_warehouse'));
  t.is((await call(a, 'GET', '/api/connections/demo_warehouse', { token: admin })).status, 200);
  const tested = await call(a, 'POST', '/api/connections/demo_warehouse/test', { token: admin });
  t.is(tested.status, 200, JSON.stringify(tested.body));
  t.is((await call(a, 'PATCH', '/api/connections/demo_warehouse', { token: analyst, body: { name: 'mine' } })).status, 403);
  const catalog = await call(a, 'GET', '/api/cli/catalog', { token: analyst });
  t.is(catalog.status, 200, JSON.stringify(catalog.body));
  t.is((await call(a, 'GET', '/api/connections/nope', { token: admin })).status, 404);
});

test('governed query: an admin runs SELECT on the warehouse; a write is refused', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const admin = await signIn(a, 'admin');
  const res = await call(a, 'POST', '/api/context-agent/execute-query', { token: admin, body: { connection_id: 'demo_warehouse', sql: 'SELECT count(*) AS n FROM orders' } });
  t.is(res.status, 200, JSON.stringify(res.body));
  t.is(res.body.row_count, 1);
  const write = await call(a, 'POST', '/api/context-agent/execute-query', { token: admin, body: { connection_id: 'demo_warehouse', sql: 'DELETE FROM orders' } });
  t.true(write.status >= 400, JSON.stringify(write.body));
});

test('knowledge notes: create, read, update, history, search, delete; an analyst cannot write', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const admin = await signIn(a, 'admin');
  const analyst = await signIn(a, 'analyst');
  const note = (body: string) => ({ title: 'Fiscal year rules', body, tags: ['t'] });
  const created = await call(a, 'POST', '/api/knowledge/notes?id=pg-fiscal', { token: admin, body: note('v1') });
  t.is(created.status, 201, JSON.stringify(created.body));
  t.is((await call(a, 'PUT', '/api/knowledge/notes/pg-fiscal', { token: admin, body: note('v2') })).status, 200);
  t.is((await call(a, 'GET', '/api/knowledge/notes/pg-fiscal', { token: analyst })).body.data.body, 'v2');
  t.is((await call(a, 'GET', '/api/knowledge/notes/pg-fiscal/history', { token: admin })).body.commits.length, 2);
  t.true(JSON.stringify((await call(a, 'GET', '/api/knowledge/notes', { token: analyst })).body).includes('pg-fiscal'));
  t.is((await call(a, 'POST', '/api/knowledge/notes?id=pg-x', { token: analyst, body: note('x') })).status, 403);
  t.is((await call(a, 'DELETE', '/api/knowledge/notes/pg-fiscal', { token: admin })).status, 200);
  t.is((await call(a, 'GET', '/api/knowledge/notes/pg-fiscal', { token: admin })).status, 404);
});

test('environments: create, write in it, diff, merge; a user cannot create one', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const admin = await signIn(a, 'admin');
  const analyst = await signIn(a, 'analyst');
  t.is((await call(a, 'POST', '/api/environments', { token: analyst, body: { name: 'x', color: '#fff' } })).status, 403);
  const env = await call(a, 'POST', '/api/environments', { token: admin, body: { name: 'pg-env', color: '#1e88e5' } });
  t.is(env.status, 201, JSON.stringify(env.body));
  const id = env.body.id as string;
  t.is((await call(a, 'POST', '/api/knowledge/notes?id=pg-env-note', { token: admin, env: id, body: { title: 'In env', body: 'x', tags: [] } })).status, 201);
  t.deepEqual((await call(a, 'GET', `/api/environments/${id}/diff`, { token: admin })).body.files, [{ path: 'notes/pg-env-note.yaml', status: 'added' }]);
  t.true(JSON.stringify((await call(a, 'GET', '/api/environments', { token: admin })).body).includes(id));
  const merged = await call(a, 'POST', `/api/environments/${id}/merge`, { token: admin, body: { confirm: true } });
  t.is(merged.status, 200, JSON.stringify(merged.body));
  t.is((await call(a, 'GET', '/api/knowledge/notes/pg-env-note', { token: admin })).status, 200);
});

test('evaluations: a run on production with the offline model finishes, and compares with itself', async (t) => {
  t.timeout(SLOW_TEST_MS);
  const a = pgApp(t);
  if (!a) return t.pass();
  const admin = await signIn(a, 'admin');
  const list = await call(a, 'GET', '/api/evaluations', { token: admin });
  t.is(list.status, 200, JSON.stringify(list.body));
  const started = await call(a, 'POST', '/api/evaluations/core-questions/runs', { token: admin, body: { target: { kind: 'production' } } });
  t.is(started.status, 202, JSON.stringify(started.body));
  const runId = started.body.id as string;
  await a.app.services.evaluations.settled(runId);
  const run = (await call(a, 'GET', `/api/evaluation_runs/${runId}`, { token: admin })).body;
  t.is(run.verdict, 'pass', JSON.stringify(run).slice(0, 2000));
  const compared = await call(a, 'GET', `/api/evaluation_runs/${runId}/compare?baseline=${runId}`, { token: admin });
  t.is(compared.status, 200, JSON.stringify(compared.body));
  t.is((await call(a, 'GET', '/api/evaluation_runs/evr_nope', { token: admin })).status, 404);
  t.true(JSON.stringify((await call(a, 'GET', '/api/evaluations/core-questions/runs?limit=2', { token: admin })).body).includes(runId));
});

test('chats: ask (sync and streamed), history, search, label, pin, feedback, share, stop', async (t) => {
  t.timeout(SLOW_TEST_MS);
  const a = pgApp(t);
  if (!a) return t.pass();
  const analyst = await signIn(a, 'analyst');
  const sync = await call(a, 'POST', '/api/agentic', { token: analyst, body: { chat_id: 'pg-sync', messages: [{ role: 'user', content: 'Which countries have orders?' }] } });
  t.is(sync.status, 200, JSON.stringify(sync.body).slice(0, 500));
  const streamed = await a.fetch('/api/agentic/stream', { method: 'POST', headers: { authorization: `Bearer ${analyst}`, 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: 'pg-stream', message: 'total revenue by country in 2024' }) });
  t.is(streamed.status, 200);
  const events = await collectEvents(streamed);
  t.is(events.at(-1)?.event, 'completed', events.map((e) => e.event).join(','));
  const history = await call(a, 'GET', '/api/chat_history?limit=1', { token: analyst });
  t.is(history.status, 200, JSON.stringify(history.body));
  t.truthy(history.body.next_cursor, JSON.stringify(history.body));
  const next = await call(a, 'GET', `/api/chat_history?limit=1&cursor=${encodeURIComponent(history.body.next_cursor as string)}`, { token: analyst });
  t.is(next.status, 200, JSON.stringify(next.body));
  const search = await call(a, 'GET', '/api/search_chats?q=revenue', { token: analyst });
  t.is(search.status, 200, JSON.stringify(search.body));
  t.true(JSON.stringify(search.body).includes('pg-stream'), JSON.stringify(search.body));
  t.is((await call(a, 'POST', '/api/add_label_to_chat', { token: analyst, body: { chat_id: 'pg-sync', label: 'finance' } })).status, 200);
  t.is((await call(a, 'POST', '/api/pinChat', { token: analyst, body: { chat_id: 'pg-sync', pinned: true } })).status, 200);
  const loaded = await call(a, 'GET', '/api/c2/pg-stream', { token: analyst });
  t.is(loaded.status, 200, JSON.stringify(loaded.body).slice(0, 500));
  const uuids = JSON.stringify(loaded.body).match(/"(?:message_uuid|uuid|id)":"([^"]+)"/g) ?? [];
  t.true(uuids.length > 0);
  const admin = await signIn(a, 'admin');
  t.is((await call(a, 'POST', '/api/feedback', { token: analyst, body: { chat_id: 'pg-stream', message_uuid: 'nope', rating: 'negative' } })).status, 404);
  const shared = await call(a, 'POST', '/api/share_chat', { token: analyst, body: { chat_id: 'pg-stream' } });
  t.true(shared.status === 200 || shared.status === 201, JSON.stringify(shared.body));
  t.not(shared.body.chat_id, 'pg-stream');
  t.is((await call(a, 'GET', `/api/share/${shared.body.chat_id}`, { token: admin })).status, 200);
  t.is((await call(a, 'GET', '/api/share/pg-stream', { token: admin })).status, 404);
  const stop = await call(a, 'POST', '/api/agentic/stop', { token: analyst, body: { chat_id: 'pg-nope' } });
  t.is(stop.status, 404, JSON.stringify(stop.body));
});

test('MCP: an MCP token initializes and calls a tool; without a token, 401', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const admin = await signIn(a, 'admin');
  const mcp = await call(a, 'POST', '/api/auth/user/tokens/mcp', { token: admin });
  const key = mcp.body.token as string;
  const rpc = (body: unknown, k?: string) => a.fetch('/ai/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(k ? { 'X-API-KEY': k } : {}) }, body: JSON.stringify(body) });
  t.is((await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).status, 401);
  const init = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '0' } } }, key);
  t.is(init.status, 200);
  await init.text();
  const called = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'catalog', arguments: {} } }, key);
  const text = await called.text();
  t.is(called.status, 200, text);
  t.false(text.includes('"isError":true'), text.slice(0, 1000));
});

test('uploads, downloads of an answer (CSV and Excel), feedback on it and the history export', async (t) => {
  t.timeout(SLOW_TEST_MS);
  const a = pgApp(t);
  if (!a) return t.pass();
  const analyst = await signIn(a, 'analyst');
  const fd = new FormData();
  fd.append('chat_id', 'pg-files');
  fd.append('file', new Blob(['a,b\n1,2\n']), 'sales.csv');
  const up = await a.fetch('/api/upload_to_chat', { method: 'POST', body: fd, headers: { authorization: `Bearer ${analyst}` } });
  t.is(up.status, 200, await up.clone().text());
  t.like(await up.json(), { original_name: 'sales.csv', size: 8 });
  t.is((await a.fetch('/api/upload_to_chat', { method: 'POST', body: new FormData() })).status, 401);
  const asked = await call(a, 'POST', '/api/agentic', { token: analyst, body: { chat_id: 'pg-dl', messages: [{ role: 'user', content: 'total revenue by country in 2024' }] } });
  t.is(asked.status, 200);
  const loaded = JSON.stringify((await call(a, 'GET', '/api/c2/pg-dl', { token: analyst })).body);
  const dfKey = /"df_key":"([^"]+)"/.exec(loaded)?.[1];
  t.truthy(dfKey, loaded.slice(0, 3000));
  const csv = await a.fetch(`/api/download_big_csv_agentic?chat_id=pg-dl&df_key=${dfKey}`, { headers: { authorization: `Bearer ${analyst}` } });
  t.is(csv.status, 200, await csv.clone().text());
  t.true((await csv.text()).split('\n').length > 2);
  const xlsx = await a.fetch(`/api/download_excel_agentic?chat_id=pg-dl&df_key=${dfKey}`, { headers: { authorization: `Bearer ${analyst}` } });
  t.is(xlsx.status, 200);
  t.is((await a.fetch(`/api/download_big_csv_agentic?chat_id=pg-dl&df_key=${dfKey}&token=not-a-token`)).status, 401);
  const answerUuid = [...loaded.matchAll(/"message_uuid":"([^"]+)"/g)].map((m) => m[1]!).at(-1);
  t.truthy(answerUuid, loaded.slice(0, 3000));
  const feedback = await call(a, 'POST', '/api/feedback', { token: analyst, body: { chat_id: 'pg-dl', message_uuid: answerUuid, rating: 'positive', comment: 'great' } });
  t.is(feedback.status, 200, JSON.stringify(feedback.body));
  const me = (await call(a, 'GET', '/api/auth/me', { token: analyst })).body;
  const apiToken = (await call(a, 'POST', '/api/auth/user/tokens', { token: analyst, body: { name: 'export' } })).body.token as string;
  const exported = await a.fetch(`/api/export_history?api_token=${apiToken}&user_id=${me.user_id as string}`);
  t.is(exported.status, 200, await exported.clone().text());
  t.true((await exported.text()).includes('pg-dl'));
});

test('row security: groups and user attributes; an analyst is refused', async (t) => {
  const a = pgApp(t);
  if (!a) return t.pass();
  const admin = await signIn(a, 'admin');
  const analyst = await signIn(a, 'analyst');
  const analystId = (await call(a, 'GET', '/api/auth/me', { token: analyst })).body.user_id as string;
  const put = await call(a, 'PUT', '/api/row-security/groups/pg_emea', { token: admin, body: { name: 'EMEA', members: [analystId], attributes: { region: 'EMEA' } } });
  t.true(put.status === 200 || put.status === 201, JSON.stringify(put.body));
  t.true(JSON.stringify((await call(a, 'GET', '/api/row-security/groups', { token: admin })).body).includes('pg_emea'));
  const attrs = await call(a, 'PUT', `/api/row-security/users/${analystId}/attributes`, { token: admin, body: { attributes: { country: 'France' } } });
  t.true(attrs.status === 200 || attrs.status === 204, JSON.stringify(attrs.body));
  t.true(JSON.stringify((await call(a, 'GET', `/api/row-security/users/${analystId}/attributes`, { token: admin })).body).includes('France'));
  t.is((await call(a, 'GET', '/api/row-security/groups', { token: analyst })).status, 403);
  const removed = await call(a, 'DELETE', '/api/row-security/groups/pg_emea', { token: admin });
  t.true(removed.status === 200 || removed.status === 204, JSON.stringify(removed.body));
  t.false(JSON.stringify((await call(a, 'GET', '/api/row-security/groups', { token: admin })).body).includes('pg_emea'));
});

test('MCP over OAuth: an SDK client registers, signs in, consents and calls a tool', async (t) => {
  t.timeout(SLOW_TEST_MS);
  const a = pgApp(t);
  if (!a) return t.pass();
  const { client } = await connectV1(a, await signIn(a, 'analyst'));
  t.true((await client.listTools()).tools.some((tool) => tool.name === 'catalog'));
  const catalog = await client.callTool({ name: 'catalog', arguments: {} });
  t.false(Boolean(catalog.isError), JSON.stringify(catalog).slice(0, 1000));
  t.true(JSON.stringify(catalog.structuredContent).includes('demo_warehouse'));
  await client.close();
});
