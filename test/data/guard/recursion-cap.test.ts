// The SQLite rewrite that caps recursive CTEs: the last output value of each recursive term, and only
// there, is wrapped in the session's step function, aliases and comments kept, verified by re-parsing.
import test from 'ava';
import { guardSql, rewriteTables } from '../../../src/data/guard/index.ts';
import { openDuckDbSql, type DuckDbSql } from '../../../src/data/index.ts';
import type { QueryRefused } from '../../../src/data/errors.ts';

async function capped(sql: string): Promise<string> {
  const q = await guardSql({ sql, dialect: 'sqlite', tools: {} });
  return rewriteTables(q, (ref) => ({ schema: 'main', name: ref.name, ...(ref.name === 'edges' ? { filter: 'src < 9' } : {}) }), {});
}

test('the last output value of a recursive term is wrapped, before its alias', async (t) => {
  t.is(
    await capped("WITH RECURSIVE r(n, s) AS (SELECT 1, 'a' UNION ALL SELECT n + 1, s || 'x' AS s2 FROM r WHERE n < 10) SELECT * FROM r"),
    "WITH RECURSIVE r(n, s) AS (SELECT 1, 'a' UNION ALL SELECT n + 1, sextant_step(s || 'x') AS s2 FROM r WHERE n < 10) SELECT * FROM r",
  );
  t.is(
    await capped('WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT (n + 1) total /* c */ FROM r) SELECT * FROM r'),
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT sextant_step((n + 1)) total         FROM r) SELECT * FROM r',
  );
});

test('a row filter inside the wrapped value and on the recursive join is applied as well', async (t) => {
  const out = await capped('WITH RECURSIVE w(node) AS (SELECT 0 UNION ALL SELECT (SELECT max(dst) FROM edges) FROM edges e JOIN w ON e.src = w.node) SELECT * FROM w');
  t.is(
    out,
    'WITH RECURSIVE w(node) AS (SELECT 0 UNION ALL SELECT sextant_step((SELECT max(dst) FROM (SELECT * FROM "main"."edges" WHERE (src < 9) LIMIT -1 OFFSET 0) AS "edges")) FROM (SELECT * FROM "main"."edges" WHERE (src < 9) LIMIT -1 OFFSET 0) e JOIN w ON e.src = w.node) SELECT * FROM w',
  );
});

test('non-recursive CTEs, anchors and the outer query are left as they are', async (t) => {
  t.is(await capped('WITH r AS (SELECT 1 AS n) SELECT n FROM r'), 'WITH r AS (SELECT 1 AS n) SELECT n FROM r');
});

test('a term written * over the CTE alone is written out as its columns, the last one wrapped', async (t) => {
  t.is(await capped('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT * FROM r) SELECT n FROM r'), 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT sextant_step("r"."n") FROM r) SELECT n FROM r');
  t.is(
    await capped("WITH RECURSIVE r AS (SELECT 1 AS n, 'a' AS s UNION SELECT p.* FROM r AS p WHERE n < 3) SELECT n FROM r"),
    'WITH RECURSIVE r AS (SELECT 1 AS n, \'a\' AS s UNION SELECT "p"."n", sextant_step("p"."s") FROM r AS p WHERE n < 3) SELECT n FROM r',
  );
  // Over a join, or with an anchor column that has no name, the columns are the catalog's: left to the time limit.
  const join = 'WITH RECURSIVE w(node) AS (SELECT 0 UNION ALL SELECT * FROM w JOIN edges e ON e.src = w.node) SELECT node FROM w';
  t.false((await capped(join)).includes('sextant_step'));
  t.false((await capped('WITH RECURSIVE r AS (SELECT 1 + 1 UNION ALL SELECT * FROM r) SELECT 1 FROM r')).includes('sextant_step'));
});

test('a user may not name the step function on any dialect, but the guard passes its own rewrite again', async (t) => {
  const duckdb = await openDuckDbSql();
  try {
    for (const dialect of ['sqlite', 'duckdb', 'postgresql', 'mysql'] as const) {
      for (const sql of ['SELECT sextant_step(1) AS x', 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT SEXTANT_STEP(n + 1) FROM r) SELECT n FROM r']) {
        const err = await t.throwsAsync(guardSql({ sql, dialect, tools: { duckdb } }), undefined, `${dialect}: ${sql}`);
        t.is((err as QueryRefused).reason, 'forbidden_function', `${dialect}: ${sql}`);
      }
    }
    const err = await t.throwsAsync(guardSql({ sql: 'SELECT system.main.sextant_step()', dialect: 'duckdb', tools: { duckdb } }));
    t.is((err as QueryRefused).reason, 'forbidden_function');
    const own = await capped('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT * FROM r');
    await t.notThrowsAsync(guardSql({ sql: own, dialect: 'sqlite', tools: {}, rewritten: true }));
  } finally {
    duckdb.close();
  }
});

async function cappedDuckDb(duckdb: DuckDbSql, sql: string): Promise<string> {
  const q = await guardSql({ sql, dialect: 'duckdb', tools: { duckdb } });
  const out = await rewriteTables(q, (ref) => (ref.name === 'edges' ? { schema: 'main', name: 'edges', filter: 'src < 9' } : undefined), { duckdb });
  await guardSql({ sql: out, dialect: 'duckdb', tools: { duckdb }, rewritten: true });
  return out;
}

test('DuckDB: each read of the working table in a recursive term, and only there, goes through the step filter', async (t) => {
  const duckdb = await openDuckDbSql();
  try {
    const step = 'WHERE "system".main.sextant_step()';
    const linear = await cappedDuckDb(duckdb, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT n FROM r');
    t.true(linear.includes(`FROM (SELECT * FROM r ${step}) AS r WHERE (n < 10)`), linear);
    t.is(linear.split('sextant_step').length, 2, linear);
    // A term written `SELECT *`, an aliased read joined to a filtered table, and a second recursive CTE.
    const star = await cappedDuckDb(duckdb, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT * FROM r) SELECT n FROM r');
    t.true(star.includes(`(SELECT * FROM r ${step}) AS r`), star);
    const walk = await cappedDuckDb(
      duckdb,
      'WITH RECURSIVE w(node) AS (SELECT 0 UNION ALL SELECT e.dst FROM edges e JOIN w AS prev ON e.src = prev.node), v(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM v WHERE k < 3) SELECT * FROM w, v',
    );
    t.true(walk.includes(`(SELECT * FROM w ${step}) AS prev`), walk);
    t.true(walk.includes(`(SELECT * FROM v ${step}) AS v`), walk);
    t.true(walk.includes('src < 9'), walk);
    t.is(walk.split('sextant_step').length, 3, walk);
    // Not recursive: nothing to count.
    const plain = await cappedDuckDb(duckdb, 'WITH r AS (SELECT 1 AS n) SELECT n FROM r');
    t.false(plain.includes('sextant_step'), plain);
  } finally {
    duckdb.close();
  }
});
