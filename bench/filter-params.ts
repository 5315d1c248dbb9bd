// A dashboard tile's filters as bound parameters against the same filters written as quoted literals
// (how they were written before issue 37's binding), per warehouse: one filtered statement through
// guard, row security, the guard again and the driver, a date range and 3 (then 100) dimension values.
// Figure: median time per statement with bound values as a ratio to the literal statement's, the two
// alternated in the same run. PostgreSQL and MariaDB are measured when they answer on loopback.
import type { Driver } from '../src/data/drivers/driver.ts';
import { DRIVERS } from '../src/data/drivers/registry.ts';
import { guardSql, openDuckDbSql, quoteIdent, type DuckDbSql } from '../src/data/guard/index.ts';
import { filterResultSql, type ResultFilter } from '../src/data/query/index.ts';
import { applyRowFilters, sqlLiteral } from '../src/data/rls/index.ts';
import type { SqlDialect, SqlParam, TableDoc } from '../src/data/types.ts';
import { duckdbFixture, mysqlFixture, postgresFixture, sqliteFixture } from '../test/data/warehouses.ts';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 30);
const ORDERS = 20_000;
const COUNTRIES = ['Germany', 'France', 'Japan', 'Peru', 'Kenya'];
const FIXTURE = [
  'CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER, country VARCHAR(50), total_amount DECIMAL(12,2), order_date DATE)',
  ...Array.from({ length: ORDERS / 1000 }, (_, b) =>
    `INSERT INTO orders VALUES ${Array.from({ length: 1000 }, (_, i) => {
      const id = b * 1000 + i + 1;
      const day = `2024-${String((id % 12) + 1).padStart(2, '0')}-${String((id % 28) + 1).padStart(2, '0')}`;
      return `(${id}, ${id % 97}, '${COUNTRIES[id % 5]}', ${(id % 500) + 0.5}, '${day}')`;
    }).join(', ')}`,
  ),
];
const SAVED = 'SELECT order_id, country, order_date, total_amount FROM orders';

/** The filters as the literal wrapper wrote them before: values quoted into the text. */
function literalSql(dialect: SqlDialect, sql: string, filters: ResultFilter[]): string {
  const col = (f: ResultFilter) => `sextant_tile.${quoteIdent(dialect, f.field)}`;
  const where = filters.flatMap((f) => [
    ...(f.from ? [`${col(f)} >= ${sqlLiteral(dialect, f.from)}`] : []),
    ...(f.before ? [`${col(f)} < ${sqlLiteral(dialect, f.before)}`] : []),
    ...(f.values?.length ? [`${col(f)} IN (${f.values.map((v) => (typeof v === 'number' ? String(v) : sqlLiteral(dialect, v))).join(', ')})`] : []),
  ]);
  return `SELECT * FROM (\n${sql}\n) AS sextant_tile WHERE ${where.join(' AND ')}`;
}

async function governed(dialect: SqlDialect, driver: Driver, duckdb: DuckDbSql, sql: string, params: SqlParam[]): Promise<number> {
  const tools = { duckdb };
  const docs: TableDoc[] = [{ connection: 'wh', schema: driver.defaultSchema, name: 'orders', row_filters: [{ filter: "country <> 'Kenya'" }] }];
  const user = { id: 'u', email: 'u@x.io', role: 'user' as const, attributes: {}, groups: [] };
  const started = performance.now();
  const query = await guardSql({ sql, dialect, tools, params });
  const executed = await applyRowFilters({ query, docs, connectionId: 'wh', user, defaultSchema: driver.defaultSchema, tools });
  await guardSql({ sql: executed, dialect, tools, rewritten: true, params });
  const s = await driver.stream(executed, { params });
  let rows = 0;
  for await (const b of s.batches) rows += b.length;
  if (rows === 0) throw new Error(`${dialect}: no rows`);
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function open(dialect: SqlDialect): Promise<{ driver: Driver; drop?: () => Promise<void> } | undefined> {
  if (dialect === 'duckdb') return { driver: await DRIVERS.duckdb.open(await duckdbFixture([], FIXTURE), {}) };
  if (dialect === 'sqlite') return { driver: await DRIVERS.sqlite.open(sqliteFixture([], FIXTURE), {}) };
  const f = dialect === 'postgresql' ? await postgresFixture([], FIXTURE) : await mysqlFixture([], FIXTURE);
  return f && { driver: await DRIVERS[dialect].open(f.settings, {}), drop: f.drop };
}

async function measure(dialect: SqlDialect, duckdb: DuckDbSql, values: string[]): Promise<void> {
  const opened = await open(dialect);
  if (!opened) return console.log(`${dialect}: not reachable, skipped`);
  const filters: ResultFilter[] = [{ field: 'order_date', from: '2024-02-01', before: '2024-10-01' }, { field: 'country', values }];
  const bound = filterResultSql(dialect, SAVED, filters);
  const literal = literalSql(dialect, SAVED, filters);
  const times = { literal: [] as number[], bound: [] as number[] };
  try {
    for (let r = 0; r < ROUNDS + 2; r++) {
      const l = await governed(dialect, opened.driver, duckdb, literal, []);
      const b = await governed(dialect, opened.driver, duckdb, bound.sql, bound.params);
      // The first two rounds warm caches (parser, prepared plans) for both.
      if (r < 2) continue;
      times.literal.push(l);
      times.bound.push(b);
    }
  } finally {
    await opened.driver.close();
    await opened.drop?.();
  }
  const [l, b] = [median(times.literal), median(times.bound)];
  console.log(`${dialect}, ${values.length} values: literals ${l.toFixed(1)} ms, bound ${b.toFixed(1)} ms (median of ${ROUNDS}): ${(b / l).toFixed(2)}x`);
}

/** Runs the bench and prints each warehouse's ratio. */
export async function run(): Promise<void> {
  const duckdb = await openDuckDbSql();
  try {
    for (const dialect of ['duckdb', 'sqlite', 'postgresql', 'mysql'] as SqlDialect[]) {
      await measure(dialect, duckdb, ['Germany', 'France', 'Japan']);
      await measure(dialect, duckdb, [...COUNTRIES, ...Array.from({ length: 95 }, (_, i) => `c${i}`)]);
    }
  } finally {
    duckdb.close();
  }
}
