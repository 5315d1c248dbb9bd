// /api/saved_questions: saving from SQL or from an answer's table, who sees and who changes what
// (private questions are their owner's alone, publishing needs an admin or modeler), edits kept as
// versions, and runs that read the warehouse again as the viewer, through the governed query path.
import test from 'ava';
import { sql } from 'kysely';
import { createMemoryTableDocs, type MemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { setUserAttributes } from '../../src/data/rls/index.ts';
import { appendMessage, recordAnswer } from '../../src/chats/index.ts';
import type { UserRow } from '../../src/auth/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { deps, principalOf } from '../helpers/chats.ts';

let t0: TestApp;
let docs: MemoryTableDocs;
/** The knowledge commits governance was read at (other tests run alongside: only this file's 'c0ffee' is asserted). */
const governedAt: (string | undefined)[] = [];
const org = 'sqorg';
const other = 'sqother';
let admin: string, modeler: string, analyst: string, analyst2: string, otherAdmin: string;
let analystUser: UserRow;

const SPEC = { mark: 'bar', encoding: { x: { field: 'country' }, y: { field: 'n' } } };

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  placeOrgFile(root, other, 'wh.duckdb', (await duckdbFixture()).path!);
  docs = createMemoryTableDocs();
  const governance = docs.governance.bind(docs);
  docs.governance = (orgId, env, commit) => (governedAt.push(commit), governance(orgId, env, commit));
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  t0.org(org);
  t0.org(other);
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  const m = t0.user({ orgId: org, role: 'modeler' });
  modeler = t0.session(m);
  analystUser = t0.user({ orgId: org, role: 'user' });
  analyst = t0.session(analystUser);
  const a2 = t0.user({ orgId: org, role: 'user' });
  analyst2 = t0.session(a2);
  otherAdmin = t0.session(t0.user({ orgId: other, role: 'admin' }));
  const x = t0.app.services.executor;
  await setUserAttributes(x, org, m.id, { country: 'Germany' });
  await setUserAttributes(x, org, analystUser.id, { country: 'France' });
  await setUserAttributes(x, org, a2.id, { country: 'Japan' });
  docs.setTables(org, undefined, [
    { connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] },
  ]);
  for (const [token, id] of [[admin, 'wh'], [otherAdmin, 'wh_other']] as const) {
    const res = await call(t0, 'POST', '/api/connections', { token, body: { id, name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
});
test.after.always(() => t0?.stop());

const SQL = 'SELECT order_id, country FROM orders ORDER BY order_id';
const save = (token: string, body: Record<string, unknown>) => call(t0, 'POST', '/api/saved_questions', { token, body: { title: 'Orders', ...body } });
const run = (token: string, id: string) => call(t0, 'POST', `/api/saved_questions/${id}/run`, { token });

test('an analyst saves a private question; running it reads the warehouse again under their row filters, with the time it was read', async (t) => {
  const res = await save(analyst, { connection_id: 'wh', sql: SQL, description: 'Every order', chart: SPEC });
  t.is(res.status, 201, JSON.stringify(res.body));
  t.like(res.body, { title: 'Orders', description: 'Every order', visibility: 'private', version: 1, connection_id: 'wh', sql: SQL, chart: SPEC, knowledge_commit: null, source: null, owner_id: analystUser.id });
  const ran = await run(analyst, res.body.id);
  t.is(ran.status, 200, JSON.stringify(ran.body));
  t.deepEqual(ran.body.rows, [[2, 'France'], [5, 'France']]);
  t.deepEqual(ran.body.columns.map((c: { name: string }) => c.name), ['order_id', 'country']);
  t.is(ran.body.read_at, new Date(t0.clock.now()).toISOString());
  const listed = await call(t0, 'GET', '/api/saved_questions', { token: analyst });
  t.true(listed.body.questions.some((q: { id: string }) => q.id === res.body.id));
});

test('another user\'s private question is 404 to everyone else, admins and other organizations included', async (t) => {
  const id = (await save(analyst, { connection_id: 'wh', sql: SQL })).body.id as string;
  for (const token of [analyst2, modeler, admin, otherAdmin]) {
    t.is((await call(t0, 'GET', `/api/saved_questions/${id}`, { token })).status, 404);
    t.is((await run(token, id)).status, 404);
    t.is((await call(t0, 'GET', `/api/saved_questions/${id}/versions`, { token })).status, 404);
    t.is((await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token, body: { title: 'Mine' } })).status, 404);
    t.is((await call(t0, 'DELETE', `/api/saved_questions/${id}`, { token })).status, 404);
    const listed = await call(t0, 'GET', '/api/saved_questions', { token });
    t.false(listed.body.questions.some((q: { id: string }) => q.id === id));
  }
  t.is((await call(t0, 'GET', '/api/saved_questions/sq_missing', { token: analyst })).status, 404);
});

