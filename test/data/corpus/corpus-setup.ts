// One gateway and the corpus warehouse on every engine (full and oracle), shared by a test file: the
// gateway has a connection per dialect (ids `postgresql`, `mysql`, `sqlite`, `duckdb`), documented
// tables with row filters, synced relations, and users (an admin, a German user, a German modeler).
import type { UserRow } from '../../../src/auth/index.ts';
import type { Driver } from '../../../src/data/drivers/driver.ts';
import { DRIVERS } from '../../../src/data/drivers/registry.ts';
import { setUserAttributes } from '../../../src/data/rls/index.ts';
import { createMemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import type { SqlDialect, TableDoc } from '../../../src/data/types.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { duckdbFixture, mysqlFixture, placeOrgFile, postgresFixture, sqliteFixture, tempDir } from '../warehouses.ts';
import { corpusDocs, DIALECTS, VISIBLE, warehouseSql } from './corpus-warehouse.ts';

export interface CorpusWarehouse {
  dialect: SqlDialect;
  /** The gateway connection id (the dialect's name). */
  connectionId: string;
  /** A direct session on the oracle warehouse (only the German user's rows). */
  oracle: Driver;
}

export interface CorpusSetup {
  app: TestApp;
  org: string;
  admin: UserRow;
  /** A regular user whose row filter applies (country = Germany). */
  german: UserRow;
  /** A modeler whose row filter applies. */
  modeler: UserRow;
  warehouses: CorpusWarehouse[];
  /** Dialects whose server is absent (only outside CI). */
  skipped: SqlDialect[];
  close(): Promise<void>;
}

const TYPES: Record<SqlDialect, string> = { postgresql: 'postgresql', mysql: 'mysql', sqlite: 'sqlite', duckdb: 'duckdb' };

async function settingsFor(dialect: SqlDialect, root: string, org: string, oracle: boolean) {
  const base = warehouseSql({ oracle });
  const file = `${dialect}-${oracle ? 'oracle' : 'full'}`;
  if (dialect === 'duckdb' || dialect === 'sqlite') {
    const made = dialect === 'duckdb' ? await duckdbFixture([], base) : sqliteFixture([], base);
    return { settings: { path: file }, direct: { path: placeOrgFile(root, org, file, made.path!) } };
  }
  const made = dialect === 'postgresql' ? await postgresFixture([], base) : await mysqlFixture([], base);
  return made && { settings: made.settings, direct: made.settings, drop: made.drop };
}

/** Starts the gateway and builds the warehouses; `env` adds configuration. */
export async function setUpCorpus(env: Record<string, string> = {}, deps: Parameters<typeof startTestApp>[1] = {}): Promise<CorpusSetup> {
  const root = tempDir();
  const docs = createMemoryTableDocs();
  const app = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root, ...env }, { tableDocs: docs, ...deps });
  const org = app.org();
  const admin = app.user({ orgId: org, role: 'admin' });
  const german = app.user({ orgId: org });
  const modeler = app.user({ orgId: org, role: 'modeler' });
  for (const u of [german, modeler]) await setUserAttributes(app.app.services.executor, org, u.id, { country: VISIBLE });
  const warehouses: CorpusWarehouse[] = [];
  const skipped: SqlDialect[] = [];
  const drops: (() => Promise<void>)[] = [];
  const allDocs: TableDoc[] = [];
  const auth = { authorization: `Bearer ${app.session(admin)}`, 'content-type': 'application/json' };
  for (const dialect of DIALECTS) {
    const full = await settingsFor(dialect, root, org, false);
    const oracle = await settingsFor(dialect, root, org, true);
    if (!full || !oracle) {
      skipped.push(dialect);
      continue;
    }
    for (const d of [full.drop, oracle.drop]) if (d) drops.push(d);
    const res = await app.fetch('/api/connections', { method: 'POST', headers: auth, body: JSON.stringify({ id: dialect, name: dialect, type: TYPES[dialect], settings: full.settings }) });
    if (res.status !== 201) throw new Error(`${dialect}: ${await res.text()}`);
    const sync = await app.fetch(`/api/sync/${TYPES[dialect]}/${dialect}`, { method: 'POST', headers: auth, body: '{}' });
    if (sync.status !== 200) throw new Error(`${dialect} sync: ${await sync.text()}`);
    const schema = dialect === 'postgresql' ? 'public' : dialect === 'mysql' ? (full.settings as { database: string }).database : 'main';
    allDocs.push(...corpusDocs(dialect, schema));
    warehouses.push({ dialect, connectionId: dialect, oracle: await DRIVERS[TYPES[dialect] as 'duckdb'].open(oracle.direct, {}) });
  }
  // Sync documented every object it found (secrets too); the corpus documents exactly its own.
  docs.setTables(org, undefined, allDocs);
  return {
    app, org, admin, german, modeler, warehouses, skipped,
    async close() {
      for (const w of warehouses) await w.oracle.close();
      await app.stop();
      for (const d of drops) await d();
    },
  };
}

/** Rows of a direct query on a driver. */
export async function directRows(driver: Driver, sql: string): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const b of (await driver.stream(sql)).batches) rows.push(...b);
  return rows;
}

const norm = (v: unknown): unknown => {
  if (typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v))) return Number(Number(v).toPrecision(10));
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(norm);
  return v;
};

/** Rows as comparable text lines, sorted (order is not compared; numbers to 10 digits). */
export function rowLines(rows: unknown[][]): string[] {
  return rows.map((r) => JSON.stringify(r.map(norm))).sort();
}

/** Rows of `actual` that `expected` does not hold (multiset difference). */
export function extraRows(actual: unknown[][], expected: unknown[][]): string[] {
  const pool = new Map<string, number>();
  for (const l of rowLines(expected)) pool.set(l, (pool.get(l) ?? 0) + 1);
  return rowLines(actual).filter((l) => {
    const n = pool.get(l) ?? 0;
    if (n > 0) pool.set(l, n - 1);
    return n === 0;
  });
}
