import test from 'ava';
import ExcelJS from 'exceljs';
import { get as httpGet } from 'node:http';
import { Writable } from 'node:stream';
import type { Principal, UserRow } from '../../src/auth/index.ts';
import { createMemoryTableDocs } from '../../src/data/table-docs-memory.ts';
import { setUserAttributes } from '../../src/data/rls/index.ts';
import type { TableDoc } from '../../src/data/types.ts';
import { prepareDownload } from '../../src/compose/downloads/index.ts';
import { duckdbFixture, placeOrgFile, sqliteFixture, tempDir } from '../data/warehouses.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { client, deps, principalOf, seedChat } from '../helpers/chats.ts';

let t0: TestApp;
const org = 'dl-org';
const otherOrg = 'dl-other';
let owner: UserRow, colleague: UserRow, admin: UserRow, outsider: UserRow;
let ownerP: Principal;
/** Message uuids of the owner's chat `c-main`: [question, answer, question, answer]. */
let ids: string[];

const ORDERS_SQL = 'SELECT order_id, country, total_amount, order_date FROM orders ORDER BY order_id';
const DOCS: TableDoc[] = [
  { connection: 'wh', schema: 'main', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] },
  { connection: 'wh', schema: 'main', name: 'customers', active: false },
];
const answerData = {
  sql: ORDERS_SQL,
  connection_id: 'wh',
  dialect: 'duckdb',
  tables: [
    { df_key: 'df_orders', sql: ORDERS_SQL, connection_id: 'wh', dialect: 'duckdb', columns: ['order_id', 'country', 'total_amount', 'order_date'] },
    { df_key: 'df_count', sql: 'SELECT count(*) AS n FROM orders', connection_id: 'wh', dialect: 'duckdb' },
  ],
};

test.before(async () => {
  const root = tempDir();
  const duck = (await duckdbFixture()).path!;
  for (const o of [org, otherOrg]) placeOrgFile(root, o, 'wh.duckdb', duck);
  placeOrgFile(root, org, 'lite.sqlite', sqliteFixture().path!);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  t0.org(org);
  t0.org(otherOrg);
  owner = t0.user({ orgId: org });
  colleague = t0.user({ orgId: org });
  admin = t0.user({ orgId: org, role: 'admin' });
  outsider = t0.user({ orgId: otherOrg, role: 'admin' });
  const x = t0.app.services.executor;
  await setUserAttributes(x, org, owner.id, { country: 'France' });
  await setUserAttributes(x, org, colleague.id, { country: 'Germany' });
  const liteDocs = DOCS.map((d) => ({ ...d, connection: 'lite' }));
  docs.setTables(org, undefined, [...DOCS, ...liteDocs]);
  docs.setTables(otherOrg, undefined, DOCS);
  for (const [o, who] of [[org, admin], [otherOrg, outsider]] as const) {
    const res = await client(t0, t0.session(who)).post('/api/connections', { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } });
    if (res.status !== 201) throw new Error(`${o}: ${await res.text()}`);
  }
  const lite = await client(t0, t0.session(admin)).post('/api/connections', { id: 'lite', name: 'Lite', type: 'sqlite', settings: { path: 'lite.sqlite' } });
  if (lite.status !== 201) throw new Error(await lite.text());
  ownerP = principalOf(t0, owner, org);
  ids = await seedChat(t0, ownerP, 'c-main', [
    { question: 'All orders?', answer: 'Here they are.', answerData },
    { question: 'Thanks', answer: 'You are welcome.' },
  ]);
  await seedChat(t0, ownerP, 'c-lite', [
    { question: 'Orders in SQLite?', answer: 'Here.', answerData: { tables: [{ df_key: 'df_lite', sql: 'SELECT order_id, country FROM orders ORDER BY order_id', connection_id: 'lite', dialect: 'sqlite' }] } },
  ]);
  await seedChat(t0, ownerP, 'c-cut', [
    // Rows stream out, then the recursion passes SEXTANT_QUERY_MAX_RECURSION (10,000) and the query fails.
    { question: 'Count for ever?', answer: 'Here.', answerData: { tables: [{ df_key: 'df_cut', sql: "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n, printf('%080d', n) AS pad FROM r", connection_id: 'lite', dialect: 'sqlite' }] } },
  ]);
  await seedChat(t0, ownerP, 'c-ungoverned', [
    { question: 'Customers?', answer: 'Here.', answerData: { sql: 'SELECT name FROM customers', connection_id: 'wh', dialect: 'duckdb' } },
  ]);
  await seedChat(t0, ownerP, 'c-big', [
    {
      question: 'Many rows',
      answer: 'Lots.',
      answerData: { tables: [{ df_key: 'df_big', sql: 'SELECT a.order_id FROM orders a, orders b, orders c, orders d, orders e, orders f, orders g', connection_id: 'wh', dialect: 'duckdb' }] },
    },
  ]);
});
test.after.always(() => t0.stop());

