// Row-security facts, the query log and the recorded warehouse relations give the same answers on
// SQLite and PostgreSQL, and never cross organizations: a member's attributes and groups as filters
// see them, groups saved and renamed (a name taken is a conflict), one log entry per query with its
// tables, usage ranking, and relations replaced per schema.
import { sql } from 'kysely';
import { FakeClock } from '../../src/clock.ts';
import { loggedQueryToRerun, logQuery, topTables, type QueryLogEntry } from '../../src/data/query/index.ts';
import { deleteGroup, listGroups, loadRlsUser, saveGroup } from '../../src/data/rls/index.ts';
import { loadRelations, saveRelations } from '../../src/data/sync/relations.ts';
import type { DataStore } from '../../src/data/tables.ts';
import type { Principal } from '../../src/auth/index.ts';
import { dialectTest } from '../helpers/executors.ts';
import { twoOrganizations } from '../helpers/data-store.ts';

const clock = new FakeClock();
const entry = (orgId: string, userId: string, tables: string[], status: QueryLogEntry['status'] = 'ok'): QueryLogEntry => ({
  orgId,
  userId,
  connectionId: 'wh',
  environmentId: undefined,
  sql: `SELECT * FROM ${tables.join(', ')}`,
  tables,
  status,
  rowCount: 3,
  durationMs: 1.6,
  source: 'api',
});
const principal = (orgId: string, userId: string, role: Principal['role'] = 'user') => ({ orgId, userId, role }) as Principal;

async function facts(x: DataStore) {
  await x.run(sql`INSERT INTO user_attributes (org_id, user_id, name, value) VALUES ('acme', 'ann', 'country', 'France'), ('globex', 'ann', 'country', 'Peru')`);
  await saveGroup(x, 'acme', { id: 'sales', name: 'Sales', members: ['ann'] });
  await saveGroup(x, 'globex', { id: 'ops', name: 'Ops', members: ['ann', 'gus'] });
}

dialectTest("a member's attributes and groups are read from their organization only", async (t, { x }) => {
  const store = await twoOrganizations(x);
  await facts(store);
  const user = await loadRlsUser(store, 'acme', { id: 'ann', email: 'ann@acme.test', role: 'user' });
  t.deepEqual(user.attributes, { country: 'France' });
  t.deepEqual(user.groups.sort(), ['Sales', 'sales']);
  t.deepEqual(await listGroups(store, 'acme'), [{ id: 'sales', name: 'Sales', members: ['ann'] }]);
  t.deepEqual(await listGroups(store, 'globex'), [{ id: 'ops', name: 'Ops', members: ['ann', 'gus'] }]);
});

dialectTest('a group is renamed with new members; a name another group holds is a conflict and changes nothing', async (t, { x }) => {
  const store = await twoOrganizations(x);
  await facts(store);
  await saveGroup(store, 'acme', { id: 'eu', name: 'Europe', members: [] });
  t.deepEqual(await saveGroup(store, 'acme', { id: 'sales', name: 'Sales EU', members: ['ann', 'ann'] }), { id: 'sales', name: 'Sales EU', members: ['ann'] });
  await t.throwsAsync(saveGroup(store, 'acme', { id: 'eu', name: 'Sales EU', members: ['ann'] }), { code: 'GROUP_EXISTS' });
  await t.throwsAsync(saveGroup(store, 'acme', { name: 'Sales EU', members: [] }), { code: 'GROUP_EXISTS' });
  t.deepEqual(await listGroups(store, 'acme'), [
    { id: 'eu', name: 'Europe', members: [] },
    { id: 'sales', name: 'Sales EU', members: ['ann'] },
  ]);
  // The same name in another organization is free.
  t.like(await saveGroup(store, 'globex', { id: 'x', name: 'Sales EU', members: [] }), { name: 'Sales EU' });
});

dialectTest("deleting a group of another organization is refused and leaves it whole", async (t, { x }) => {
  const store = await twoOrganizations(x);
  await facts(store);
  t.false(await deleteGroup(store, 'acme', 'ops'));
  t.deepEqual((await listGroups(store, 'globex')).map((g) => g.members), [['ann', 'gus']]);
  t.true(await deleteGroup(store, 'acme', 'sales'));
  t.deepEqual((await loadRlsUser(store, 'acme', { id: 'ann', email: '', role: 'user' })).groups, []);
});

dialectTest('a query is logged once with each table once, and ranks its tables for its organization only', async (t, { x }) => {
  const store = await twoOrganizations(x);
  const id = await logQuery(store, clock, entry('acme', 'ann', ['main.orders', 'main.orders', 'main.customers']));
  await logQuery(store, clock, entry('acme', 'ann', ['main.orders']));
  await logQuery(store, clock, entry('acme', 'ann', ['main.refused'], 'refused'));
  await logQuery(store, clock, entry('globex', 'gus', ['main.secret']));
  t.is((await x.all(sql`SELECT id FROM query_log WHERE id = ${id}`)).length, 1);
  t.deepEqual((await x.all<{ table_name: string }>(sql`SELECT table_name FROM query_log_tables WHERE query_id = ${id} ORDER BY table_name`)).map((r) => r.table_name), ['main.customers', 'main.orders']);
  t.like(await loggedQueryToRerun({ store }, principal('acme', 'ann'), id), { connection_id: 'wh', duration_ms: 2, status: 'ok', row_count: 3 });
  t.deepEqual(await topTables(store, 'acme'), [
    { connection_id: 'wh', table: 'main.orders', query_count: 2 },
    { connection_id: 'wh', table: 'main.customers', query_count: 1 },
  ]);
});

