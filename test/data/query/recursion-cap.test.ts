// Recursive CTEs are capped (SEXTANT_QUERY_MAX_RECURSION), not only by time: by rows on SQLite and
// DuckDB, by depth on PostgreSQL (UNION ALL). Past the cap the statement fails with
// QUERY_RECURSION_LIMIT at once, and under it the rows come whole, row filters applied, through the
// real gateway (and a query process for the file warehouses). PostgreSQL is skipped when absent, but
// not under CI=true.
import test, { type ExecutionContext } from 'ava';
import { createMemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import { duckdbFixture, placeOrgFile, postgresFixture, sqliteFixture, SKIP_PG, tempDir } from '../warehouses.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';

const TIMEOUT_MS = 30_000;
const CAP = 1000;
const org = 'rec';
const DIALECTS = ['sqlite', 'duckdb', 'postgresql'] as const;
type Dialect = (typeof DIALECTS)[number];
const EDGES = [
  'CREATE TABLE edges (src INTEGER, dst INTEGER, big INTEGER)',
  `INSERT INTO edges VALUES ${Array.from({ length: 300 }, (_, i) => `(${i}, ${i + 1}, ${9007199254740993n + BigInt(i)})`).join(', ')}`,
];

let app: TestApp;
let analyst: string;
let pg: Awaited<ReturnType<typeof postgresFixture>>;

test.before(async () => {
  const root = tempDir();
  placeOrgFile(root, org, 'wh.sqlite', sqliteFixture(EDGES).path!);
  placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture(EDGES.map((s) => s.replace('big INTEGER', 'big BIGINT')))).path!);
  const docs = createMemoryTableDocs();
  app = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root, SEXTANT_QUERY_TIMEOUT_MS: String(TIMEOUT_MS), SEXTANT_QUERY_MAX_RECURSION: String(CAP) }, { tableDocs: docs });
  app.org(org);
  const admin = app.session(app.user({ orgId: org, role: 'admin' }));
  analyst = app.session(app.user({ orgId: org, role: 'user' }));
  pg = await postgresFixture(EDGES.map((s) => s.replace('big INTEGER', 'big BIGINT')), []);
  for (const type of DIALECTS) {
    if (type === 'postgresql' && !pg) continue;
    const settings = type === 'postgresql' ? pg!.settings : { path: `wh.${type}` };
    const res = await post('/api/connections', admin, { name: type, id: type, type, settings });
    if (res.status !== 201) throw new Error(await res.text());
  }
  // Edges past 200 are hidden from everyone by a row filter: a recursion over them stops at 200.
  docs.setTables(org, undefined, DIALECTS.map((connection) => ({ connection, schema: connection === 'postgresql' ? 'public' : 'main', name: 'edges', active: true, row_filters: [{ filter: 'src < 200' }] })));
});
test.after.always(async () => {
  await app?.stop();
  await pg?.drop();
});

function post(path: string, token: string, body: unknown) {
  return app.fetch(path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function query(connection: Dialect, sql: string): Promise<{ status: number; ms: number; body: { code?: string; rows?: unknown[][]; message?: string } }> {
  const started = performance.now();
  const res = await post('/api/execute_query', analyst, { sql, connection_id: connection });
  return { status: res.status, body: (await res.json()) as { code?: string; rows?: unknown[][] }, ms: performance.now() - started };
}

const text = (rows: unknown[][] | undefined) => rows?.map((r) => r.map(String));

for (const dialect of DIALECTS) {
  const serial = (title: string, fn: (t: ExecutionContext) => Promise<void>) =>
    test.serial(`${dialect}: ${title}`, async (t) => (dialect === 'postgresql' && !pg ? (t.log(SKIP_PG), t.pass()) : fn(t)));

  serial('an unbounded recursive CTE answers 400 QUERY_RECURSION_LIMIT long before the statement timeout', async (t) => {
    for (const sql of [
      'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) AS n FROM r',
      "WITH RECURSIVE r(n, s) AS (SELECT 1, 'a' UNION ALL SELECT n + 1, s || 'x' AS s2 FROM r) SELECT max(n) AS n FROM r",
      // A term written `SELECT *` is counted too.
      'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT * FROM r) SELECT count(*) AS n FROM r',
      // A recursive CTE that ends, but only far past the cap, is stopped the same way.
      'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 100000) SELECT count(*) AS n FROM r',
    ]) {
      const r = await query(dialect, sql);
      t.is(r.status, 400, sql);
      t.is(r.body.code, 'QUERY_RECURSION_LIMIT', sql);
      t.true(r.ms < TIMEOUT_MS / 3, `${Math.round(r.ms)} ms: ${sql}`);
    }
  });

  serial('a bounded recursive CTE under the cap returns all its rows, exactly', async (t) => {
    const r = await query(dialect, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000) SELECT count(*) AS c, sum(n) AS s, max(n) AS m FROM r');
    t.is(r.status, 200, JSON.stringify(r.body));
    t.deepEqual(text(r.body.rows), [['1000', '500500', '1000']]);
    // A UNION over a cycle ends by itself: its rows come back as they are.
    const cycle = await query(dialect, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT (n % 500) + 1 FROM r) SELECT count(*) AS c, sum(n) AS s FROM r');
    t.deepEqual(text(cycle.body.rows), [['500', '125250']], JSON.stringify(cycle.body));
  });

  serial('a recursion over a filtered table follows the filter and keeps integers past 2^53 whole', async (t) => {
    const r = await query(
      dialect,
      'WITH RECURSIVE walk(node, big, depth) AS (SELECT 0, CAST(0 AS BIGINT), 0 UNION ALL SELECT e.dst, e.big AS big, w.depth + 1 AS depth FROM edges e JOIN walk w ON e.src = w.node) SELECT count(*) AS c, max(node) AS m, max(big) AS b FROM walk',
    );
    t.is(r.status, 200, JSON.stringify(r.body));
    t.deepEqual(text(r.body.rows), [['201', '200', String(9007199254740993n + 199n)]]);
  });

  serial('a recursive CTE read twice, or inside a nested WITH, answers exactly under the cap and is stopped past it', async (t) => {
    const twice = await query(dialect, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 999) SELECT (SELECT count(*) FROM r) AS c, (SELECT sum(n) FROM r) AS s');
    t.deepEqual(text(twice.body.rows), [['999', '499500']], JSON.stringify(twice.body));
    const nested = await query(dialect, 'SELECT x.c FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 999) SELECT count(*) AS c FROM r) AS x');
    t.deepEqual(text(nested.body.rows), [['999']], JSON.stringify(nested.body));
    const endless = await query(dialect, 'SELECT x.c FROM (WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) AS c FROM r) AS x');
    t.is(endless.body.code, 'QUERY_RECURSION_LIMIT', JSON.stringify(endless.body));
  });

  serial('the cap counts per statement, and a user may not call the step function', async (t) => {
    const bounded = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 900) SELECT count(*) AS c FROM r';
    t.deepEqual(text((await query(dialect, bounded)).body.rows), [['900']]);
    t.deepEqual(text((await query(dialect, bounded)).body.rows), [['900']]);
    const own = await query(dialect, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT sextant_step(n + 1) FROM r) SELECT count(*) AS c FROM r');
    t.is(own.status, 400);
    t.is(own.body.code, 'QUERY_REFUSED');
  });
}
