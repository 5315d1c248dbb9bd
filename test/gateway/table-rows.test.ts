// GET /api/agentic/table_rows: a window of an answer table's rows, re-run as the caller (their row
// filters apply), for the owner only; other users and organizations get 404; bad windows 422.
import test from 'ava';
import type { UserRow } from '../../src/auth/index.ts';
import { setUserAttributes } from '../../src/data/rls/index.ts';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { client, principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
const org = 'rows-org';
let owner: UserRow, colleague: UserRow, outsider: UserRow;
const SQL = 'SELECT order_id, country FROM orders ORDER BY order_id';

test.before(async () => {
  const root = tempDir();
  const duck = (await duckdbFixture()).path!;
  placeOrgFile(root, org, 'wh.duckdb', duck);
  placeOrgFile(root, 'rows-other', 'wh.duckdb', duck);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  t0.org(org);
  t0.org('rows-other');
  owner = t0.user({ orgId: org });
  colleague = t0.user({ orgId: org });
  outsider = t0.user({ orgId: 'rows-other', role: 'admin' });
  const admin = t0.user({ orgId: org, role: 'admin' });
  docs.setTables(org, undefined, [{ connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] }]);
  await setUserAttributes(t0.app.services.executor, org, owner.id, { country: 'France' });
  const res = await client(t0, t0.session(admin)).post('/api/connections', { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } });
  if (res.status !== 201) throw new Error(await res.text());
  await seedChat(t0, principalOf(t0, owner, org), 'c-rows', [
    { question: 'Orders?', answer: 'Here.', answerData: { tables: [{ df_key: 'df_orders', sql: SQL, connection_id: 'wh', dialect: 'duckdb', columns: ['order_id', 'country'] }] } },
  ]);
});
test.after.always(() => t0.stop());

const rows = (who: UserRow, query: string) => client(t0, t0.session(who)).get(`/api/agentic/table_rows?${query}`);

test('the owner reads the rows of an answer table a window at a time, filtered by their row filters', async (t) => {
  const all = await rows(owner, 'chat_id=c-rows&df_key=df_orders');
  t.is(all.status, 200);
  const body = (await all.json()) as { columns: string[]; rows: unknown[][]; offset: number; has_more: boolean };
  t.deepEqual(body.columns, ['order_id', 'country']);
  t.true(body.rows.length > 1);
  t.true(body.rows.every((r) => r[1] === 'France'));
  t.false(body.has_more);
  const second = (await (await rows(owner, 'chat_id=c-rows&df_key=df_orders&offset=1&limit=1')).json()) as typeof body;
  t.deepEqual(second.rows, [body.rows[1]]);
  t.is(second.offset, 1);
  t.is(second.has_more, body.rows.length > 2);
  const first = (await (await rows(owner, 'chat_id=c-rows&df_key=df_orders&limit=1')).json()) as typeof body;
  t.true(first.has_more);
});

test('another member, another organization and an unknown table get 404; no credential 401; bad windows 422', async (t) => {
  t.is((await rows(colleague, 'chat_id=c-rows&df_key=df_orders')).status, 404);
  t.is((await rows(outsider, 'chat_id=c-rows&df_key=df_orders')).status, 404);
  t.is((await rows(owner, 'chat_id=c-rows&df_key=nope')).status, 404);
  t.is((await t0.fetch('/api/agentic/table_rows?chat_id=c-rows&df_key=df_orders')).status, 401);
  for (const q of ['chat_id=c-rows', 'chat_id=c-rows&df_key=df_orders&offset=-1', 'chat_id=c-rows&df_key=df_orders&limit=0', 'chat_id=c-rows&df_key=df_orders&limit=10001']) {
    const res = await rows(owner, q);
    t.is(res.status, 422, q);
    t.true(Array.isArray(((await res.json()) as { detail: unknown }).detail));
  }
});
