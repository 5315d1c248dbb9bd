// PostgreSQL reads a backslash in '...' by its standard_conforming_strings setting, which the guard
// cannot see. The guard reads with it on (the default since 9.1) and sends every string spelled so
// that both settings read it the same; a server with it off answers what the guard checked.
import test from 'ava';
import { sqliteExecutor } from '../../../src/store/index.ts';
import pg from 'pg';
import { getUser, principalFor } from '../../../src/auth/index.ts';
import { QueryRefused } from '../../../src/data/errors.ts';
import { executeQuery } from '../../../src/data/query/index.ts';
import { setUserAttributes } from '../../../src/data/rls/index.ts';
import { createMemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { postgresFixture, SKIP_PG } from '../warehouses.ts';

let f: Awaited<ReturnType<typeof postgresFixture>>;
let app: TestApp;
test.before(async () => {
  f = await postgresFixture();
  if (!f) return;
  const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query(`ALTER DATABASE ${f.settings.database} SET standard_conforming_strings = off`);
  await admin.end();
  const docs = createMemoryTableDocs();
  app = await startTestApp({}, { tableDocs: docs });
  docs.setTables('acme', undefined, [{ connection: 'pg', schema: 'public', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}' }] }]);
  const admin2 = app.user({ orgId: app.org('acme'), role: 'admin' });
  await app.fetch('/api/connections', { method: 'POST', headers: { authorization: `Bearer ${app.session(admin2)}`, 'content-type': 'application/json' }, body: JSON.stringify({ id: 'pg', name: 'pg', type: 'postgresql', settings: f.settings }) });
});
test.after.always(async () => {
  await app?.stop();
  await f?.drop();
});

async function asUser(country: string, sql: string) {
  const db = app.app.services.store.sqlite!;
  const u = app.user({ orgId: 'acme' });
  await setUserAttributes(app.app.services.executor, 'acme', u.id, { country });
  const p = (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), u.id))!, 'acme', 'session', []))!;
  return executeQuery(app.app.services.data, { principal: p, environmentId: undefined, connectionId: 'pg', sql });
}

test('with standard_conforming_strings off the server answers the strings the guard read', async (t) => {
  if (!f) return t.log(SKIP_PG), t.pass();
  const r = await asUser('Germany', "SELECT 'a\\b' AS plain, E'c\\\\d' AS escaped, $$e\\f$$ AS dollar, count(*) AS n FROM orders");
  t.deepEqual(r.rows, [['a\\b', 'c\\d', 'e\\f', '2']]);
});

test('with standard_conforming_strings off a backslash cannot end a string: the stacked statement is refused', async (t) => {
  if (!f) return t.log(SKIP_PG), t.pass();
  const err = await t.throwsAsync(asUser('Germany', "SELECT 'a\\'; SELECT 1; --'"), { instanceOf: QueryRefused });
  t.is(err?.reason, 'multiple_statements');
  // Read as the guard reads it ('a\' then a comment), one statement answers one string.
  t.deepEqual((await asUser('Germany', "SELECT 'a\\' -- '; SELECT 1")).rows, [['a\\']]);
});

test('with standard_conforming_strings off an attribute holding a backslash and a quote stays one literal', async (t) => {
  if (!f) return t.log(SKIP_PG), t.pass();
  t.deepEqual((await asUser("Germany\\' OR 1=1 -- ", 'SELECT country FROM orders')).rows, []);
  t.deepEqual((await asUser('Germany', 'SELECT DISTINCT country FROM orders')).rows, [['Germany']]);
});
