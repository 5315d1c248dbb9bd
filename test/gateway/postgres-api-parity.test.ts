// The same calls on the demo answer alike whether the gateway serves from SQLite or PostgreSQL: for
// each step of one script (questions asked, chats organised and shared, an evaluation run, an
// environment, limits, tokens), the status and the shape of the body (keys and value types) agree.
import test from 'ava';
import { startPgTestApp, startTestApp, type TestApp } from '../helpers/app.ts';
import { call } from '../helpers/api.ts';
import { SKIP_PG_STORE } from '../helpers/pg-database.ts';
import { collectEvents } from '../helpers/sse.ts';

const DEMO = { SEXTANT_SEED_DEMO: 'true', SEXTANT_DEMO_WAREHOUSE_ORDERS: '500', SEXTANT_BCRYPT_COST: '4' };
type Who = 'admin' | 'modeler' | 'analyst';

/** Keys and value types, arrays by their first element: what must not depend on the dialect. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length > 0 ? [shape(v[0])] : [];
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).sort(([x], [y]) => x.localeCompare(y)).map(([k, x]) => [k, shape(x)]));
  return v === null ? 'null' : typeof v;
}

/** Runs the script on one app; each step's status and body shape by its label. */
async function script(a: TestApp): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const tokens = {} as Record<Who, string>;
  for (const who of ['admin', 'modeler', 'analyst'] as const) {
    tokens[who] = (await call(a, 'POST', '/api/auth/token', { body: { username: `${who}@demo.sextant.local`, password: `demo-${who}-password` } })).body.access_token;
  }
  const step = async (label: string, who: Who, method: string, path: string, body?: unknown) => {
    const r = await call(a, method, path, { token: tokens[who], ...(body === undefined ? {} : { body }) });
    out[label] = [r.status, shape(r.body)];
    return r.body;
  };
  await step('ask', 'analyst', 'POST', '/api/agentic', { chat_id: 'c1', messages: [{ role: 'user', content: 'total revenue by country in 2024' }] });
  const streamed = await a.fetch('/api/agentic/stream', { method: 'POST', headers: { authorization: `Bearer ${tokens.analyst}`, 'content-type': 'application/json' }, body: JSON.stringify({ chat_id: 'c2', message: 'How many orders by status?' }) });
  out['stream'] = (await collectEvents(streamed)).map((e) => e.event);
  const uuids = [...JSON.stringify(await step('load', 'analyst', 'GET', '/api/c2/c1')).matchAll(/"message_uuid":"([^"]+)"/g)].map((m) => m[1]!);
  await step('pin', 'analyst', 'POST', '/api/pinChat', { chat_id: 'c1', pinned: true });
  await step('archive', 'analyst', 'POST', '/api/archive_chat', { chat_id: 'c2', archived: true });
  await step('order', 'analyst', 'POST', '/api/save_message_order', { chat_id: 'c1', message_uuid: uuids[0], direction: 'down', block_mode: true });
  await step('dismiss', 'analyst', 'POST', '/api/dismiss_chat_completion', { chat_id: 'c1' });
  await step('label', 'analyst', 'POST', '/api/add_label_to_chat', { chat_id: 'c1', label: 'fin' });
  const share = await step('share', 'analyst', 'POST', '/api/share_chat', { chat_id: 'c1' });
  await step('share message', 'analyst', 'POST', '/api/share_message', { chat_id: 'c1', message_uuid: uuids.at(-1) });
  await step('shared view', 'admin', 'GET', `/api/share/${share.chat_id}`);
  await step('lineage', 'analyst', 'GET', `/api/c2/c1/lineage/${uuids.at(-1)}`);
  await step('copy to chat', 'analyst', 'POST', '/api/copy_message_to_chat', { chat_id: 'c1', message_uuid: uuids.at(-1), target_chat_id: 'c3' });
  await step('copied', 'analyst', 'GET', '/api/c2/c3');
  await step('feedback', 'analyst', 'POST', '/api/feedback', { chat_id: 'c1', message_uuid: uuids.at(-1), rating: 'negative', comment: 'x' });
  await step('history', 'analyst', 'GET', '/api/chat_history');
  await step('search', 'analyst', 'GET', '/api/search_chats?q=revenue');
  await step('delete message', 'analyst', 'POST', '/api/deleteMessage', { chat_id: 'c1', message_uuid: uuids[0] });
  await step('delete message again', 'analyst', 'POST', '/api/deleteMessage', { chat_id: 'c1', message_uuid: uuids[0] });
  await step('token', 'analyst', 'POST', '/api/auth/user/tokens', { name: 'x', expires_in_days: 3 });
  await step('tokens', 'analyst', 'GET', '/api/auth/user/tokens');
  await step('memory', 'analyst', 'POST', '/api/auth/user_memory', { content: 'mem' });
  await step('profile', 'analyst', 'GET', '/api/auth/user_profile');
  await step('me', 'analyst', 'GET', '/api/auth/me');
  await step('workspaces', 'analyst', 'GET', '/api/auth/list_workspaces');
  await step('suggestions', 'analyst', 'GET', '/api/get_initial_suggestions');
  await step('catalog', 'analyst', 'GET', '/api/cli/catalog');
  const run = await step('evaluation run', 'admin', 'POST', '/api/evaluations/core-questions/runs', { target: { kind: 'production' } });
  await a.app.services.evaluations.settled(run.id);
  await step('evaluation', 'admin', 'GET', `/api/evaluation_runs/${run.id}`);
  await step('evaluation compare', 'admin', 'GET', `/api/evaluation_runs/${run.id}/compare?baseline=${run.id}`);
  await step('evaluation runs', 'admin', 'GET', '/api/evaluations/core-questions/runs');
  await step('evaluation settings', 'admin', 'PUT', '/api/evaluations/settings', { evaluation_gate: 'required' });
  const env = await step('environment', 'admin', 'POST', '/api/environments', { name: 'e1', color: '#1e88e5' });
  await step('targets', 'admin', 'PUT', `/api/environments/${env.id}/targets`, { targets: { demo_warehouse: { schema: 'dev_max' } } });
  await step('conflicts', 'admin', 'GET', `/api/environments/${env.id}/conflicts`);
  await step('evaluation diff', 'admin', 'GET', `/api/environments/${env.id}/evaluation_diff`);
  await step('keep', 'admin', 'POST', `/api/environments/${env.id}/keep`);
  await step('environments', 'admin', 'GET', '/api/environments');
  await step('environment deleted', 'admin', 'DELETE', `/api/environments/${env.id}?confirm=true`);
  await step('knowledge', 'admin', 'GET', '/api/knowledge/notes');
  await step('tables', 'admin', 'GET', '/api/knowledge/tables');
  await step('model history', 'admin', 'GET', '/api/knowledge/model/history');
  await step('connections', 'admin', 'GET', '/api/connections');
  await step('query', 'admin', 'POST', '/api/execute_query', { connection_id: 'demo_warehouse', sql: 'SELECT 1 AS one' });
  await step('limit', 'admin', 'PUT', '/api/admin/credit-limits/organization', { monthly_credits: 0 });
  await step('ask over the limit', 'analyst', 'POST', '/api/agentic', { chat_id: 'c9', messages: [{ role: 'user', content: 'How many orders?' }] });
  await step('limits', 'admin', 'GET', '/api/admin/credit-limits');
  await step('usage', 'admin', 'GET', '/api/admin/usage');
  await step('members', 'admin', 'GET', '/api/admin/members?q=ana&limit=1');
  await step('audit', 'admin', 'GET', '/api/admin/audit?limit=3&action=credit_limit_changed');
  await step('settings', 'admin', 'GET', '/api/admin/organization/settings');
  await more(step, a);
  // The asynchronous fixtures make the same rows on both dialects.
  const made = await a.make.user({ orgId: await a.make.org('made'), role: 'modeler' });
  for (const [label, token] of [['made session', await a.make.session(made)], ['made token', await a.make.token(made)]] as const) {
    const me = await call(a, 'GET', '/api/auth/me', { token });
    out[label] = [me.status, me.body.org_id, me.body.role];
  }
  return out;
}

