// Identical governed statements running at once share one execution, and a result read seconds ago
// serves the same statement again: each caller passes its own governance first (before any query
// process is taken), gets the rows and a query-log entry of its own, and callers whose row security
// differs never share. A caller leaving does not stop the others, the last one leaving does; a
// fresh read bypasses what was read before.
import test from 'ava';
import { principalFor, getUser } from '../../../src/auth/index.ts';
import { createConnection, deleteConnection } from '../../../src/data/connections/index.ts';
import { executeShared, requestReads, sharedExecutions, type RequestReads, type SharedExecutions } from '../../../src/data/query/index.ts';
import { RECENT_RESULT_MS } from '../../../src/data/query/recent-results.ts';
import { setUserAttributes } from '../../../src/data/rls/index.ts';
import type { QueryProcessPool } from '../../../src/data/drivers/process/query-process-pool.ts';
import type { EnvironmentTargets, TableDoc, TableDocsSource } from '../../../src/data/types.ts';
import { duckdbFixture, placeOrgFile, tempDir } from '../warehouses.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

let t0: TestApp;
let org: string;
const users: string[] = [];
/** Analysts with a region: France, Germany, France. */
const analysts: string[] = [];
/** Long enough (about a second) that callers governed meanwhile find it running. */
const SLOW = 'SELECT count(*) AS n FROM big a, big b WHERE a.id < 3000 AND (a.id + b.id) % 7 = 0';
const SALES = 'SELECT region, sum(amount) AS amount FROM sales GROUP BY region ORDER BY region';

/** One snapshot's docs, the same array on every read, as the knowledge repository hands them out. */
const DOCS: TableDoc[] = [
  { connection: 'wh', schema: 'main', name: 'sales', active: true, row_filters: [{ filter: 'region = {{user.region}}' }] },
  { connection: 'wh', schema: 'main', name: 'big', active: false },
];
const docs: TableDocsSource = {
  listTables: async () => DOCS,
  targets: async () => ({}),
  // The environment `dev` reads this connection's tables from schema `dev` where they exist there.
  governance: async (_org, env) => ({ commit: undefined, tables: DOCS, targets: (env === 'dev' ? { wh: { schema: 'dev' } } : {}) as EnvironmentTargets }),
  writeSyncedTables: async () => undefined,
};

test.before(async () => {
  const root = tempDir();
  t0 = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  org = t0.org();
  const sales = [
    "CREATE TABLE sales AS SELECT * FROM (VALUES ('France', 10), ('France', 5), ('Germany', 7), ('Japan', 1)) v(region, amount)",
    'CREATE SCHEMA dev',
    "CREATE TABLE dev.sales AS SELECT * FROM (VALUES ('France', 100)) v(region, amount)",
  ];
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture(['CREATE TABLE big AS SELECT range AS id FROM range(25000)', ...sales])).path!);
  const s = t0.app.services;
  for (let i = 0; i < 3; i++) users.push(t0.user({ orgId: org, role: 'admin' }).id);
  for (const region of ['France', 'Germany', 'France']) {
    const u = t0.user({ orgId: org, role: 'user' }).id;
    await setUserAttributes(s.executor, org, u, { region });
    analysts.push(u);
  }
  await createConnection({ store: s.data.store, clock: s.clock, secretBox: s.secretBox, fileRoots: s.config.data.warehouseRoots, checkHost: s.data.checkHost }, org, users[0]!, {
    id: 'wh',
    name: 'wh',
    type: 'duckdb',
    settings: { path: 'wh.duckdb' },
  });
});
test.after.always(() => t0.stop());

const principal = async (id: string) => (await principalFor(t0.app.services.executor, (await getUser(t0.app.services.executor, id))!, org, 'session', []))!;
const logged = (sql: string) => t0.app.services.store.sqlite!.prepare('SELECT user_id, status, tables FROM query_log WHERE sql = ? ORDER BY user_id').all(sql) as { user_id: string; status: string; tables: string }[];
const run = async (shared: SharedExecutions, user: string, sql: string, more: { signal?: AbortSignal; fresh?: boolean; reads?: RequestReads } = {}) =>
  executeShared(t0.app.services.data, shared, { principal: await principal(user), environmentId: undefined, connectionId: 'wh', sql, source: 'dashboard', ...more });
