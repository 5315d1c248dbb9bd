// Identical governed statements running at once share one execution: each caller gets the rows and
// a query-log entry of its own; a caller leaving does not stop the others, the last one leaving does.
import test from 'ava';
import { principalFor, getUser } from '../../../src/auth/index.ts';
import { createConnection } from '../../../src/data/connections/index.ts';
import { executeShared, sharedExecutions } from '../../../src/data/query/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../warehouses.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
let org: string;
const users: string[] = [];
/** Long enough (about a second) that callers governed meanwhile find it running. */
const SLOW = 'SELECT count(*) AS n FROM big a, big b WHERE a.id < 3000 AND (a.id + b.id) % 7 = 0';

test.before(async () => {
  const root = tempDir();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  org = t0.org();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture(['CREATE TABLE big AS SELECT range AS id FROM range(25000)'])).path!);
  const s = t0.app.services;
  for (let i = 0; i < 3; i++) users.push(t0.user({ orgId: org, role: 'admin' }).id);
  await createConnection({ store: s.data.store, clock: s.clock, secretBox: s.secretBox, fileRoots: s.config.data.warehouseRoots, checkHost: s.data.checkHost }, org, users[0]!, {
    id: 'wh',
    name: 'wh',
    type: 'duckdb',
    settings: { path: 'wh.duckdb' },
  });
});
test.after.always(() => t0.stop());

const principal = async (id: string) => (await principalFor(t0.app.services.executor, (await getUser(t0.app.services.executor, id))!, org, 'session', []))!;
const logged = (sql: string) => t0.app.services.store.sqlite!.prepare('SELECT user_id, status FROM query_log WHERE sql = ? ORDER BY user_id').all(sql);

test.serial('callers of one statement at once share its execution, each logged as theirs', async (t) => {
  const running = sharedExecutions();
  const results = await Promise.all(users.map(async (u) => executeShared(t0.app.services.data, running, { principal: await principal(u), environmentId: undefined, connectionId: 'wh', sql: SLOW, source: 'dashboard' })));
  t.deepEqual(results.map((r) => r.rows), [results[0]!.rows, results[0]!.rows, results[0]!.rows]);
  t.is(results.filter((r) => !r.shared).length, 1, 'one execution');
  t.deepEqual(logged(SLOW), [...users].sort().map((user_id) => ({ user_id, status: 'ok' })));
  t.is(running.size, 0, 'forgotten once done');
  // Another statement is never shared, even while one runs.
  const [a, b] = await Promise.all([
    executeShared(t0.app.services.data, running, { principal: await principal(users[0]!), environmentId: undefined, connectionId: 'wh', sql: SLOW, source: 'dashboard' }),
    executeShared(t0.app.services.data, running, { principal: await principal(users[1]!), environmentId: undefined, connectionId: 'wh', sql: 'SELECT count(*) AS n FROM big', source: 'dashboard' }),
  ]);
  t.false(a.shared);
  t.false(b.shared);
  t.is(Number(b.rows[0]![0]), 25000);
});

test.serial('a caller leaving leaves the execution to the others; the last one leaving stops it', async (t) => {
  const running = sharedExecutions();
  const leaving = new AbortController();
  const first = executeShared(t0.app.services.data, running, { principal: await principal(users[0]!), environmentId: undefined, connectionId: 'wh', sql: SLOW, signal: leaving.signal });
  const staying = executeShared(t0.app.services.data, running, { principal: await principal(users[1]!), environmentId: undefined, connectionId: 'wh', sql: SLOW });
  while (running.size === 0) await new Promise((r) => setImmediate(r)); // the execution has begun
  leaving.abort();
  const kept = await staying;
  t.is(kept.rows.length, 1);
  await first.catch(() => undefined);
  const alone = new AbortController();
  const stopped = executeShared(t0.app.services.data, running, { principal: await principal(users[2]!), environmentId: undefined, connectionId: 'wh', sql: SLOW, signal: alone.signal });
  while (running.size === 0) await new Promise((r) => setImmediate(r));
  alone.abort();
  await t.throwsAsync(stopped, { code: 'QUERY_CANCELLED' });
});
