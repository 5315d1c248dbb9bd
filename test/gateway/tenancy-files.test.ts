// A second organization's admin and user reach for the first organization's files, one place at a
// time: warehouse files (in every spelling, through links, swapped after saving), answer downloads by
// df_key, chat uploads and the queries over them, the history export, the knowledge repositories.
// Each attempt gets 403, 404 or 422, and nothing of the first organization is read.
import test from 'ava';
import { rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryTableDocs, type TableDoc } from '../../src/data/index.ts';
import { call } from '../helpers/api.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { principalOf, seedChat } from '../helpers/chats.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../data/warehouses.ts';
import type { UserRow } from '../../src/auth/index.ts';

const A = 'ten-victim';
const B = 'ten-attacker';
const DOCS: TableDoc[] = [{ connection: 'wh', schema: 'main', name: 'orders', active: true }];

let t0: TestApp;
let root: string;
let aFile: string;
let aUser: UserRow;
let bAdmin: string;
let bUser: string;
let bUserRow: UserRow;
test.before(async () => {
  root = tempDir();
  const fixture = (await duckdbFixture()).path!;
  aFile = placeOrgFile(root, A, 'wh.duckdb', fixture);
  // A file left in the shared folder, as the demo warehouse was before per-organization folders.
  placeOrgFile(root, '.', 'demo.duckdb', fixture);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  for (const org of [A, B]) {
    t0.org(org);
    docs.setTables(org, undefined, DOCS);
  }
  const aAdmin = t0.session(t0.user({ orgId: A, role: 'admin' }));
  aUser = t0.user({ orgId: A });
  bAdmin = t0.session(t0.user({ orgId: B, role: 'admin' }));
  bUserRow = t0.user({ orgId: B });
  bUser = t0.session(bUserRow);
  const created = await call(t0, 'POST', '/api/connections', { token: aAdmin, body: { id: 'wh', name: 'A', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  await seedChat(t0, principalOf(t0, aUser, A), 'a-chat', [
    { question: 'Orders?', answer: 'Here.', answerData: { tables: [{ df_key: 'df_orders', sql: 'SELECT * FROM orders', connection_id: 'wh', dialect: 'duckdb' }] } },
  ]);
});
test.after.always(() => t0.stop());

const queriesOf = (org: string) => t0.app.services.store.sqlite!.prepare('SELECT count(*) FROM query_log WHERE org_id = ?').pluck().get(org) as number;
const createB = (path: string, id = 'x') => call(t0, 'POST', '/api/connections', { token: bAdmin, body: { id, name: id, type: 'duckdb', settings: { path } } });
const queryB = (connectionId: string, token = bAdmin) => call(t0, 'POST', '/api/execute_query', { token, body: { connection_id: connectionId, sql: 'SELECT count(*) AS n FROM orders' } });

test("no spelling of the first organization's file, or of a shared one, is accepted for the second: 422 on settings.path, nothing stored", async (t) => {
  const hostile = [aFile, join(root, 'demo.duckdb'), `../${A}/wh.duckdb`, '../demo.duckdb', `sub/../../${A}/wh.duckdb`, `..\\${A}\\wh.duckdb`, 'wh.duckdb\u0000'];
  for (const path of hostile) {
    for (const type of ['duckdb', 'sqlite']) {
      const res = await call(t0, 'POST', '/api/connections', { token: bAdmin, body: { name: 'stolen', type, settings: { path } } });
      t.is(res.status, 422, `${type} ${JSON.stringify(path)}`);
      t.deepEqual(res.body.detail[0].loc, ['body', 'settings', 'path']);
    }
  }
  // Changing a harmless connection into a hostile one is refused the same way and changes nothing.
  t.is((await createB('mine.duckdb', 'harmless')).status, 201);
  const patched = await call(t0, 'PATCH', '/api/connections/harmless', { token: bAdmin, body: { settings: { path: aFile } } });
  t.is(patched.status, 422);
  t.is((await call(t0, 'GET', '/api/connections/harmless', { token: bAdmin })).body.settings.path, 'mine.duckdb');
  // The second organization's regular user may not even try.
  t.is((await call(t0, 'POST', '/api/connections', { token: bUser, body: { name: 'x', type: 'duckdb', settings: { path: 'wh.duckdb' } } })).status, 403);
  const names = (await call(t0, 'GET', '/api/connections', { token: bAdmin })).body.connections.map((c: { name: string }) => c.name);
  t.false(names.includes('stolen'));
});

test("the names of the first organization's and the shared files resolve in the second organization's own folder, where they are not", async (t) => {
  for (const [id, path] of [['same-name', 'wh.duckdb'], ['shared-name', 'demo.duckdb']]) {
    const created = await createB(path!, id);
    t.is(created.status, 201);
    t.is(created.body.settings.path, path);
    const tested = await call(t0, 'POST', `/api/connections/${id}/test`, { token: bAdmin });
    t.is(tested.body.ok, false);
    t.notRegex(tested.body.error, new RegExp(root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'no server path in the answer');
    for (const token of [bAdmin, bUser]) {
      const q = await queryB(id!, token);
      t.is(q.status, 503);
      t.is(q.body.code, 'WAREHOUSE_UNAVAILABLE');
    }
  }
  // And the first organization's connection id is unknown to the second.
  t.is((await queryB('wh')).status, 404);
  t.is((await call(t0, 'POST', '/api/connections/wh/test', { token: bAdmin })).status, 404);
});

test.serial("a link to the first organization's file in the second's folder is refused when saved, and when it replaces a saved file", async (t) => {
  const bFolder = join(root, B);
  placeOrgFile(root, B, 'own.duckdb', (await duckdbFixture()).path!);
  symlinkSync(aFile, join(bFolder, 'link.duckdb'));
  const linked = await createB('link.duckdb', 'linked');
  t.is(linked.status, 422);
  t.deepEqual(linked.body.detail[0].loc, ['body', 'settings', 'path']);
  t.is((await createB('own.duckdb', 'own')).status, 201);
  t.is((await queryB('own')).status, 200);
  const before = queriesOf(B);
  // Swapped behind the service's back after it was saved.
  rmSync(join(bFolder, 'own.duckdb'));
  symlinkSync(aFile, join(bFolder, 'own.duckdb'));
  for (const token of [bAdmin, bUser]) {
    const q = await queryB('own', token);
    t.is(q.status, 403);
    t.like(q.body, { code: 'WAREHOUSE_PATH_REFUSED', data: { reason: 'outside' } });
  }
  t.like((await call(t0, 'POST', '/api/connections/own/test', { token: bAdmin })).body, { ok: false });
  const sync = await call(t0, 'POST', '/api/sync/duckdb/own', { token: bAdmin, body: {} });
  t.is(sync.status, 403);
  // Refused before a driver opened it: the refusal is all that was logged.
  t.is(queriesOf(B), before);
});

test.serial("the first organization's answers cannot be downloaded by df_key or message by the second's admin or user, however they ask", async (t) => {
  const paths = [
    `/api/download_big_csv_agentic?chat_id=a-chat&df_key=df_orders`,
    `/api/download_excel_agentic?chat_id=a-chat&df_key=df_orders`,
    `/api/download_big_csv_agentic?chat_id=a-chat&df_key=df_orders&org_id=${A}`,
    `/api/download_big_csv?chat_id=a-chat`,
    `/api/download_big_csv?chat_id=a-chat&message_position=1&org_id=${A}`,
  ];
  const before = queriesOf(B) + queriesOf(A);
  for (const token of [bAdmin, bUser]) {
    for (const path of paths) {
      t.is((await t0.fetch(path, { headers: { authorization: `Bearer ${token}` } })).status, 404, path);
      t.is((await t0.fetch(`${path}&token=${encodeURIComponent(token)}`)).status, 404, `${path} with token`);
    }
  }
  t.is(queriesOf(B) + queriesOf(A), before, 'no query ran');
  // The owner still downloads it.
  const own = await t0.fetch(paths[0]!, { headers: { authorization: `Bearer ${t0.session(aUser)}` } });
  t.is(own.status, 200);
  await own.arrayBuffer();
});

test("the second organization's uploads and upload queries never reach the first's files", async (t) => {
  const fd = (chatId: string, content: string) => {
    const f = new FormData();
    f.append('chat_id', chatId);
    f.append('file', new Blob([content]), 'secret.csv');
    return f;
  };
  const up = (token: string, chatId: string, content: string) => t0.fetch('/api/upload_to_chat', { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: fd(chatId, content) });
  t.is((await up(t0.session(aUser), 'a-chat', 'secret\nA-only\n')).status, 200);
  // The same chat id from the other organization is a folder of its own.
  t.is((await up(bUser, 'a-chat', 'mine\nB\n')).status, 200);
  const uploads = t0.app.services.agentPorts.uploads;
  const bPrincipal = principalOf(t0, bUserRow, B);
  const listed = await uploads.list(bPrincipal, 'a-chat');
  t.deepEqual(listed.map((f) => f.name), ['secret.csv']);
  const mine = await uploads.run(bPrincipal, 'a-chat', 'SELECT * FROM secret', 10);
  t.deepEqual(mine.rows, [['B']]);
  const aUploads = t0.app.services.uploads.dir({ orgId: A, userId: aUser.id, chatId: 'a-chat' });
  for (const sql of [`SELECT * FROM read_csv('${join(aUploads, 'secret.csv')}')`, `SELECT * FROM read_text('${aUploads}/*')`, `SELECT * FROM glob('${join(t0.config.dataDir, 'uploads')}/**')`]) {
    await t.throwsAsync(uploads.run(bPrincipal, 'a-chat', sql, 10), { code: 'QUERY_FAILED' }, sql);
  }
  // Hostile chat ids never name a folder.
  for (const chatId of ['../a-chat', `..%2F${A}`, '.', 'a/b']) t.is((await up(bUser, chatId, 'x\n1\n')).status, 422, chatId);
});

test("the history export of the second organization's admin holds nothing of the first, whatever user it names", async (t) => {
  const res = await t0.fetch(`/api/export_history?filter_user_id=${aUser.id}`, { headers: { authorization: `Bearer ${bAdmin}` } });
  t.is(res.status, 200);
  t.is(await res.text(), '');
  // The second organization's API token presented with the first organization's user id is no credential.
  const token = t0.token(bUserRow);
  t.is((await t0.fetch(`/api/export_history?api_token=${token}&user_id=${aUser.id}`)).status, 401);
});

test('knowledge repositories are named only by plain organization ids, and one organization never reads another’s', async (t) => {
  const repos = t0.app.services.knowledge.repos;
  for (const key of ['..', `../${A}`, `${A}/../${B}`, `${A}.git`, '', 'a/b', '.', `${A}\u0000`]) t.throws(() => repos.repo(key), undefined, JSON.stringify(key));
  const aAdmin = t0.session(t0.user({ orgId: A, role: 'admin' }));
  const note = await call(t0, 'POST', '/api/knowledge/notes', { token: aAdmin, body: { title: 'Victim secret', body: 'A only', tags: [] } });
  t.is(note.status, 201);
  const id = note.body.id as string;
  t.is((await call(t0, 'GET', `/api/knowledge/notes/${id}`, { token: bAdmin })).status, 404);
  t.is((await call(t0, 'GET', `/api/knowledge/notes/${id}`, { token: bUser })).status, 404);
  t.false(JSON.stringify((await call(t0, 'GET', '/api/knowledge/notes', { token: bAdmin })).body).includes('Victim secret'));
});