/** Sets of executions that have seen the connection once already (its default schema is known). */
async function warmed(): Promise<SharedExecutions> {
  const shared = sharedExecutions(t0.clock);
  await run(shared, users[0]!, 'SELECT 1 AS one', { fresh: true });
  return shared;
}
/** Counts the query processes leased while `f` runs. */
async function leases<T>(f: () => Promise<T>): Promise<{ result: T; leased: number }> {
  const pool: QueryProcessPool = t0.app.services.data.queryProcesses;
  const lease = pool.lease.bind(pool);
  let leased = 0;
  pool.lease = (o) => (leased++, lease(o));
  try {
    return { result: await f(), leased };
  } finally {
    pool.lease = lease;
  }
}
const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setImmediate(r));
};

test.serial('callers of one statement at once share its execution, each logged as theirs', async (t) => {
  const running = sharedExecutions(t0.clock);
  const results = await Promise.all(users.map((u) => run(running, u, SLOW)));
  t.deepEqual(results.map((r) => r.rows), [results[0]!.rows, results[0]!.rows, results[0]!.rows]);
  t.is(results.filter((r) => !r.shared).length, 1, 'one execution');
  t.deepEqual(logged(SLOW).map(({ user_id, status }) => ({ user_id, status })), [...users].sort().map((user_id) => ({ user_id, status: 'ok' })));
  t.is(running.running.size, 0, 'forgotten once done');
  // Another statement is never shared, even while one runs.
  t0.clock.advance(RECENT_RESULT_MS);
  const [a, b] = await Promise.all([run(running, users[0]!, SLOW), run(running, users[1]!, 'SELECT count(*) AS n FROM big')]);
  t.false(a.shared);
  t.false(b.shared);
  t.is(Number(b.rows[0]![0]), 25000);
});

test.serial('once the connection is known, callers are governed before a query process is taken: one process between them', async (t) => {
  const shared = await warmed();
  const { result, leased } = await leases(() => Promise.all(users.map((u) => run(shared, u, `${SLOW} AND a.id > 1`))));
  t.is(result.filter((r) => !r.shared).length, 1);
  t.is(leased, 1, 'only the execution took a process');
  // A refusal never takes one either, and is logged as the caller's.
  const refused = await leases(() => run(shared, analysts[0]!, 'SELECT count(*) FROM big').catch((err: { code: string }) => err.code));
  t.deepEqual(refused, { result: 'QUERY_REFUSED', leased: 0 });
  t.like(logged('SELECT count(*) FROM big')[0], { user_id: analysts[0], status: 'refused', tables: '["main.big"]' });
});

test.serial('viewers whose row filters differ never share, at the same moment or seconds apart; those whose filters agree do', async (t) => {
  const shared = await warmed();
  t0.clock.advance(RECENT_RESULT_MS);
  const [fr, de, fr2] = await Promise.all(analysts.map((u) => run(shared, u, SALES)));
  t.deepEqual(fr!.rows.map((r) => [r[0], Number(r[1])]), [['France', 15]]);
  t.deepEqual(de!.rows.map((r) => [r[0], Number(r[1])]), [['Germany', 7]]);
  t.deepEqual(fr2!.rows, fr!.rows);
  t.is([fr, de, fr2].filter((r) => !r!.shared).length, 2, 'one execution per row-security identity');
  // Seconds later, the German analyst's result serves the German analyst only.
  t0.clock.advance(1000);
  t.deepEqual((await run(shared, analysts[0]!, SALES)).rows, fr!.rows);
  const again = await run(shared, analysts[1]!, SALES);
  t.true(again.shared);
  t.deepEqual(again.rows, de!.rows);
  t.is(logged(SALES).length, 5, 'every caller logged');
});

test.serial('a result read seconds ago serves the same statement with its own read time; a fresh read and its age bypass it', async (t) => {
  const shared = await warmed();
  const sql = 'SELECT count(*) AS n FROM big WHERE id % 3 = 0';
  const first = await run(shared, users[0]!, sql);
  t0.clock.advance(1000);
  const { result: later, leased } = await leases(() => run(shared, users[1]!, sql));
  t.like(later, { shared: true, readAt: first.readAt });
  t.is(leased, 0);
  const fresh = await run(shared, users[1]!, sql, { fresh: true });
  t.like(fresh, { shared: false, readAt: t0.clock.now() });
  t0.clock.advance(RECENT_RESULT_MS);
  t.false((await run(shared, users[2]!, sql)).shared, 'too old to serve');
  t.deepEqual(logged(sql).map((r) => r.status), ['ok', 'ok', 'ok', 'ok']);
});