const get = (path: string, credential?: string) => client(t0, credential).get(path);
const qs = (params: Record<string, string | number | undefined>) =>
  new URLSearchParams(Object.entries(params).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : [[k, String(v)]]))).toString();

/** Parses the simple CSV these tests produce (no quoted fields). */
function parseCsv(text: string): string[][] {
  return text.split('\r\n').filter((l) => l !== '').map((l) => l.split(','));
}

async function readXlsx(res: Response): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(await res.arrayBuffer());
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

test('the owner downloads an answer as CSV by message_uuid, by message_position or by default the latest answer, filtered by their row filters', async (t) => {
  const token = t0.session(owner);
  for (const params of [{ message_uuid: ids[1]! }, { message_position: 1 }, {}]) {
    const res = await get(`/api/download_big_csv?${qs({ chat_id: 'c-main', ...params })}`, token);
    t.is(res.status, 200);
    t.regex(res.headers.get('content-type') ?? '', /^text\/csv/);
    // The chat's title and the answer's date, not internal ids; "?" cannot be in a file name.
    t.regex(res.headers.get('content-disposition') ?? '', /^attachment; filename="All orders \d{4}-\d{2}-\d{2}\.csv"; filename\*=UTF-8''All%20orders%20\d{4}-\d{2}-\d{2}\.csv$/);
    t.deepEqual(parseCsv(await res.text()), [
      ['order_id', 'country', 'total_amount', 'order_date'],
      ['2', 'France', '20.00', '2024-02-03'],
      ['5', 'France', '5.00', '2024-05-06'],
    ]);
  }
});

test('answers of other warehouses stream through the row writer with the same CSV shape and row filters', async (t) => {
  const res = await get(`/api/download_big_csv_agentic?${qs({ chat_id: 'c-lite', df_key: 'df_lite' })}`, t0.session(owner));
  t.is(res.status, 200);
  t.is(await res.text(), 'order_id,country\r\n2,France\r\n5,France\r\n');
});

test('the token query parameter works with a session JWT and with an API token', async (t) => {
  for (const token of [t0.session(owner), t0.token(owner)]) {
    const res = await get(`/api/download_big_csv_agentic?${qs({ chat_id: 'c-main', df_key: 'df_count', token })}`);
    t.is(res.status, 200);
    t.regex(res.headers.get('content-disposition') ?? '', /^attachment; filename="All orders \d{4}-\d{2}-\d{2}( \(\d\))?\.csv"/);
    t.deepEqual(parseCsv(await res.text()), [['n'], ['2']]);
  }
  t.is((await get(`/api/download_big_csv_agentic?${qs({ chat_id: 'c-main', df_key: 'df_count', token: 'not-a-token' })}`)).status, 401);
});

