import test from 'ava';
import type { LineageFn } from '../../src/chats/index.ts';
import { noLineage } from '../helpers/lineage.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { client, locs, principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const DAY = 86_400_000;

function org() {
  const id = t0.org();
  const analyst = t0.user({ orgId: id });
  const admin = t0.user({ orgId: id, role: 'admin' });
  return { id, analyst, admin, pa: principalOf(t0, analyst, id), pad: principalOf(t0, admin, id) };
}

async function rows(res: Response): Promise<Record<string, unknown>[]> {
  const text = await res.text();
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('export_history streams the caller\'s messages as JSON lines with message_id = message_uuid', async (t) => {
  const o = org();
  const ids = await seedChat(t0, o.pa, 'e1', [{ question: 'q', answer: 'a', answerData: { sql: 'SELECT 1', connection_id: 'demo_warehouse', dialect: 'duckdb' } }]);
  await seedChat(t0, o.pad, 'e2', [{ question: 'admin q', answer: 'admin a' }]);
  const token = t0.token(o.analyst);
  const res = await t0.fetch(`/api/export_history?api_token=${token}&user_id=${o.analyst.id}`);
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /ndjson/);
  const got = await rows(res);
  t.deepEqual(got.map((r) => r['message_id']), ids);
  t.is(got[1]!['sql'], 'SELECT 1');
  t.is(got[1]!['connection_id'], 'demo_warehouse');
  // Someone else's user_id with the token is refused.
  t.is((await t0.fetch(`/api/export_history?api_token=${token}&user_id=${o.admin.id}`)).status, 401);
});

test('admins export the organization, filtered by user and dates; others only their own', async (t) => {
  const o = org();
  await seedChat(t0, o.pa, 'x1', [{ question: 'old', answer: 'old a' }]);
  t0.clock.advance(3 * DAY);
  await seedChat(t0, o.pad, 'x2', [{ question: 'new', answer: 'new a' }]);
  const admin = client(t0, t0.session(o.admin));
  t.is((await rows(await admin.get('/api/export_history'))).length, 4);
  const one = await rows(await admin.get(`/api/export_history?filter_user_id=${o.analyst.id}`));
  t.deepEqual(one.map((r) => r['content']), ['old', 'old a']);
  const today = new Date(t0.clock.now()).toISOString().slice(0, 10);
  const recent = await rows(await admin.get(`/api/export_history?start_date=${today}&end_date=${today}`));
  t.deepEqual(recent.map((r) => r['content']), ['new', 'new a']);
  const analyst = client(t0, t0.session(o.analyst));
  const own = await rows(await analyst.get(`/api/export_history?filter_user_id=${o.analyst.id}`));
  t.deepEqual(own.map((r) => r['content']), ['old', 'old a']);
  // Another organization's admin sees none of it.
  const stranger = client(t0, t0.session(t0.user({ orgId: t0.org(), role: 'admin' })));
  t.deepEqual(await rows(await stranger.get('/api/export_history')), []);
});

test("a non-admin naming someone else's history in filter_user_id is refused with 403, by session and by query token", async (t) => {
  const o = org();
  await seedChat(t0, o.pa, 'mine', [{ question: 'mine', answer: 'mine a' }]);
  await seedChat(t0, o.pad, 'theirs', [{ question: 'admin secret', answer: 'a' }]);
  const modeler = t0.user({ orgId: o.id, role: 'modeler' });
  const stranger = t0.user({ orgId: t0.org() });
  for (const who of [o.analyst, modeler]) {
    const api = client(t0, t0.session(who));
    for (const target of [o.admin.id, stranger.id, 'no-such-user']) {
      const res = await api.get(`/api/export_history?filter_user_id=${encodeURIComponent(target)}&format=csv`);
      t.is(res.status, 403, target);
      const body = (await res.json()) as { code: string };
      t.is(body.code, 'EXPORT_OF_OTHERS_FORBIDDEN');
    }
  }
  const token = t0.token(o.analyst);
  const byToken = await t0.fetch(`/api/export_history?api_token=${token}&user_id=${o.analyst.id}&filter_user_id=${o.admin.id}`);
  t.is(byToken.status, 403);
  t.false((await byToken.text()).includes('admin secret'));
  // Naming oneself is no refusal.
  t.is((await client(t0, t0.session(o.analyst)).get(`/api/export_history?filter_user_id=${o.analyst.id}`)).status, 200);
});

test('export_history writes CSV with a header and defused formulas', async (t) => {
  const o = org();
  await seedChat(t0, o.pa, 'csv', [{ question: '=HYPERLINK("x")', answer: 'a, "quoted"\nline' }]);
  const res = await client(t0, t0.session(o.analyst)).get('/api/export_history?format=csv');
  t.regex(res.headers.get('content-type') ?? '', /text\/csv/);
  const text = await res.text();
  t.true(text.startsWith('message_id,chat_id,'));
  t.true(text.includes(`"'=HYPERLINK(""x"")"`));
  t.true(text.includes('"a, ""quoted""\nline"'));
});

