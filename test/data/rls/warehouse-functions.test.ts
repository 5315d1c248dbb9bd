// A function defined in the warehouse (PostgreSQL SQL function, MariaDB stored function, DuckDB macro)
// can read a filtered table with no row filter in the way: sync records such functions, and a user
// whose filter applies on the connection may not call them. Admins, unfiltered, may.
import test from 'ava';
import { sqliteExecutor } from '../../../src/store/index.ts';
import { getUser, principalFor, type UserRow } from '../../../src/auth/index.ts';
import { QueryRefused } from '../../../src/data/errors.ts';
import { executeQuery } from '../../../src/data/query/index.ts';
import { setUserAttributes } from '../../../src/data/rls/index.ts';
import { createMemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import type { SqlDialect } from '../../../src/data/types.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { duckdbFixture, mysqlFixture, placeOrgFile, postgresFixture, SKIP_MYSQL, SKIP_PG, tempDir } from '../warehouses.ts';

const FUNCTION: Partial<Record<SqlDialect, string>> = {
  postgresql: "CREATE FUNCTION hidden_total() RETURNS numeric LANGUAGE sql AS 'SELECT sum(total_amount) FROM orders'",
  mysql: 'CREATE FUNCTION hidden_total() RETURNS DECIMAL(12,2) READS SQL DATA RETURN (SELECT sum(total_amount) FROM orders)',
  duckdb: 'CREATE MACRO hidden_total() AS (SELECT sum(total_amount) FROM orders)',
};

async function scenario(t: import('ava').ExecutionContext, dialect: SqlDialect) {
  const root = tempDir();
  const docs = createMemoryTableDocs();
  const app: TestApp = await startTestApp({ SEXTANT_WAREHOUSE_ROOTS: root }, { tableDocs: docs });
  const org = app.org();
  let drop: (() => Promise<void>) | undefined;
  try {
    let settings: Record<string, unknown>;
    let schema = 'main';
    if (dialect === 'duckdb') {
      placeOrgFile(root, org, 'wh.duckdb', (await duckdbFixture([FUNCTION.duckdb!])).path!);
      settings = { path: 'wh.duckdb' };
    } else {
      const f = dialect === 'postgresql' ? await postgresFixture([FUNCTION.postgresql!]) : await mysqlFixture([FUNCTION.mysql!]);
      if (!f) return t.log(dialect === 'postgresql' ? SKIP_PG : SKIP_MYSQL), t.pass();
      drop = f.drop;
      settings = f.settings as Record<string, unknown>;
      schema = dialect === 'postgresql' ? 'public' : String(f.settings.database);
    }
    const admin = app.user({ orgId: org, role: 'admin' });
    const user = app.user({ orgId: org });
    await setUserAttributes(app.app.services.executor, org, user.id, { country: 'Germany' });
    const auth = { authorization: `Bearer ${app.session(admin)}`, 'content-type': 'application/json' };
    t.is((await app.fetch('/api/connections', { method: 'POST', headers: auth, body: JSON.stringify({ id: 'wh', name: 'wh', type: dialect, settings }) })).status, 201);
    t.is((await app.fetch(`/api/sync/${dialect}/wh`, { method: 'POST', headers: auth, body: '{}' })).status, 200);
    docs.setTables(org, undefined, [{ connection: 'wh', schema, name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] }]);
    const run = async (who: UserRow, sql: string) => {
      const db = app.app.services.store.sqlite!;
      return executeQuery(app.app.services.data, { principal: (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), who.id))!, org, 'session', []))!, environmentId: undefined, connectionId: 'wh', sql });
    };
    const err = await t.throwsAsync(run(user, 'SELECT hidden_total() AS total'), { instanceOf: QueryRefused });
    t.is(err?.reason, 'warehouse_function');
    t.is(Number((await run(admin, 'SELECT hidden_total() AS total')).rows[0]![0]), 105.75);
    t.is(Number((await run(user, 'SELECT sum(total_amount) FROM orders')).rows[0]![0]), 40.75);
  } finally {
    await app.stop();
    await drop?.();
  }
}

for (const dialect of ['postgresql', 'mysql', 'duckdb'] as const) {
  test(`${dialect}: a function defined in the warehouse is refused to a user whose row filter applies, and answers an admin`, (t) => scenario(t, dialect));
}