test('download_excel and download_excel_agentic stream a workbook with typed numbers', async (t) => {
  const token = t0.session(owner);
  for (const path of [`/api/download_excel?${qs({ chat_id: 'c-main', message_uuid: ids[1]! })}`, `/api/download_excel_agentic?${qs({ chat_id: 'c-main', df_key: 'df_orders' })}`]) {
    const res = await get(path, token);
    t.is(res.status, 200);
    t.is(res.headers.get('content-type'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    t.regex(res.headers.get('content-disposition') ?? '', /^attachment; filename="All orders \d{4}-\d{2}-\d{2}( \(\d\))?\.xlsx"/);
    t.deepEqual(await readXlsx(res), [
      ['order_id', 'country', 'total_amount', 'order_date'],
      [2, 'France', 20, '2024-02-03'],
      [5, 'France', 5, '2024-05-06'],
    ]);
  }
});

test.serial('the query re-runs as the downloader: an admin of the organization gets every row of the owner’s answer', async (t) => {
  const res = await get(`/api/download_big_csv_agentic?${qs({ chat_id: 'c-main', df_key: 'df_orders', org_id: org })}`, t0.session(admin));
  t.is(res.status, 200);
  t.is(parseCsv(await res.text()).length, 6);
  const logged = t0.app.services.store.sqlite!.prepare("SELECT user_id, source, row_count FROM query_log WHERE user_id = ? AND source = 'download_csv' ORDER BY rowid DESC LIMIT 1").get(admin.id);
  t.deepEqual(logged, { user_id: admin.id, source: 'download_csv', row_count: 5 });
});

test.serial('another member gets 404 on a private chat, their own rows by the share\'s id once it is shared (never by the chat id), and 404 again once the share is removed', async (t) => {
  const token = t0.session(colleague);
  const byChatId = `/api/download_big_csv_agentic?${qs({ chat_id: 'c-main', df_key: 'df_orders' })}`;
  t.is((await get(byChatId, token)).status, 404);
  t.is((await get(`/api/download_excel?${qs({ chat_id: 'c-main', message_uuid: ids[1]! })}`, token)).status, 404);
  const owners = client(t0, t0.session(owner));
  const share = await owners.json<{ chat_id: string }>(owners.post('/api/share_chat', { chat_id: 'c-main' }));
  const byShare = `/api/download_big_csv_agentic?${qs({ chat_id: share.chat_id, df_key: 'df_orders' })}`;
  try {
    const res = await get(byShare, token);
    t.is(res.status, 200);
    // The colleague's own row filter (Germany), not the owner's (France).
    t.deepEqual(parseCsv(await res.text()).map((r) => r[1]), ['country', 'Germany', 'Germany']);
    t.is((await get(byChatId, token)).status, 404, 'knowing the chat id opens nothing');
    t.is((await get(byShare, t0.session(outsider))).status, 404);
  } finally {
    t.is((await owners.post('/api/delete_shared_chat', { chat_id: share.chat_id })).status, 200);
  }
  t.is((await get(byShare, token)).status, 404);
});

test.serial('a shared message is downloadable by its share id, and only that pair', async (t) => {
  const chatIds = await seedChat(t0, ownerP, 'c-two', [
    { question: 'First', answer: 'A', answerData: { tables: [{ df_key: 'df_a', sql: 'SELECT 1 AS a', connection_id: 'wh', dialect: 'duckdb' }] } },
    { question: 'Second', answer: 'B', answerData: { tables: [{ df_key: 'df_b', sql: 'SELECT 2 AS b', connection_id: 'wh', dialect: 'duckdb' }] } },
  ]);
  const share = await client(t0, t0.session(owner)).json<{ chat_id: string }>(client(t0, t0.session(owner)).post('/api/share_message', { chat_id: 'c-two', message_uuid: chatIds[3]! }));
  const token = t0.session(colleague);
  const res = await get(`/api/download_big_csv_agentic?${qs({ chat_id: share.chat_id, df_key: 'df_b' })}`, token);
  t.is(res.status, 200);
  t.deepEqual(parseCsv(await res.text()), [['b'], ['2']]);
  t.is((await get(`/api/download_big_csv_agentic?${qs({ chat_id: share.chat_id, df_key: 'df_a' })}`, token)).status, 404);
  t.is((await get(`/api/download_big_csv?${qs({ chat_id: 'c-two', message_uuid: chatIds[3]! })}`, token)).status, 404);
  // Shares never reach across organizations.
  t.is((await get(`/api/download_big_csv_agentic?${qs({ chat_id: share.chat_id, df_key: 'df_b' })}`, t0.session(outsider))).status, 404);
});

test('another organization gets 404, and so does an org_id that is not the caller’s', async (t) => {
  t.is((await get(`/api/download_big_csv?${qs({ chat_id: 'c-main' })}`, t0.session(outsider))).status, 404);
  t.is((await get(`/api/download_big_csv?${qs({ chat_id: 'c-main', org_id: otherOrg })}`, t0.session(owner))).status, 404);
  t.is((await get(`/api/download_excel_agentic?${qs({ chat_id: 'c-main', df_key: 'df_orders', org_id: otherOrg })}`, t0.session(admin))).status, 404);
});

test('unknown chats, messages, positions and df_keys answer 404', async (t) => {
  const token = t0.session(owner);
  const cases = [
    `/api/download_big_csv?${qs({ chat_id: 'nope' })}`,
    `/api/download_big_csv?${qs({ chat_id: 'c-main', message_uuid: 'nope' })}`,
    `/api/download_big_csv?${qs({ chat_id: 'c-main', message_position: 3 })}`,
    `/api/download_big_csv?${qs({ chat_id: 'c-main', message_position: 99 })}`,
    `/api/download_excel?${qs({ chat_id: 'c-main', message_uuid: ids[0]! })}`,
    `/api/download_big_csv_agentic?${qs({ chat_id: 'c-main', df_key: 'nope' })}`,
    `/api/download_excel_agentic?${qs({ chat_id: 'c-main', df_key: 'nope' })}`,
  ];
  for (const path of cases) t.is((await get(path, token)).status, 404, path);
});

test('missing chat_id, df_key or message_uuid and a bad message_position answer 422 naming the parameter', async (t) => {
  const token = t0.session(owner);
  const cases: [string, string][] = [
    ['/api/download_big_csv', 'chat_id'],
    [`/api/download_big_csv?${qs({ chat_id: 'c-main', message_position: 'abc' })}`, 'message_position'],
    [`/api/download_big_csv?${qs({ chat_id: 'c-main', message_position: '-1' })}`, 'message_position'],
    [`/api/download_big_csv?${qs({ chat_id: 'c-main', message_position: '1.5' })}`, 'message_position'],
    [`/api/download_excel?${qs({ chat_id: 'c-main' })}`, 'message_uuid'],
    [`/api/download_big_csv_agentic?${qs({ chat_id: 'c-main' })}`, 'df_key'],
    [`/api/download_excel_agentic?${qs({ df_key: 'df_orders' })}`, 'chat_id'],
  ];
  for (const [path, field] of cases) {
    const res = await get(path, token);
    t.is(res.status, 422, path);
    t.deepEqual(((await res.json()) as { detail: { loc: string[] }[] }).detail[0]?.loc, ['query', field]);
  }
});

test('every download endpoint answers 401 without a credential', async (t) => {
  for (const path of ['download_big_csv?chat_id=c-main', 'download_excel?chat_id=c-main&message_uuid=x', 'download_big_csv_agentic?chat_id=c-main&df_key=df_orders', 'download_excel_agentic?chat_id=c-main&df_key=df_orders']) {
    t.is((await get(`/api/${path}`)).status, 401, path);
  }
});

test('an answer that reads a source the downloader may not query is refused before anything is sent', async (t) => {
  const res = await get(`/api/download_big_csv?${qs({ chat_id: 'c-ungoverned' })}`, t0.session(owner));
  t.is(res.status, 400);
  t.like(await res.json(), { code: 'QUERY_REFUSED', data: { reason: 'ungoverned_table' } });
});

test.serial('a destination that goes away stops the query, CSV (DuckDB’s writer) and Excel (row stream) alike, and it is logged', async (t) => {
  const adminP = principalOf(t0, admin, org);
  const db = t0.app.services.store.sqlite!;
  for (const format of ['csv', 'xlsx'] as const) {
    const download = await prepareDownload(
      { chats: deps(t0), data: t0.app.services.data },
      { principal: adminP, environmentId: undefined, chatId: 'c-big', at: { dfKey: 'df_big' }, format },
    );
    // Gone at the first write: DuckDB's file may arrive in one read when the COPY outruns the reader,
    // so a later write might never come.
    const out: Writable = new Writable({
      highWaterMark: 1024,
      write() {
        out.destroy();
      },
    });
    await t.throwsAsync(download.writeTo(out), { code: 'EXPORT_ABORTED' });
    const logged = db.prepare('SELECT status, error_code, row_count FROM query_log WHERE user_id = ? AND source = ? ORDER BY rowid DESC LIMIT 1').get(admin.id, `download_${format === 'csv' ? 'csv' : 'excel'}`) as
      | { status: string; error_code: string | null; row_count: number }
      | undefined;
    // DuckDB's writer cannot say how many rows left before the cut; the row stream can.
    if (format === 'csv') t.like(logged, { status: 'failed', error_code: 'EXPORT_ABORTED' });
    else t.true(logged !== undefined && logged.status === 'ok' && logged.row_count < 78_125);
  }
});

test.serial('a download that is never written releases its query', async (t) => {
  const adminP = principalOf(t0, admin, org);
  for (const format of ['csv', 'xlsx'] as const) {
    const download = await prepareDownload({ chats: deps(t0), data: t0.app.services.data }, { principal: adminP, environmentId: undefined, chatId: 'c-big', at: { dfKey: 'df_big' }, format });
    await download.cancel();
    const source = `download_${format === 'csv' ? 'csv' : 'excel'}`;
    const logged = t0.app.services.store.sqlite!.prepare('SELECT status FROM query_log WHERE user_id = ? AND source = ? ORDER BY rowid DESC LIMIT 1').get(admin.id, source);
    t.deepEqual(logged, { status: 'ok' });
  }
});

/** The raw bytes of a response and whether it ended properly (with the chunked stream's last chunk). */
function rawGet(path: string, token: string): Promise<{ status: number; text: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    httpGet(t0.url + path, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('close', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), complete: res.complete }));
    }).on('error', reject);
  });
}