test.serial('a statement governed for a default schema the warehouse no longer has is governed again', async (t) => {
  const shared = await warmed();
  const known = [...shared.schemas.values()][0]!;
  for (const k of shared.schemas.keys()) shared.schemas.set(k, { ...known, schema: 'elsewhere' });
  const sql = 'SELECT count(*) AS n FROM big WHERE id < 10';
  const r = await run(shared, users[0]!, sql);
  t.is(Number(r.rows[0]![0]), 10);
  t.deepEqual(logged(sql).map(({ status, tables }) => [status, tables]), [['ok', '["main.big"]']]);
  t.is([...shared.schemas.values()][0]!.schema, 'main', 'learned again');
});

test.serial("an environment's target schema is read through a session opened first, and never shares with production", async (t) => {
  const shared = await warmed();
  const modeler = t0.user({ orgId: org, role: 'modeler' }).id;
  await setUserAttributes(t0.app.services.executor, org, modeler, { region: 'France' });
  const as = async (environmentId: string | undefined) =>
    executeShared(t0.app.services.data, shared, { principal: await principal(modeler), environmentId, connectionId: 'wh', sql: SALES, source: 'dashboard' });
  const [dev, prod] = await Promise.all([as('dev'), as(undefined)]);
  t.deepEqual(dev.rows.map((r) => Number(r[1])), [100]);
  t.deepEqual(prod.rows.map((r) => Number(r[1])), [15]);
  t.false(dev.shared);
  t.false(prod.shared);
});

test.serial('a caller leaving leaves the execution to the others; the last one leaving stops it', async (t) => {
  const running = await warmed();
  t0.clock.advance(RECENT_RESULT_MS);
  const leaving = new AbortController();
  const first = run(running, users[0]!, SLOW, { signal: leaving.signal });
  const staying = run(running, users[1]!, SLOW);
  await until(() => [...running.running.values()][0]?.waiters === 2); // both wait for one execution
  leaving.abort();
  const kept = await staying;
  t.is(kept.rows.length, 1);
  t.true(kept.shared, 'the execution the leaving caller started went on for the other');
  await first.catch(() => undefined);
  const alone = new AbortController();
  const stopped = run(running, users[2]!, SLOW, { signal: alone.signal, fresh: true });
  await until(() => running.running.size > 0);
  alone.abort();
  await t.throwsAsync(stopped, { code: 'QUERY_CANCELLED' });
});

test.serial("the queries of one request read the viewer's row-security facts once, as of the request; the next request reads them again", async (t) => {
  const shared = await warmed();
  const reads = requestReads();
  const france = await run(shared, analysts[0]!, SALES, { fresh: true, reads });
  t.deepEqual(france.rows.map((r) => r[0]), ['France']);
  await setUserAttributes(t0.app.services.executor, org, analysts[0]!, { region: 'Germany' });
  try {
    // A later tile of the same request is governed by the same facts as its first one.
    t.deepEqual((await run(shared, analysts[0]!, SALES, { fresh: true, reads })).rows, france.rows);
    t.deepEqual((await run(shared, analysts[0]!, SALES, { fresh: true, reads: requestReads() })).rows.map((r) => r[0]), ['Germany']);
    t.deepEqual((await run(shared, analysts[0]!, SALES, { fresh: true })).rows.map((r) => r[0]), ['Germany'], 'without a request scope, as before');
  } finally {
    await setUserAttributes(t0.app.services.executor, org, analysts[0]!, { region: 'France' });
  }
});

test.serial('the queries of one request read their connection once; a connection removed meanwhile runs no query, and the next request finds it gone', async (t) => {
  const shared = await warmed();
  const s = t0.app.services;
  const deps = { store: s.data.store, clock: s.clock, secretBox: s.secretBox, fileRoots: s.config.data.warehouseRoots, checkHost: s.data.checkHost };
  await createConnection(deps, org, users[0]!, { id: 'wh2', name: 'wh2', type: 'duckdb', settings: { path: 'wh.duckdb' } });
  const reads = requestReads();
  const query = async (r: RequestReads) => executeShared(s.data, shared, { principal: await principal(users[0]!), environmentId: undefined, connectionId: 'wh2', sql: 'SELECT 1 AS one', source: 'dashboard', fresh: true, reads: r });
  t.deepEqual((await query(reads)).rows.map((r) => Number(r[0])), [1]);
  await deleteConnection(deps, org, 'wh2');
  t.like(await reads.connection(deps, org, 'wh2'), { id: 'wh2', type: 'duckdb' }, 'read once for the request');
  // Opening the warehouse still reads the connection itself, so the kept read runs nothing.
  await t.throwsAsync(query(reads), { code: 'CONNECTION_NOT_FOUND' });
  await t.throwsAsync(requestReads().connection(deps, org, 'wh2'), { code: 'CONNECTION_NOT_FOUND' });
});
