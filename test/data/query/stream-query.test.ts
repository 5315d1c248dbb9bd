import test from 'ava';
import { principalFor, getUser } from '../../../src/auth/index.ts';
import { createConnection } from '../../../src/data/connections/index.ts';
import { streamQuery } from '../../../src/data/query/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../warehouses.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
let root: string;
let fixture: string;
test.before(async () => {
  root = tempDir();
  fixture = (await duckdbFixture(['CREATE TABLE big AS SELECT range AS id FROM range(25000)'])).path!;
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
});
test.after.always(() => t0.stop());

test('exports stream every row in batches without the default limit, and the log is written when iteration ends', async (t) => {
  const s = t0.app.services;
  const org = t0.org();
  placeOrgFile(root, org, 'wh.duckdb', fixture);
  const u = t0.user({ orgId: org, role: 'admin' });
  await createConnection({ store: s.data.store, clock: s.clock, secretBox: s.secretBox, fileRoots: s.config.data.warehouseRoots, checkHost: s.data.checkHost }, org, u.id, {
    id: 'wh',
    name: 'wh',
    type: 'duckdb',
    settings: { path: 'wh.duckdb' },
  });
  const principal = (await principalFor(s.executor, (await getUser(s.executor, u.id))!, org, 'session', []))!;
  const stream = await streamQuery(s.data, { principal, environmentId: undefined, connectionId: 'wh', sql: 'SELECT id FROM big', source: 'export' });
  t.deepEqual(stream.columns, [{ name: 'id', type: 'BIGINT' }]);
  t.is(stream.queryId(), undefined);
  let rows = 0;
  let batches = 0;
  for await (const b of stream.batches) {
    rows += b.length;
    batches++;
  }
  t.is(rows, 25000);
  t.true(batches >= 25);
  t.false(stream.truncated());
  const logged = s.store.sqlite!.prepare('SELECT row_count, source, status FROM query_log WHERE id = ?').get(stream.queryId()!);
  t.deepEqual(logged, { row_count: 25000, source: 'export', status: 'ok' });
});

test('stopping early closes the session and logs the rows read', async (t) => {
  const s = t0.app.services;
  const org = t0.org();
  placeOrgFile(root, org, 'wh.duckdb', fixture);
  const u = t0.user({ orgId: org, role: 'admin' });
  await createConnection({ store: s.data.store, clock: s.clock, secretBox: s.secretBox, fileRoots: s.config.data.warehouseRoots, checkHost: s.data.checkHost }, org, u.id, {
    id: 'wh',
    name: 'wh',
    type: 'duckdb',
    settings: { path: 'wh.duckdb' },
  });
  const principal = (await principalFor(s.executor, (await getUser(s.executor, u.id))!, org, 'session', []))!;
  const stream = await streamQuery(s.data, { principal, environmentId: undefined, connectionId: 'wh', sql: 'SELECT id FROM big', rowLimit: 1500 });
  let rows = 0;
  for await (const b of stream.batches) rows += b.length;
  t.is(rows, 1500);
  t.true(stream.truncated());
  t.truthy(stream.queryId());
});