test('export_history validates its parameters', async (t) => {
  const o = org();
  const api = client(t0, t0.session(o.admin));
  t.deepEqual(await locs(await api.get('/api/export_history?format=xml')), [['query', 'format']]);
  t.deepEqual(await locs(await api.get('/api/export_history?start_date=yesterday')), [['query', 'start_date']]);
  t.is((await t0.fetch('/api/export_history')).status, 401);
});

test('api_token in the query is refused on other chat endpoints', async (t) => {
  const o = org();
  const token = t0.token(o.analyst);
  t.is((await t0.fetch(`/api/chat_history?api_token=${token}&user_id=${o.analyst.id}`)).status, 401);
});

test.serial('initial suggestions come from recent answered questions, reports and documented tables, each one the model answers', async (t) => {
  const o = org();
  const data = { sql: 'SELECT 1', connection_id: 'demo_warehouse', dialect: 'duckdb' };
  await seedChat(t0, o.pa, 's1', [{ question: 'Revenue by month?', answer: 'a', answerData: data }]);
  await seedChat(t0, o.pa, 's2', [{ question: 'Top customers in Germany', answer: 'a', answerData: data }]);
  // Refused or failed inputs (an answer that ran no query) are never offered again.
  await seedChat(t0, o.pa, 's3', [{ question: 'catalg', answer: "I can't answer that." }]);
  const sources = t0.app.services.chatSources;
  const saved = sources.suggestions;
  const checked: string[] = [];
  sources.suggestions = {
    tables: async () => [{ name: 'orders', description: 'One row per customer order.' }, { name: 'customers' }],
    reports: async () => [{ title: 'Weekly sales' }],
    // The model's check: it refuses "customers" questions here.
    answers: async (_p, _e, question) => {
      checked.push(question);
      return !question.includes('customers are there');
    },
  };
  try {
    const api = client(t0, t0.session(o.analyst));
    const res = await api.json<{ suggestions: { text: string; kind: string }[] }>(api.get('/api/get_initial_suggestions'));
    t.deepEqual(res.suggestions.slice(0, 2), [
      { text: 'Top customers in Germany', kind: 'recent' },
      { text: 'Revenue by month?', kind: 'recent' },
    ]);
    t.false(res.suggestions.some((s) => s.text === 'catalg'));
    t.true(res.suggestions.some((s) => s.kind === 'report' && s.text.includes('Weekly sales')));
    t.true(res.suggestions.some((s) => s.kind === 'table' && s.text.includes('orders')));
    t.false(res.suggestions.some((s) => s.text.includes('customers are there')), 'a question the model refuses is not offered');
    t.true(checked.includes('How many customers are there?'));
    t.true(res.suggestions.length <= 6);
    // Another user of the organization does not get these questions.
    const peer = client(t0, t0.session(o.admin));
    const theirs = await peer.json<{ suggestions: { kind: string }[] }>(peer.get('/api/get_initial_suggestions'));
    t.false(theirs.suggestions.some((s) => s.kind === 'recent'));
  } finally {
    sources.suggestions = saved;
  }
  t.is((await t0.fetch('/api/get_initial_suggestions')).status, 401);
});

test.serial('follow-ups follow the chat\'s last answered question, for those who may read the chat', async (t) => {
  const o = org();
  const data = { sql: 'SELECT 1', connection_id: 'demo_warehouse', dialect: 'duckdb' };
  await seedChat(t0, o.pa, 'f1', [
    { question: 'Revenue by country', answer: 'a', answerData: data },
    { question: 'why?', answer: "I can't answer that." },
  ]);
  const sources = t0.app.services.chatSources;
  const saved = sources.suggestions;
  const asked: string[][] = [];
  sources.suggestions = {
    ...saved,
    followUps: async (_p, _e, question, earlier) => {
      asked.push([...earlier, question]);
      return ['and by month?', 'Revenue by country'];
    },
  };
  try {
    const api = client(t0, t0.session(o.analyst));
    const res = await api.json<{ suggestions: { text: string; kind: string }[] }>(api.get('/api/get_initial_suggestions?chat_id=f1'));
    // The refused "why?" is not what follows; a question already asked is not offered again.
    t.deepEqual(asked, [['Revenue by country']]);
    t.deepEqual(res.suggestions, [{ text: 'and by month?', kind: 'follow_up' }]);
    // A colleague without a modeler's reading right, or someone of another organization, finds no such chat; an admin reads it.
    const colleague = client(t0, t0.session(t0.user({ orgId: o.id })));
    t.is((await colleague.get('/api/get_initial_suggestions?chat_id=f1')).status, 404);
    t.is((await client(t0, t0.session(o.admin)).get('/api/get_initial_suggestions?chat_id=f1')).status, 200);
    const stranger = org();
    t.is((await client(t0, t0.session(stranger.analyst)).get('/api/get_initial_suggestions?chat_id=f1')).status, 404);
    const bad = await api.get(`/api/get_initial_suggestions?chat_id=${'x'.repeat(300)}`);
    t.is(bad.status, 422);
    t.deepEqual(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc, ['query', 'chat_id']);
  } finally {
    sources.suggestions = saved;
  }
});

