// Readiness and the store-transaction histogram over the service store of either dialect: the store
// check pings it asynchronously, and a batch on PostgreSQL is timed in the same histogram as SQLite's.
import test, { type ExecutionContext } from 'ava';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openOperations } from '../../src/compose/operations.ts';
import { loadConfig } from '../../src/config.ts';
import { openServiceStore } from '../../src/store/index.ts';
import { freshPgDatabase, SKIP_PG_STORE } from '../helpers/pg-database.ts';

async function operationsOn(t: ExecutionContext, dialect: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'sextant-ops-store-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = dialect === 'postgres' ? await freshPgDatabase(t) : undefined;
  if (dialect === 'postgres' && !databaseUrl) return undefined;
  const config = loadConfig({ SEXTANT_DATA_DIR: dataDir, SEXTANT_LOG_LEVEL: 'silent', ...(databaseUrl ? { SEXTANT_DATABASE_URL: databaseUrl } : {}) });
  const store = await openServiceStore(config);
  t.teardown(() => (store.open ? store.close() : undefined));
  const ops = await openOperations({ config, store, draining: new AbortController().signal });
  t.teardown(() => ops.close());
  return { store, ops };
}

const transactionsCounted = async (ops: { metrics: { registry: { getSingleMetricAsString(name: string): Promise<string> } } }) =>
  Number(/sextant_store_transaction_duration_seconds_count (\d+)/.exec(await ops.metrics.registry.getSingleMetricAsString('sextant_store_transaction_duration_seconds'))?.[1]);

for (const dialect of ['sqlite', 'postgres'] as const) {
  test(`${dialect}: readiness reports the store ok while it answers and failed once it is closed`, async (t) => {
    const o = await operationsOn(t, dialect);
    if (!o) return t.log(SKIP_PG_STORE), t.pass();
    t.like(await o.ops.readiness(), { ready: true, checks: { store: 'ok' } });
    await o.store.close();
    t.like(await o.ops.readiness(), { ready: false, checks: { store: 'failed' } });
  });

  test(`${dialect}: a batch of the store is counted in the store-transaction histogram`, async (t) => {
    const o = await operationsOn(t, dialect);
    if (!o) return t.log(SKIP_PG_STORE), t.pass();
    const before = await transactionsCounted(o.ops);
    await o.store.executor.batch([sql`INSERT INTO organizations (id, name, created_at) VALUES ('o1', 'One', 0)`]);
    t.is(await transactionsCounted(o.ops), before + 1);
  });
}