type Step = (label: string, who: Who, method: string, path: string, body?: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The script's second half: knowledge, environments with a conflict, synchronisation, account administration. */
async function more(step: Step, a: TestApp): Promise<void> {
  await step('skill', 'admin', 'POST', '/api/knowledge/skills', { name: 'dup', description: '', instructions: 'x' });
  await step('skill again', 'admin', 'POST', '/api/knowledge/skills', { name: 'dup', description: '', instructions: 'x' });
  await step('table doc', 'admin', 'POST', '/api/knowledge/tables', { connection: 'demo_warehouse', schema: 'main', name: 'extra', description: 'Extra', columns: [{ name: 'id', type: 'INTEGER' }] });
  await step('table doc read', 'admin', 'GET', `/api/knowledge/tables/${encodeURIComponent('demo_warehouse/main.extra')}`);
  await step('note', 'admin', 'POST', '/api/knowledge/notes?id=contested', { title: 'C', body: 'base', tags: [] });
  const fix = await step('quick fix', 'modeler', 'POST', '/api/environments/quick_fix', { name: 'Fix' });
  await a.fetch('/api/knowledge/notes/contested', { method: 'PUT', headers: { authorization: `Bearer ${await session(a, 'admin')}`, 'content-type': 'application/json', 'x-service-environment': fix.id }, body: JSON.stringify({ title: 'C', body: 'env', tags: [] }) });
  await step('note on production', 'admin', 'PUT', '/api/knowledge/notes/contested', { title: 'C', body: 'prod', tags: [] });
  await step('conflicts found', 'admin', 'GET', `/api/environments/${fix.id}/conflicts`);
  await step('diff', 'admin', 'GET', `/api/environments/${fix.id}/diff?lines=true`);
  await step('merge with a conflict', 'admin', 'POST', `/api/environments/${fix.id}/merge`, { confirm: true });
  await step('pull request', 'admin', 'POST', `/api/environments/${fix.id}/pull_request`, {});
  await step('sync', 'admin', 'POST', '/api/sync/duckdb/demo_warehouse', {});
  await step('org from email', 'analyst', 'GET', '/api/auth/org_from_email?email=someone@demo.sextant.local');
  await step('embedded login', 'analyst', 'POST', '/api/auth/embedded_user_login', {});
  const me = await step('me again', 'modeler', 'GET', '/api/auth/me');
  await step('admin token', 'admin', 'POST', `/api/auth/admin/users/${me.user_id}/tokens`, { name: 'svc' });
  await step('admin tokens', 'admin', 'GET', `/api/auth/admin/users/${me.user_id}/tokens`);
  await step('admin mfa reset', 'admin', 'POST', `/api/auth/admin/users/${me.user_id}/mfa/reset`, {});
  await step('register', 'analyst', 'POST', '/api/auth/register', { email: 'new.person@joiners.test', password: 'a long and varied passphrase 42', name: 'New' });
  await step('page of pairs', 'analyst', 'GET', '/api/c2/c2?pairs=1&offset=0&include_all=true');
  await step('rerun', 'analyst', 'POST', '/api/rerun_query', { chat_id: 'c1' });
}

/** A fresh session of a demo user (for requests `step` does not send). */
async function session(a: TestApp, who: Who): Promise<string> {
  return (await call(a, 'POST', '/api/auth/token', { body: { username: `${who}@demo.sextant.local`, password: `demo-${who}-password` } })).body.access_token;
}

test('the demo script answers with the same statuses and body shapes on SQLite and PostgreSQL', async (t) => {
  t.timeout(300_000);
  const pg = await startPgTestApp(DEMO);
  if (!pg) return t.log(SKIP_PG_STORE), t.pass();
  const lite = await startTestApp(DEMO);
  try {
    const [onSqlite, onPostgres] = [await script(lite), await script(pg)];
    t.is(pg.app.services.store.dialect, 'postgres');
    t.is((onSqlite['ask over the limit'] as [number])[0], 429);
    t.deepEqual(onSqlite['made token'], [200, 'made', 'modeler']);
    for (const label of Object.keys(onSqlite)) t.deepEqual(onPostgres[label], onSqlite[label], label);
  } finally {
    await Promise.all([lite.stop(), pg.stop()]);
  }
});
