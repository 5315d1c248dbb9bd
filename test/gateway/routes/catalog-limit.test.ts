// GET /api/cli/catalog?limit=: the SQL editor asks for every table the caller may read, not only the
// 50 most used, to complete their names; the default stays the interface's 50, the same governance
// applies (non-admins see active documented tables only; another organization sees none of them).
import test from 'ava';
import { createMemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import type { TableDoc } from '../../../src/data/types.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../../data/warehouses.ts';
import { call } from '../../helpers/api.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
const org = 'climit';
let admin: string, analyst: string, otherAdmin: string;
// 60 documented tables, the last 5 withdrawn (inactive).
const DOCS: TableDoc[] = Array.from({ length: 60 }, (_, i) => ({ connection: 'wh', schema: 'main', name: `t${String(i).padStart(2, '0')}`, active: i < 55, columns: [{ name: 'id' }] }));

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture()).path!);
  const docs = createMemoryTableDocs();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  t0.org(org);
  t0.org('climit-other');
  admin = t0.session(t0.user({ orgId: org, role: 'admin' }));
  analyst = t0.session(t0.user({ orgId: org, role: 'user' }));
  otherAdmin = t0.session(t0.user({ orgId: 'climit-other', role: 'admin' }));
  docs.setTables(org, undefined, DOCS);
  const res = await call(t0, 'POST', '/api/connections', { token: admin, body: { id: 'wh', name: 'Warehouse', type: 'duckdb', settings: { path: 'wh.duckdb' } } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
});
test.after.always(() => t0?.stop());

const tables = async (token: string, query = '') => {
  const res = await call(t0, 'GET', `/api/cli/catalog${query}`, { token });
  return { status: res.status, names: (res.body?.top_tables ?? []).map((x: { table: string }) => x.table) as string[], body: res.body };
};

test('50 tables by default; a limit brings more, each with its columns, active ones only', async (t) => {
  t.is((await tables(analyst)).names.length, 50);
  const all = await tables(analyst, '?limit=1000');
  t.is(all.status, 200);
  t.is(all.names.length, 55);
  t.false(all.names.includes('main.t59'), 'withdrawn tables stay hidden from non-admins');
  t.deepEqual(all.body.top_tables[0].columns, [{ name: 'id' }]);
  t.is((await tables(admin, '?limit=3')).names.length, 3);
  t.deepEqual((await tables(otherAdmin, '?limit=1000')).names, [], 'another organization');
});

test('a limit outside 1 to 1000 answers 422 naming it; no credential is 401', async (t) => {
  for (const q of ['?limit=0', '?limit=1001', '?limit=many']) {
    const res = await call(t0, 'GET', `/api/cli/catalog${q}`, { token: analyst });
    t.is(res.status, 422, q);
    t.deepEqual(res.body.detail[0].loc, ['query', 'limit'], q);
  }
  t.is((await call(t0, 'GET', '/api/cli/catalog?limit=5')).status, 401);
});
