// The PostgreSQL COPY path of CSV exports runs the governed statement: the guard, the caller's row
// filters and the query log hold on it as on the row writer's path.
import test from 'ava';
import { Writable } from 'node:stream';
import { sqliteExecutor } from '../../../src/store/index.ts';
import { getUser, principalFor, type UserRow } from '../../../src/auth/index.ts';
import { QueryRefused } from '../../../src/data/errors.ts';
import { copyQueryCsv } from '../../../src/data/query/index.ts';
import { setUserAttributes } from '../../../src/data/rls/index.ts';
import { createMemoryTableDocs } from '../../../src/data/table-docs-memory.ts';
import { startTestApp } from '../../helpers/app.ts';
import { postgresFixture, SKIP_PG } from '../warehouses.ts';

class Collect extends Writable {
  chunks: Buffer[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.chunks.push(chunk);
    cb();
  }
}

test('a PostgreSQL CSV export through COPY keeps the guard, the row filters and the query log', async (t) => {
  const f = await postgresFixture();
  if (!f) return t.pass(SKIP_PG);
  const docs = createMemoryTableDocs();
  const app = await startTestApp({}, { tableDocs: docs });
  const org = app.org();
  try {
    const admin = app.user({ orgId: org, role: 'admin' });
    const user = app.user({ orgId: org });
    await setUserAttributes(app.app.services.executor, org, user.id, { country: 'France' });
    const auth = { authorization: `Bearer ${app.session(admin)}`, 'content-type': 'application/json' };
    t.is((await app.fetch('/api/connections', { method: 'POST', headers: auth, body: JSON.stringify({ id: 'wh', name: 'wh', type: 'postgresql', settings: f.settings }) })).status, 201);
    docs.setTables(org, undefined, [{ connection: 'wh', schema: 'public', name: 'orders', active: true, row_filters: [{ filter: 'country = {{user.country}}', exempt_roles: ['admin'] }] }]);
    const db = app.app.services.store.sqlite!;
    const as = async (who: UserRow) => (await principalFor(sqliteExecutor(db), (await getUser(sqliteExecutor(db), who.id))!, org, 'session', []))!;
    const args = async (who: UserRow, sql: string) => ({ principal: await as(who), environmentId: undefined, connectionId: 'wh', sql, source: 'download_csv' });

    const copy = await copyQueryCsv(app.app.services.data, await args(user, 'SELECT order_id, country, total_amount FROM orders ORDER BY order_id'));
    t.truthy(copy, 'COPY takes this result');
    t.regex(copy!.executedSql, /'France'/);
    const out = new Collect();
    t.is((await copy!.write(out)).rows, 2);
    t.is(Buffer.concat(out.chunks).toString(), 'order_id,country,total_amount\r\n2,France,20.00\r\n5,France,5.00\r\n');
    const logged = db.prepare("SELECT status, row_count FROM query_log WHERE user_id = ? AND source = 'download_csv' ORDER BY rowid DESC LIMIT 1").get(user.id);
    t.deepEqual(logged, { status: 'ok', row_count: 2 });

    // A table that is not a governed source is refused before anything runs, as on every path.
    await t.throwsAsync(copyQueryCsv(app.app.services.data, await args(user, 'SELECT * FROM customers')), { instanceOf: QueryRefused });
    // A result COPY would write differently goes back to the row writer: nothing logged for it here.
    t.is(await copyQueryCsv(app.app.services.data, await args(admin, 'SELECT 1.5::float8 AS f')), undefined);
  } finally {
    await app.stop();
    await f.drop();
  }
});