dialectTest('the values bound to a logged statement are kept with it and given back typed for a rerun; none is null', async (t, { x }) => {
  const store = await twoOrganizations(x);
  const params = [{ type: 'date', value: '2024-01-01' }, { type: 'text', value: "O'Brien" }, { type: 'number', value: 2.5 }] as const;
  const bound = await logQuery(store, clock, { ...entry('acme', 'ann', ['main.orders']), sql: 'SELECT * FROM orders WHERE d >= $1 AND n = $2 AND v > $3', params });
  const plain = await logQuery(store, clock, entry('acme', 'ann', ['main.orders']));
  t.deepEqual((await loggedQueryToRerun({ store }, principal('acme', 'ann'), bound)).boundParams, [...params]);
  t.like(await loggedQueryToRerun({ store }, principal('acme', 'ann'), plain), { params: null, boundParams: [] });
});

dialectTest("a logged query of another organization, or of another member, reads as absent; an admin reruns the organization's", async (t, { x }) => {
  const store = await twoOrganizations(x);
  await x.run(sql`INSERT INTO users (id, email, created_at) VALUES ('amy', 'amy@acme.test', 0)`);
  const theirs = await logQuery(store, clock, entry('globex', 'gus', ['main.secret']));
  const anns = await logQuery(store, clock, entry('acme', 'ann', ['main.orders']));
  await t.throwsAsync(loggedQueryToRerun({ store }, principal('acme', 'ann', 'admin'), theirs), { code: 'QUERY_NOT_FOUND' });
  await t.throwsAsync(loggedQueryToRerun({ store }, principal('acme', 'amy'), anns), { code: 'QUERY_NOT_FOUND' });
  t.like(await loggedQueryToRerun({ store }, principal('acme', 'amy', 'admin'), anns), { id: anns, user_id: 'ann' });
});

dialectTest("relations are replaced per schema, and another organization's are never read or replaced", async (t, { x }) => {
  const store = await twoOrganizations(x);
  for (const org of ['acme', 'globex']) {
    await x.run(sql`INSERT INTO connections (org_id, id, name, type, settings, created_at, updated_at) VALUES (${org}, 'wh', 'wh', 'duckdb', '{}', 0, 0)`);
  }
  await saveRelations(store, clock, 'globex', 'wh', [{ schema: 'main', name: 'theirs', kind: 'table' }]);
  await saveRelations(store, clock, 'acme', 'wh', [
    { schema: 'main', name: 'orders', kind: 'table', primaryKey: ['id'] },
    { schema: 'main', name: 'old', kind: 'table' },
    { schema: 'stage', name: 'raw', kind: 'table' },
  ]);
  await saveRelations(store, clock, 'acme', 'wh', [
    { schema: 'main', name: 'orders', kind: 'table', primaryKey: ['id'] },
    { schema: 'main', name: 'by_country', kind: 'view', reads: [{ name: 'orders' }, { schema: 'stage', name: 'raw' }] },
    { schema: 'main', name: 'by_country', kind: 'view', reads: [{ name: 'orders' }] },
  ]);
  const sorted = (await loadRelations(store, 'acme', 'wh')).sort((a, b) => a.name.localeCompare(b.name));
  t.deepEqual(sorted, [
    { schema: 'main', name: 'by_country', kind: 'view', reads: [{ name: 'orders' }] },
    { schema: 'main', name: 'orders', kind: 'table', primaryKey: ['id'] },
    { schema: 'stage', name: 'raw', kind: 'table' },
  ]);
  t.deepEqual(await loadRelations(store, 'globex', 'wh'), [{ schema: 'main', name: 'theirs', kind: 'table' }]);
});

dialectTest('two admins saving groups of one name at once through two connections: one saves, the other is told the name is taken', async (t, { x, other }) => {
  const store = await twoOrganizations(x);
  for (let trial = 0; trial < 10; trial++) {
    const name = `Team ${trial}`;
    const results = await Promise.allSettled([
      saveGroup(store, 'acme', { id: `a${trial}`, name, members: ['ann'] }),
      saveGroup(other as DataStore, 'acme', { id: `b${trial}`, name, members: [] }),
    ]);
    const saved = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    t.is(saved.length, 1, `trial ${trial}`);
    t.is((refused[0]?.reason as { code?: string }).code, 'GROUP_EXISTS', `trial ${trial}`);
    t.is((await listGroups(store, 'acme')).filter((g) => g.name === name).length, 1);
  }
});
