// The PostgreSQL rewrite that caps recursive UNION ALL CTEs by depth (guard/pg/pg-recursion-cap.ts):
// the CTE renamed with a depth column, a CTE of the original name and columns in its place, verified
// by re-parsing; the shapes it cannot place with certainty left as they were.
import test from 'ava';
import { guardSql, rewriteTables } from '../../../src/data/guard/index.ts';

async function capped(sql: string, filtered = false): Promise<string> {
  const q = await guardSql({ sql, dialect: 'postgresql', tools: {} });
  const out = await rewriteTables(q, (ref) => (filtered && ref.name === 'edges' ? { schema: 'public', name: 'edges', filter: 'src < 9' } : undefined), { maxRecursion: 50 });
  await guardSql({ sql: out, dialect: 'postgresql', tools: {}, rewritten: true });
  return out;
}

const DEPTH = (alias: string) =>
  `CASE WHEN "${alias}".sextant_depth >= 50 THEN CAST('sextant: recursion limit ' || "${alias}".sextant_depth AS integer) ELSE "${alias}".sextant_depth + 1 END`;

test('a UNION ALL recursion is renamed with a depth column, and its name reads the original columns', async (t) => {
  t.is(
    await capped('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT count(*) FROM r'),
    `WITH RECURSIVE "sextant_rec_0"(n, sextant_depth) AS (SELECT 1, 0 UNION ALL SELECT n + 1, ${DEPTH('r')} FROM "sextant_rec_0" AS "r" WHERE n < 10), "r"("n") AS (SELECT "n" FROM "sextant_rec_0") SELECT count(*) FROM r`,
  );
  // No column list: the anchor's names; an alias on the read; a filtered table joined in.
  t.is(
    await capped('WITH RECURSIVE w AS (SELECT 0 AS node, 0 AS d UNION ALL SELECT e.dst, p.d + 1 AS d FROM edges e JOIN w AS p ON e.src = p.node) SELECT * FROM w', true),
    `WITH RECURSIVE "sextant_rec_0"("node", "d", sextant_depth) AS (SELECT 0 AS node, 0 AS d, 0 UNION ALL SELECT e.dst, p.d + 1 AS d, ${DEPTH('p')} FROM (SELECT * FROM "public"."edges" WHERE (src < 9) OFFSET 0) e JOIN "sextant_rec_0" AS p ON e.src = p.node), "w"("node", "d") AS (SELECT "node", "d" FROM "sextant_rec_0") SELECT * FROM w`,
  );
});

test('UNION, unnamed anchor columns, VALUES anchors and non-recursive CTEs are left as they are', async (t) => {
  for (const sql of [
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION SELECT n % 5 + 1 FROM r) SELECT * FROM r',
    'WITH RECURSIVE r AS (SELECT 1 UNION ALL SELECT 1 FROM r) SELECT 1 FROM r LIMIT 1',
    'WITH RECURSIVE r(n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r',
    'WITH r AS (SELECT 1 AS n) SELECT n FROM r',
  ]) {
    t.false((await capped(sql)).includes('sextant_'), sql);
  }
});

test('two recursive CTEs, nested WITH, and a CTE read twice are each capped once', async (t) => {
  const out = await capped(
    'WITH RECURSIVE a(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM a WHERE n < 3), b(m) AS (SELECT 1 UNION ALL SELECT m * 2 FROM b WHERE m < 8) SELECT * FROM a, b, (WITH RECURSIVE c(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM c WHERE k < 2) SELECT k FROM c) x, a AS a2',
  );
  t.is(out.split('sextant_depth >= 50').length - 1, 3, out);
  t.true(out.includes('"a"("n") AS (SELECT "n" FROM "sextant_rec_0")'), out);
  t.true(out.includes('"b"("m") AS (SELECT "m" FROM "sextant_rec_1")'), out);
  t.true(out.includes('"c"("k") AS (SELECT "k" FROM "sextant_rec_2")'), out);
});

test('a term SELECT * over the CTE alone is written out as its columns; a * over a join is left as it is', async (t) => {
  t.is(
    await capped('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT * FROM r) SELECT n FROM r LIMIT 3'),
    `WITH RECURSIVE "sextant_rec_0"(n, sextant_depth) AS (SELECT 1, 0 UNION ALL SELECT "r"."n", ${DEPTH('r')} FROM "sextant_rec_0" AS "r"), "r"("n") AS (SELECT "n" FROM "sextant_rec_0") SELECT n FROM r LIMIT 3`,
  );
  t.false((await capped('WITH RECURSIVE w(a, b) AS (SELECT 1, 2 UNION ALL SELECT w.* FROM w JOIN edges e ON e.src = w.a) SELECT * FROM w')).includes('sextant_'));
});
