// The guard's price per query: on the valid corpus (test/fixtures/sql/valid.yaml), for a user whose
// row filter applies, the time to guard the statement, to rewrite it with the row filters (verified
// round trip included) and to guard the rewritten text again (as the governed path does), beside the
// warehouse's own time to run the rewritten statement and drain its rows, in the same run, on
// DuckDB and SQLite, and on PostgreSQL and MariaDB when they are reachable. p50/p99 over the corpus
// of each query's median of RUNS runs.
import type { Driver } from '../src/data/drivers/driver.ts';
import { DRIVERS } from '../src/data/drivers/registry.ts';
import { guardSql, openDuckDbSql, type DuckDbSql } from '../src/data/guard/index.ts';
import { applyRowFilters, type RlsUser } from '../src/data/rls/index.ts';
import { readRelations } from '../src/data/sync/read-relations.ts';
import type { SqlDialect } from '../src/data/types.ts';
import { corpusDocs, loadCorpus, warehouseSql } from '../test/data/corpus/corpus-warehouse.ts';
import { duckdbFixture, mysqlFixture, postgresFixture, sqliteFixture } from '../test/data/warehouses.ts';

const RUNS = 7;
const user: RlsUser = { id: 'u', email: 'u@example.com', role: 'user', attributes: { country: 'Germany' }, groups: [] };

async function open(dialect: SqlDialect): Promise<{ driver: Driver; schema: string; drop?: () => Promise<void> } | undefined> {
  const base = warehouseSql();
  if (dialect === 'duckdb') return { driver: await DRIVERS.duckdb.open(await duckdbFixture([], base), {}), schema: 'main' };
  if (dialect === 'sqlite') return { driver: await DRIVERS.sqlite.open(sqliteFixture([], base), {}), schema: 'main' };
  const f = dialect === 'postgresql' ? await postgresFixture([], base).catch(() => undefined) : await mysqlFixture([], base).catch(() => undefined);
  if (!f) return undefined;
  return { driver: await DRIVERS[dialect].open(f.settings, {}), schema: dialect === 'postgresql' ? 'public' : f.settings.database!, drop: f.drop };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(2)} ms`.padStart(10);

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const out = await fn();
  return [performance.now() - t0, out];
}

async function benchDialect(dialect: SqlDialect, duckdb: DuckDbSql): Promise<void> {
  const opened = await open(dialect);
  if (!opened) return console.log(`${dialect.padEnd(10)} not reachable; skipped`);
  const { driver, schema } = opened;
  const tools = { duckdb };
  const docs = corpusDocs('wh', schema);
  const relations = await readRelations(driver, tools);
  const per: { guard: number; rewrite: number; total: number; warehouse: number }[] = [];
  for (const e of loadCorpus('valid', dialect)) {
    const runs: { guard: number; rewrite: number; reguard: number; warehouse: number }[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const [guard, query] = await time(() => guardSql({ sql: e.sql, dialect, tools }));
      const [rewrite, sql] = await time(() => applyRowFilters({ query, docs, connectionId: 'wh', user, defaultSchema: driver.defaultSchema, tools, relations }));
      const [reguard] = await time(() => guardSql({ sql, dialect, tools }));
      const [warehouse] = await time(async () => {
        for await (const _ of (await driver.stream(sql)).batches);
      });
      if (i > 0) runs.push({ guard, rewrite, reguard, warehouse });
    }
    const g = median(runs.map((r) => r.guard));
    const rw = median(runs.map((r) => r.rewrite));
    per.push({ guard: g, rewrite: rw, total: median(runs.map((r) => r.guard + r.rewrite + r.reguard)), warehouse: median(runs.map((r) => r.warehouse)) });
  }
  await driver.close();
  await opened.drop?.();
  const col = (k: keyof (typeof per)[0]) => per.map((p) => p[k]);
  const ratio = median(per.map((p) => p.total / p.warehouse));
  console.log(
    `${dialect.padEnd(10)} ${String(per.length).padStart(4)} queries | guard p50 ${ms(pct(col('guard'), 50))} p99 ${ms(pct(col('guard'), 99))} | rewrite p50 ${ms(pct(col('rewrite'), 50))} p99 ${ms(pct(col('rewrite'), 99))}` +
      ` | guard+rewrite+guard p50 ${ms(pct(col('total'), 50))} p99 ${ms(pct(col('total'), 99))} | warehouse p50 ${ms(pct(col('warehouse'), 50))} p99 ${ms(pct(col('warehouse'), 99))} | median ratio ${ratio.toFixed(2)}`,
  );
}

/** Prints the guard's times per dialect beside the warehouse's. */
export async function run(): Promise<void> {
  const duckdb = await openDuckDbSql();
  console.log(`Valid corpus, filtered user, median of ${RUNS} runs per query; ratio = (guard + rewrite + guard) / warehouse, median over queries.`);
  for (const dialect of ['duckdb', 'sqlite', 'postgresql', 'mysql'] as const) await benchDialect(dialect, duckdb);
  duckdb.close();
}
