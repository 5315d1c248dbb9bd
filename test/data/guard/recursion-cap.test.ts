// The SQLite rewrite that caps recursive CTEs: the last output value of each recursive term, and only
// there, is wrapped in the session's step function, aliases and comments kept, verified by re-parsing.
import test from 'ava';
import { guardSql, rewriteTables } from '../../../src/data/guard/index.ts';

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

test('non-recursive CTEs, anchors and the outer query are left as they are, and a * term (unlocatable) too', async (t) => {
  t.is(await capped('WITH r AS (SELECT 1 AS n) SELECT n FROM r'), 'WITH r AS (SELECT 1 AS n) SELECT n FROM r');
  t.is(await capped('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT * FROM r) SELECT n FROM r'), 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT * FROM r) SELECT n FROM r');
});