test('an analyst cannot publish to the organization; a modeler can, and each viewer runs it under their own row filters', async (t) => {
  const refused = await save(analyst, { connection_id: 'wh', sql: SQL, visibility: 'organization' });
  t.is(refused.status, 403);
  t.is(refused.body.code, 'PUBLISH_FORBIDDEN');
  const own = (await save(analyst, { connection_id: 'wh', sql: SQL })).body.id as string;
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${own}`, { token: analyst, body: { visibility: 'organization' } })).status, 403);
  const published = await save(modeler, { connection_id: 'wh', sql: SQL, visibility: 'organization' });
  t.is(published.status, 201);
  const id = published.body.id as string;
  t.deepEqual((await run(modeler, id)).body.rows, [[1, 'Germany'], [3, 'Germany']]);
  t.deepEqual((await run(analyst, id)).body.rows, [[2, 'France'], [5, 'France']]);
  t.is((await run(admin, id)).body.rows.length, 5);
  t.is((await run(otherAdmin, id)).status, 404, 'another organization');
  // Readers do not change it; its owner and admins do.
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: analyst, body: { title: 'Mine' } })).status, 403);
  t.is((await call(t0, 'DELETE', `/api/saved_questions/${id}`, { token: analyst })).status, 403);
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: admin, body: { title: 'Checked' } })).status, 200);
  t.is((await call(t0, 'DELETE', `/api/saved_questions/${id}`, { token: admin })).status, 200);
  t.is((await call(t0, 'GET', `/api/saved_questions/${id}`, { token: modeler })).status, 404);
});

test('runs go through the SQL guard and the governed-source check as the viewer', async (t) => {
  const id = (await save(modeler, { connection_id: 'wh', sql: 'SELECT name FROM customers ORDER BY 1', visibility: 'organization' })).body.id as string;
  const refused = await run(analyst, id);
  t.is(refused.status, 400);
  t.like(refused.body, { code: 'QUERY_REFUSED', data: { reason: 'ungoverned_table' } });
  t.is((await run(admin, id)).status, 200, 'admins read any table');
  // A statement the guard refuses cannot be saved (below), but one kept from before a stricter guard still meets it at each run.
  const kept = (await save(admin, { connection_id: 'wh', sql: SQL })).body.id as string;
  await t0.app.services.executor.run(sql`UPDATE saved_questions SET sql = ${"SELECT * FROM read_csv('/etc/passwd')"} WHERE id = ${kept}`);
  t.like((await run(admin, kept)).body, { code: 'QUERY_REFUSED', data: { reason: 'table_function' } });
});

test('SQL the guard refuses is not saved, nor written over a saved question: 400 with the reason, nothing kept', async (t) => {
  for (const [hostile, reason] of [
    ['DELETE FROM orders', 'not_select'],
    ["SELECT * FROM read_csv('/etc/passwd')", 'table_function'],
    ['SELECT 1; DROP TABLE orders', 'multiple_statements'],
    ["ATTACH '/tmp/x.db' AS x", undefined],
  ] as const) {
    const res = await save(admin, { title: 'Refused by the guard', connection_id: 'wh', sql: hostile });
    t.is(res.status, 400, hostile);
    t.like(res.body, { code: 'QUERY_REFUSED', ...(reason ? { data: { reason } } : {}) }, hostile);
  }
  const kept = await t0.app.services.executor.all<{ n: number }>(sql`SELECT count(*) AS n FROM saved_questions WHERE title = ${'Refused by the guard'}`);
  t.is(Number(kept[0]!.n), 0, 'nothing saved');
  const id = (await save(analyst, { connection_id: 'wh', sql: SQL })).body.id as string;
  const edit = await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: analyst, body: { sql: 'UPDATE orders SET country = NULL', title: 'Changed' } });
  t.is(edit.status, 400);
  t.is(edit.body.code, 'QUERY_REFUSED');
  const after = (await call(t0, 'GET', `/api/saved_questions/${id}`, { token: analyst })).body;
  t.like(after, { version: 1, sql: SQL, title: 'Orders' }, 'no version written, the title with it');
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: analyst, body: { title: 'Renamed' } })).status, 200, 'an edit that leaves the SQL alone does not meet the guard again');
  t.is((await save(otherAdmin, { connection_id: 'wh', sql: 'DELETE FROM orders' })).status, 404, "another organization's connection is not found before its dialect is read");
});

test('an answer\'s table is saved with its SQL, chart and the knowledge commit it used; runs are governed by the current knowledge', async (t) => {
  const p = principalOf(t0, analystUser, org);
  await appendMessage(deps(t0), p, { chatId: 'c-save', role: 'user', content: 'Orders by country?', agentic: true });
  const answer = await recordAnswer(deps(t0), p, {
    chatId: 'c-save',
    content: 'Here.',
    credits: 1,
    knowledgeCommit: 'c0ffee',
    answer: {
      tables: [{ df_key: 'df_1', sql: 'SELECT country, count(*) AS n FROM orders GROUP BY 1', connection_id: 'wh', dialect: 'duckdb' }],
      charts: [{ chart_id: 'ch_1', df_key: 'df_1', type: 'bar', spec: SPEC }],
    },
  });
  const res = await save(analyst, { chat_id: 'c-save', df_key: 'df_1', title: 'By country' });
  t.is(res.status, 201, JSON.stringify(res.body));
  t.like(res.body, { sql: 'SELECT country, count(*) AS n FROM orders GROUP BY 1', connection_id: 'wh', chart: SPEC, knowledge_commit: 'c0ffee', source: { chat_id: 'c-save', message_uuid: answer.message_uuid, df_key: 'df_1' } });
  t.deepEqual((await run(analyst, res.body.id)).body.rows, [['France', '2']]);
  t.true(governedAt.length > 0);
  t.false(governedAt.includes('c0ffee'), 'governance is read at the current knowledge, so row filters added since apply');
  // The chat's latest answer by default; someone who may not read the chat gets 404.
  t.is((await save(analyst, { chat_id: 'c-save' })).body.knowledge_commit, 'c0ffee');
  t.is((await save(analyst2, { chat_id: 'c-save' })).status, 404);
  t.is((await save(otherAdmin, { chat_id: 'c-save' })).status, 404);
  t.is((await save(analyst, { chat_id: 'c-save', df_key: 'df_none' })).status, 404);
});

test('production\'s row filters apply in every environment: an environment may add a filter, never remove one', async (t) => {
  const filter = { filter: 'country = {{user.country}}', exempt_roles: ['admin'] };
  docs.setTables(org, 'env_unfiltered', [{ connection: 'wh', schema: 'main', name: 'orders', active: true }]);
  docs.setTables(org, 'env_exempt', [{ connection: 'wh', schema: 'main', name: 'ORDERS', active: true, row_filters: [{ ...filter, exempt_roles: ['admin', 'modeler'] }] }]);
  docs.setTables(org, 'env_tighter', [{ connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [filter, { filter: 'order_id > 2' }] }]);
  const id = (await save(modeler, { connection_id: 'wh', sql: SQL, visibility: 'organization' })).body.id as string;
  const runIn = (token: string, env: string) => call(t0, 'POST', `/api/saved_questions/${id}/run`, { token, env });
  const queryIn = (token: string, env: string) => call(t0, 'POST', '/api/execute_query', { token, env, body: { connection_id: 'wh', sql: SQL } });
  for (const env of ['env_unfiltered', 'env_exempt']) {
    t.deepEqual((await runIn(modeler, env)).body.rows, [[1, 'Germany'], [3, 'Germany']], env);
    const queried = await queryIn(modeler, env);
    t.is(queried.status, 200, JSON.stringify(queried.body));
    t.deepEqual(queried.body.rows ?? queried.body.data, [[1, 'Germany'], [3, 'Germany']], env);
  }
  t.deepEqual((await runIn(modeler, 'env_tighter')).body.rows, [[3, 'Germany']], 'both filters apply');
  t.is((await runIn(admin, 'env_unfiltered')).body.rows.length, 5, 'admins stay exempt as production says');
});

test('an answer\'s chart is saved without the rows it drew: each viewer sees only the rows their own run reads', async (t) => {
  const admins = principalOf(t0, t0.user({ orgId: org, role: 'admin' }), org);
  await appendMessage(deps(t0), admins, { chatId: 'c-rows', role: 'user', content: 'Orders by country?', agentic: true });
  // The answer's chart carries the admin's rows inline, as a drawn answer does (every country).
  const values = [{ country: 'France', n: 2 }, { country: 'Germany', n: 2 }, { country: 'Japan', n: 1 }];
  const layered = { layer: [{ mark: 'bar', data: { values } }, { mark: 'rule', transform: [{ lookup: 'country', from: { data: { values }, key: 'country' } }] }] };
  await recordAnswer(deps(t0), admins, {
    chatId: 'c-rows',
    content: 'Here.',
    credits: 1,
    answer: {
      tables: [{ df_key: 'df_1', sql: 'SELECT country, count(*) AS n FROM orders GROUP BY 1', connection_id: 'wh', dialect: 'duckdb' }],
      charts: [{ chart_id: 'ch_1', df_key: 'df_1', type: 'bar', spec: { ...SPEC, ...layered, data: { values }, datasets: { rows: values } } }],
    },
  });
  const saved = await call(t0, 'POST', '/api/saved_questions', { token: admin, body: { title: 'By country', chat_id: 'c-rows', visibility: 'organization' } });
  t.is(saved.status, 201, JSON.stringify(saved.body));
  const id = saved.body.id as string;
  const noRows = (body: unknown) => t.false(JSON.stringify(body).includes('Japan'), JSON.stringify(body));
  t.deepEqual(saved.body.chart, { ...SPEC, layer: [{ mark: 'bar' }, { mark: 'rule', transform: [{ lookup: 'country', from: { key: 'country' } }] }] });
  noRows((await call(t0, 'GET', `/api/saved_questions/${id}`, { token: analyst })).body);
  noRows((await call(t0, 'GET', '/api/saved_questions', { token: analyst })).body);
  noRows((await call(t0, 'GET', `/api/saved_questions/${id}/versions`, { token: analyst })).body);
  t.deepEqual((await run(analyst, id)).body.rows, [['France', '2']]);
  // A chart given with rows (by hand, or one stored before this rule) is shown without them too.
  const edited = await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: admin, body: { chart: { ...SPEC, data: { values } } } });
  t.deepEqual(edited.body.chart, SPEC);
  await t0.app.services.executor.run(sql`UPDATE saved_questions SET chart = ${JSON.stringify({ ...SPEC, data: { values } })} WHERE id = ${id}`);
  t.deepEqual((await call(t0, 'GET', `/api/saved_questions/${id}`, { token: analyst })).body.chart, SPEC);
});

test('an edit made from an older version answers 409 and changes nothing; an edit that changes nothing writes no version', async (t) => {
  const id = (await save(modeler, { connection_id: 'wh', sql: SQL, visibility: 'organization' })).body.id as string;
  const patch = (token: string, body: Record<string, unknown>) => call(t0, 'PATCH', `/api/saved_questions/${id}`, { token, body });
  // Both read version 1; the admin saves first.
  t.like((await patch(admin, { sql: 'SELECT 2 AS a', version: 1 })).body, { version: 2, sql: 'SELECT 2 AS a' });
  const late = await patch(modeler, { sql: 'SELECT 1 AS a', version: 1 });
  t.is(late.status, 409);
  t.is(late.body.code, 'SAVED_QUESTION_CONFLICT');
  t.like((await call(t0, 'GET', `/api/saved_questions/${id}`, { token: modeler })).body, { version: 2, sql: 'SELECT 2 AS a' });
  // From the version just read it goes through.
  t.like((await patch(modeler, { sql: 'SELECT 1 AS a', version: 2 })).body, { version: 3, sql: 'SELECT 1 AS a' });
  // Nothing changed: no new version, whether the body is empty or repeats what is there.
  t.like((await patch(modeler, {})).body, { version: 3 });
  t.like((await patch(modeler, { sql: 'SELECT 1 AS a', title: 'Orders', version: 3 })).body, { version: 3 });
  t.is((await call(t0, 'GET', `/api/saved_questions/${id}/versions`, { token: modeler })).body.versions.length, 3);
  t.is((await patch(modeler, { version: 0 })).status, 422);
});

test('editing keeps every version; new SQL no longer names the answer\'s knowledge commit', async (t) => {
  const id = (await save(modeler, { connection_id: 'wh', sql: SQL, visibility: 'organization' })).body.id as string;
  const edited = await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: modeler, body: { title: 'Orders, newest first', sql: 'SELECT order_id FROM orders ORDER BY order_id DESC', chart: null } });
  t.is(edited.status, 200, JSON.stringify(edited.body));
  t.like(edited.body, { version: 2, title: 'Orders, newest first', chart: null, knowledge_commit: null, visibility: 'organization' });
  const versions = await call(t0, 'GET', `/api/saved_questions/${id}/versions`, { token: analyst });
  t.is(versions.status, 200);
  t.deepEqual(versions.body.versions.map((v: { version: number; title: string }) => [v.version, v.title]), [[2, 'Orders, newest first'], [1, 'Orders']]);
  t.is(versions.body.versions[1].sql, SQL);
  t.deepEqual((await run(analyst, id)).body.rows, [[5], [2]]);
});

test('the list comes a page at a time, last edited first, with a cursor to the next page', async (t) => {
  // The other organization: no other test saves a question there.
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await save(otherAdmin, { connection_id: 'wh_other', sql: SQL, title: `Page ${i}`, visibility: 'organization' })).body.id);
  const all = (await call(t0, 'GET', '/api/saved_questions', { token: otherAdmin })).body;
  t.is(all.next_cursor, null);
  const order = all.questions.map((q: { id: string }) => q.id) as string[];
  t.deepEqual([...order].sort(), [...ids].sort());
  // The test's clock stands still (other tests read it): every question has one edit time, and the id orders them.
  t.deepEqual(order, [...ids].sort().reverse());
  const paged: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await call(t0, 'GET', `/api/saved_questions?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: otherAdmin });
    t.is(page.status, 200);
    t.true(page.body.questions.length <= 2);
    paged.push(...page.body.questions.map((q: { id: string }) => q.id));
    cursor = page.body.next_cursor;
  } while (cursor);
  t.deepEqual(paged, order, 'the same questions in the same order, each once (ties on the edit time broken by id)');
  for (const query of ['limit=0', 'limit=501', 'limit=x', 'cursor=not-a-cursor', `cursor=${'x'.repeat(201)}`]) {
    const bad = await call(t0, 'GET', `/api/saved_questions?${query}`, { token: otherAdmin });
    t.is(bad.status, 422, query);
    t.is(bad.body.detail[0].loc[0], 'query');
  }
});