const fakeLineage: LineageFn = (sql) => ({
  tables: [{ schema: 'main', table: 'orders' }],
  columns: sql.includes('total')
    ? [{ column: 'total', sources: [{ schema: 'main', table: 'orders', column: 'total_amount' }] }]
    : [{ column: 'n', sources: [] }],
});

test.serial('lineage of an answer lists its queries, tables and traced columns', async (t) => {
  const o = org();
  const sources = t0.app.services.chatSources;
  const saved = sources.lineage;
  sources.lineage = fakeLineage;
  try {
    const ids = await seedChat(t0, o.pa, 'lin', [
      {
        question: 'total?',
        answer: 'here',
        answerData: {
          sql: 'SELECT SUM(total_amount) AS total FROM orders',
          connection_id: 'demo_warehouse',
          dialect: 'duckdb',
          tables: [{ df_key: 'df1', sql: 'SELECT COUNT(*) AS n FROM orders', connection_id: 'demo_warehouse', dialect: 'duckdb' }],
        },
      },
    ]);
    const api = client(t0, t0.session(o.analyst));
    const res = await api.get(`/api/c2/lin/lineage/${ids[1]}`);
    t.is(res.status, 200);
    const body = (await res.json()) as { connections: string[]; queries: { query_id: string; columns: unknown[] }[] };
    t.deepEqual(body.connections, ['demo_warehouse']);
    t.deepEqual(body.queries.map((q) => q.query_id), ['main', 'df1']);
    const col = await api.json<{ sources: { column: string }[] }>(api.get(`/api/c2/lin/lineage/${ids[1]}/column?query=main&column=total`));
    t.deepEqual(col.sources.map((s) => s.column), ['total_amount']);
    t.is((await api.get(`/api/c2/lin/lineage/${ids[1]}/column?query=main&column=nope`)).status, 404);
    t.is((await api.get(`/api/c2/lin/lineage/${ids[1]}/column?query=other&column=total`)).status, 404);
    t.deepEqual(await locs(await api.get(`/api/c2/lin/lineage/${ids[1]}/column?query=main`)), [['query', 'column']]);
    // Same access as loading the chat: admins yes, peers and other organizations no.
    t.is((await client(t0, t0.session(o.admin)).get(`/api/c2/lin/lineage/${ids[1]}`)).status, 200);
    const peer = client(t0, t0.session(t0.user({ orgId: o.id })));
    t.is((await peer.get(`/api/c2/lin/lineage/${ids[1]}`)).status, 404);
    t.is((await peer.get(`/api/c2/lin/lineage/${ids[1]}/column?query=main&column=total`)).status, 404);
  } finally {
    sources.lineage = saved;
  }
});

test.serial('lineage answers 503 when no analysis is wired', async (t) => {
  const o = org();
  const ids = await seedChat(t0, o.pa, 'lin2', [{ question: 'q', answer: 'a', answerData: { sql: 'SELECT 1', connection_id: 'c', dialect: 'duckdb' } }]);
  const sources = t0.app.services.chatSources;
  const saved = sources.lineage;
  sources.lineage = noLineage;
  try {
    const res = await client(t0, t0.session(o.analyst)).get(`/api/c2/lin2/lineage/${ids[1]}`);
    t.is(res.status, 503);
  } finally {
    sources.lineage = saved;
  }
});

test.serial('the wired lineage library traces an answer through a join to its source tables and columns', async (t) => {
  const o = org();
  const sql = 'SELECT c.country, sum(o.total_amount) AS revenue FROM main.orders o JOIN main.customers c ON o.customer_id = c.customer_id GROUP BY c.country';
  const ids = await seedChat(t0, o.pa, 'lin3', [{ question: 'q', answer: 'a', answerData: { sql, connection_id: 'demo_warehouse', dialect: 'duckdb' } }]);
  const api = client(t0, t0.session(o.analyst));
  const res = await api.json<{ queries: { tables: { table: string }[] }[] }>(api.get(`/api/c2/lin3/lineage/${ids[1]}`));
  t.deepEqual(res.queries[0]!.tables.map((x) => x.table).sort(), ['customers', 'orders']);
  const col = await api.json<{ sources: { table: string; column: string }[] }>(api.get(`/api/c2/lin3/lineage/${ids[1]}/column?query=main&column=revenue`));
  t.deepEqual(col.sources.map((x) => `${x.table}.${x.column}`), ['orders.total_amount']);
});

test('the OpenAPI document describes the chat records', async (t) => {
  const doc = (await (await t0.fetch('/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: { title?: string } }> }> }>> };
  const history = doc.paths['/api/chat_history']!['get']!.responses['200']!.content!['application/json']!.schema;
  t.is(history.title, 'ChatHistoryResponse');
  const search = doc.paths['/api/search_chats']!['get']!.responses['200']!.content!['application/json']!.schema;
  t.is(search.title, 'ChatSearchResponse');
  for (const path of ['/api/share/{chat_id}', '/api/c2/{chat_id}', '/api/export_history', '/api/c2/{chat_id}/lineage/{message_id}/column']) t.truthy(doc.paths[path], path);
});
