// The query log written through a commit group: the entries of one turn (a dashboard's viewers
// answered by one shared execution) commit in one batch, each with the tables it read, and each
// caller's promise settles only after its entry has committed.
import test from 'ava';
import { logQuery, type QueryLogEntry } from '../../../src/data/query/index.ts';
import { CommitGroup } from '../../../src/store/index.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
test.before(async () => {
  t0 = await startTestApp();
});
test.after.always(() => t0.stop());

const entry = (orgId: string, userId: string, sql: string): QueryLogEntry => ({ orgId, userId, connectionId: 'wh', environmentId: undefined, sql, tables: ['main.sales', 'main.sales', 'main.regions'], status: 'ok', rowCount: 1, durationMs: 3, source: 'dashboard' });
const rows = (sql: string) => t0.app.services.store.sqlite!.prepare('SELECT q.user_id, count(t.table_name) AS tables FROM query_log q LEFT JOIN query_log_tables t ON t.query_id = q.id WHERE q.sql = ? GROUP BY q.id ORDER BY q.user_id').all(sql);

test('entries logged in one turn commit in one batch with their tables, and each caller is answered after the commit', async (t) => {
  const org = t0.org();
  const users = [t0.user({ orgId: org }).id, t0.user({ orgId: org }).id, t0.user({ orgId: org }).id].sort();
  const x = t0.app.services.executor;
  const batches: number[] = [];
  const group = new CommitGroup({ ...x, batch: (qs, options) => (batches.push(qs.length), x.batch(qs, options)) });
  const sql = 'SELECT region FROM sales JOIN regions USING (region)';
  const logged = Promise.all(users.map((u) => logQuery(t0.app.services.data.store, t0.clock, entry(org, u, sql), group)));
  t.deepEqual(rows(sql), [], 'nothing written before the end of the turn');
  const ids = await logged;
  t.is(new Set(ids).size, 3);
  t.deepEqual(batches, [6], 'three entries and their tables, one batch');
  t.deepEqual(rows(sql), users.map((user_id) => ({ user_id, tables: 2 })));
});

test("an entry the store refuses fails its caller alone, with none of its tables; the others' are written", async (t) => {
  const org = t0.org();
  const user = t0.user({ orgId: org }).id;
  const group = new CommitGroup(t0.app.services.executor);
  const sql = 'SELECT 2 AS two FROM sales JOIN regions USING (region)';
  const store = t0.app.services.data.store;
  const [ok, refused] = await Promise.allSettled([logQuery(store, t0.clock, entry(org, user, sql), group), logQuery(store, t0.clock, entry(org, 'no-such-user', sql), group)]);
  t.is(ok.status, 'fulfilled');
  t.is(refused.status, 'rejected');
  t.deepEqual(rows(sql), [{ user_id: user, tables: 2 }]);
  t.is((t0.app.services.store.sqlite!.prepare("SELECT count(*) AS n FROM query_log_tables t WHERE NOT EXISTS (SELECT 1 FROM query_log q WHERE q.id = t.query_id)").get() as { n: number }).n, 0);
});