test('a search lists the questions whose title or description holds the text, a page at a time, and no one else\'s', async (t) => {
  // No other test titles a question with 'churn'.
  const churn = (await save(admin, { connection_id: 'wh', sql: SQL, title: 'Churn by month', visibility: 'organization' })).body.id;
  const described = (await save(admin, { connection_id: 'wh', sql: SQL, title: 'Lost customers', description: 'Monthly churn, as finance counts it', visibility: 'organization' })).body.id;
  const own = (await save(analyst, { connection_id: 'wh', sql: SQL, title: 'My churn' })).body.id;
  const found = async (token: string, query: string) => {
    const res = await call(t0, 'GET', `/api/saved_questions?${query}`, { token });
    t.is(res.status, 200, query);
    return res.body as { questions: { id: string }[]; next_cursor: string | null };
  };
  const ids = (page: { questions: { id: string }[] }) => page.questions.map((q) => q.id).sort();
  t.deepEqual(ids(await found(analyst, `q=${encodeURIComponent(' CHURN ')}`)), [churn, described, own].sort(), 'title or description, any case, their own private one too');
  t.deepEqual(ids(await found(analyst2, 'q=churn')), [churn, described].sort(), 'not another analyst\'s private question');
  t.deepEqual(ids(await found(admin, 'q=churn')), [churn, described].sort(), 'not even for an admin');
  t.deepEqual(ids(await found(otherAdmin, 'q=churn')), [], 'nor another organization\'s');
  const first = await found(analyst, 'q=churn&limit=2');
  const rest = await found(analyst, `q=churn&limit=2&cursor=${first.next_cursor}`);
  t.is(rest.next_cursor, null);
  t.deepEqual([...ids(first), ...ids(rest)].sort(), [churn, described, own].sort(), 'each once across the pages');
  t.true((await found(analyst, 'q=')).questions.length > 3, 'an empty search lists every question');
  const long = await call(t0, 'GET', `/api/saved_questions?q=${'x'.repeat(201)}`, { token: analyst });
  t.is(long.status, 422);
  t.deepEqual(long.body.detail[0].loc, ['query', 'q']);
});

