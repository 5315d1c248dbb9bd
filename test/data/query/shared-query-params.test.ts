// A dashboard's filter values are part of the statement a shared execution stands for: viewers asking
// the same tile with other values at the same time each get their own rows, never another's.
import test from 'ava';
import { principalFor, getUser } from '../../../src/auth/index.ts';
import { createConnection } from '../../../src/data/connections/index.ts';
import { executeShared, filterResultSql, sharedExecutions } from '../../../src/data/query/index.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../warehouses.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
let org: string;
const users: string[] = [];
/** Long enough (about a second) that the second caller is governed while the first runs. */
// The filter is on an aggregate, so the engine cannot narrow the join with it: every value costs the same.
const SLOW = 'SELECT max(a.id % 7) AS k, count(*) AS n FROM big a, big b WHERE a.id < 3000 AND (a.id + b.id) % 7 = 0 GROUP BY a.id % 7';

test.before(async () => {
  const root = tempDir();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root });
  org = t0.org();
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture(['CREATE TABLE big AS SELECT range AS id FROM range(25000)'])).path!);
  const s = t0.app.services;
  for (let i = 0; i < 2; i++) users.push(t0.user({ orgId: org, role: 'admin' }).id);
  await createConnection({ store: s.data.store, clock: s.clock, secretBox: s.secretBox, fileRoots: s.config.data.warehouseRoots, checkHost: s.data.checkHost }, org, users[0]!, {
    id: 'wh',
    name: 'wh',
    type: 'duckdb',
    settings: { path: 'wh.duckdb' },
  });
});
test.after.always(() => t0.stop());

const principal = async (id: string) => (await principalFor(t0.app.services.executor, (await getUser(t0.app.services.executor, id))!, org, 'session', []))!;

test('one statement with other bound values at the same time is another execution, with its own rows', async (t) => {
  const running = sharedExecutions(t0.clock);
  const ask = async (user: string, k: number) => {
    const { sql, params } = filterResultSql('duckdb', SLOW, [{ field: 'k', values: [k] }]);
    return executeShared(t0.app.services.data, running, { principal: await principal(user), environmentId: undefined, connectionId: 'wh', sql, params, source: 'dashboard' });
  };
  const first = ask(users[0]!, 1);
  while (running.running.size === 0) await new Promise((r) => setImmediate(r)); // the first execution has begun
  const [one, two, again] = await Promise.all([first, ask(users[1]!, 2), ask(users[1]!, 1)]);
  t.deepEqual(one.rows.map((r) => Number(r[0])), [1]);
  t.deepEqual(two.rows.map((r) => Number(r[0])), [2]);
  t.false(two.shared, 'other values are not shared');
  t.deepEqual(again.rows, one.rows);
  t.true(again.shared, 'the same values are');
});
