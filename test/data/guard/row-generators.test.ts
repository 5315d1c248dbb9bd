// Row generators are allowed when their size is a small constant, refused otherwise.
import test from 'ava';
import { QueryRefused } from '../../../src/data/errors.ts';
import { guardSql, openDuckDbSql, type DuckDbSql } from '../../../src/data/guard/index.ts';
import { boundGenerators, generatedRows, intervalLiteral, timeLiteral } from '../../../src/data/guard/row-generators.ts';
import type { SqlDialect } from '../../../src/data/types.ts';

let duckdb: DuckDbSql;
test.before(async () => {
  duckdb = await openDuckDbSql();
});
test.after.always(() => duckdb.close());

const n = (value: number) => ({ kind: 'number' as const, value });

test('a generator counts its rows the way the engine does, ends included or not', (t) => {
  t.is(generatedRows('postgresql', 'generate_series', [n(1), n(10)]), 10);
  t.is(generatedRows('postgresql', 'generate_series', [n(10), n(1), n(-3)]), 4);
  t.is(generatedRows('postgresql', 'generate_series', [n(1), n(10), n(-1)]), 0);
  t.is(generatedRows('duckdb', 'range', [n(10)]), 10);
  t.is(generatedRows('duckdb', 'range', [n(0), n(10), n(3)]), 4);
  t.is(generatedRows('duckdb', 'generate_series', [n(5)]), 6);
  t.is(generatedRows('postgresql', 'generate_series', [timeLiteral('2024-01-01'), timeLiteral('2024-01-31'), intervalLiteral('1 day')]), 31);
  t.is(generatedRows('postgresql', 'generate_series', [timeLiteral('2024-01-01'), timeLiteral('2024-12-01'), intervalLiteral('1 month')]), 12);
  t.is(generatedRows('postgresql', 'generate_series', [n(1), { kind: 'other' }]), undefined);
  t.is(generatedRows('postgresql', 'generate_series', [timeLiteral('2024-01-01'), timeLiteral('2025-01-01'), intervalLiteral('1 month -40 days')]), undefined);
  t.deepEqual(intervalLiteral('2 hours 30 minutes'), { kind: 'interval', ms: 9_000_000, months: 0 });
  t.deepEqual(intervalLiteral('fortnight'), { kind: 'other' });
});

test('one call over the limit, an unknown size, or a product of calls over the limit is refused', (t) => {
  t.notThrows(() => boundGenerators([{ name: 'g', rows: 100_000 }, { name: 'g', rows: 10 }]));
  for (const calls of [[{ name: 'g', rows: 100_001 }], [{ name: 'g', rows: undefined }], [{ name: 'g', rows: 2000 }, { name: 'g', rows: 2000 }]]) {
    t.is(t.throws(() => boundGenerators(calls), { instanceOf: QueryRefused })?.reason, 'unbounded_function');
  }
});

test('generators are bounded wherever they are called, and "now" give or take an interval is a known span', async (t) => {
  const ok = async (dialect: SqlDialect, sql: string) => t.notThrowsAsync(guardSql({ sql, dialect, tools: { duckdb } }), sql);
  const refused = async (dialect: SqlDialect, sql: string) => t.is((await t.throwsAsync(guardSql({ sql, dialect, tools: { duckdb } }), { instanceOf: QueryRefused }, sql))?.reason, 'unbounded_function', sql);
  await ok('postgresql', "SELECT d FROM generate_series(now() - interval '30 days', now(), interval '1 day') d");
  await ok('postgresql', "SELECT d FROM generate_series(current_date - interval '6 days', current_date, '1 day') d");
  await ok('postgresql', "SELECT d FROM generate_series('2024-01-01'::date, '2024-12-31', '1 week') d");
  await ok('duckdb', "SELECT * FROM generate_series(current_date - INTERVAL 6 DAY, current_date, INTERVAL 1 DAY)");
  await ok('duckdb', 'SELECT range(5)');
  await refused('postgresql', "SELECT d FROM generate_series(now() - interval '1000 years', now(), interval '1 minute') d");
  await refused('postgresql', "SELECT d FROM generate_series(now(), now() - interval '1000 years', interval '-1 minute') d");
  await refused('postgresql', 'SELECT (SELECT count(*) FROM generate_series(1, 1e9))');
  await refused('duckdb', 'SELECT list_sum(range(1000000000))');
  await refused('duckdb', 'SELECT * FROM range((SELECT 10))');
});