test('connections of another organization or unknown ones answer 404', async (t) => {
  t.is((await save(analyst, { connection_id: 'wh_other', sql: SQL })).status, 404);
  t.is((await save(otherAdmin, { connection_id: 'wh', sql: SQL })).status, 404);
  const id = (await save(analyst, { connection_id: 'wh', sql: SQL })).body.id as string;
  t.is((await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: analyst, body: { connection_id: 'wh_other' } })).status, 404);
});

test('invalid bodies answer 422 in the HTTPValidationError shape, naming the field', async (t) => {
  const cases: [Record<string, unknown>, (string | number)[]][] = [
    [{ title: '', connection_id: 'wh', sql: SQL }, ['body', 'title']],
    [{ connection_id: 'wh' }, ['body', 'sql']],
    [{ sql: SQL }, ['body', 'connection_id']],
    [{ connection_id: 'wh', sql: SQL, visibility: 'everyone' }, ['body', 'visibility']],
    [{ connection_id: 'wh', sql: SQL, chart: 'bar' }, ['body', 'chart']],
    [{ title: 'a\u0000b', connection_id: 'wh', sql: SQL }, ['body', 'title']],
    [{ title: 'Payroll\nsq_fake   Forged row', connection_id: 'wh', sql: SQL }, ['body', 'title']],
    [{ title: '\u001b[2J\u001b[31mRed', connection_id: 'wh', sql: SQL }, ['body', 'title']],
  ];
  for (const [body, loc] of cases) {
    const res = await call(t0, 'POST', '/api/saved_questions', { token: analyst, body: { title: 'Orders', ...body } });
    t.is(res.status, 422, JSON.stringify(body));
    t.true(Array.isArray(res.body.detail));
    t.deepEqual(res.body.detail[0].loc, loc);
    t.is(typeof res.body.detail[0].msg, 'string');
  }
  // A field needed only without a chat is 'missing', as any absent field is.
  for (const body of [{ connection_id: 'wh' }, { sql: SQL }]) {
    t.like((await call(t0, 'POST', '/api/saved_questions', { token: analyst, body: { title: 'Orders', ...body } })).body.detail[0], { msg: 'Field required', type: 'missing' });
  }
  const id = (await save(analyst, { connection_id: 'wh', sql: SQL })).body.id as string;
  const patch = await call(t0, 'PATCH', `/api/saved_questions/${id}`, { token: analyst, body: { sql: '' } });
  t.is(patch.status, 422);
  t.deepEqual(patch.body.detail[0].loc, ['body', 'sql']);
});

test('every route answers 401 without a credential', async (t) => {
  for (const [method, path] of [
    ['GET', '/api/saved_questions'],
    ['POST', '/api/saved_questions'],
    ['GET', '/api/saved_questions/x'],
    ['PATCH', '/api/saved_questions/x'],
    ['DELETE', '/api/saved_questions/x'],
    ['GET', '/api/saved_questions/x/versions'],
    ['POST', '/api/saved_questions/x/run'],
  ] as const) {
    t.is((await call(t0, method, path, method === 'POST' || method === 'PATCH' ? { body: {} } : {})).status, 401, `${method} ${path}`);
  }
});

test('the routes are documented in the OpenAPI document', async (t) => {
  const doc = (await call(t0, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
  t.deepEqual(Object.keys(doc.paths['/api/saved_questions'] ?? {}).sort(), ['get', 'post']);
  t.deepEqual(Object.keys(doc.paths['/api/saved_questions/{id}'] ?? {}).sort(), ['delete', 'get', 'patch']);
  t.truthy(doc.paths['/api/saved_questions/{id}/run']?.['post']);
  t.truthy(doc.paths['/api/saved_questions/{id}/versions']?.['get']);
});