test('a CSV download that fails after its first rows ends with a marker line and an incomplete response', async (t) => {
  const r = await rawGet(`/api/download_big_csv_agentic?${qs({ chat_id: 'c-cut', df_key: 'df_cut' })}`, t0.session(owner));
  t.is(r.status, 200);
  t.false(r.complete, 'the chunked response is cut, not ended');
  const lines = r.text.split('\r\n');
  t.is(lines[0], 'n,pad');
  t.is(lines[1], `1,${'1'.padStart(80, '0')}`);
  t.true(lines.length > 100, `${lines.length} lines`);
  t.is(lines.at(-1), '');
  t.regex(lines.at(-2)!, /^# sextant: download cut: QUERY_RECURSION_LIMIT: The recursive query went past 10000 rows/);
  // Every line before the marker is a whole row.
  t.true(lines.slice(1, -3).every((l) => /^\d+,\d{80}$/.test(l)));
});

test('the CSV download routes document the cut marker', async (t) => {
  const doc = (await (await get('/openapi.json')).json()) as { paths: Record<string, { get: { description?: string } }> };
  for (const path of ['/api/download_big_csv', '/api/download_big_csv_agentic']) t.regex(doc.paths[path]!.get.description ?? '', /# sextant: download cut: <CODE>: <message>/);
});

test('a large answer streams completely through the endpoint', async (t) => {
  const res = await get(`/api/download_big_csv_agentic?${qs({ chat_id: 'c-big', df_key: 'df_big' })}`, t0.session(admin));
  t.is(res.status, 200);
  const text = await res.text();
  t.is(text.split('\r\n').length - 2, 78_125);
});
