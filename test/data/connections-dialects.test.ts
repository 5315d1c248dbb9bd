// Warehouse connections give the same answers on SQLite and PostgreSQL: saved with a sealed password,
// listed, patched column by column, deleted; an id taken is a conflict; and another organization's
// connection of the same id is never read, changed or deleted.
import { sql } from 'kysely';
import {
  connectionSecrets,
  connectionToQuery,
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  listUnconfinedConnections,
  updateConnection,
} from '../../src/data/connections/index.ts';
import { dialectTest } from '../helpers/executors.ts';
import { connectionDeps, twoOrganizations } from '../helpers/data-store.ts';

const pg = { name: 'Main warehouse', type: 'postgresql' as const, settings: { host: 'db.acme.test', database: 'main' } };

dialectTest('a connection is saved with its password sealed, listed and opened with it', async (t, { x }) => {
  const deps = connectionDeps(await twoOrganizations(x));
  const saved = await createConnection(deps, 'acme', 'ann', { ...pg, password: 's3cret' });
  t.like(saved, { id: 'main_warehouse', type: 'postgresql', has_password: true, settings: { host: 'db.acme.test' } });
  t.false(JSON.stringify(saved).includes('s3cret'));
  const stored = await x.one<{ secret_sealed: string }>(sql`SELECT secret_sealed FROM connections WHERE id = 'main_warehouse'`);
  t.false(stored!.secret_sealed.includes('s3cret'));
  t.is((await connectionSecrets(deps, 'acme', 'main_warehouse')).settings.password, 's3cret');
  t.deepEqual((await listConnections(deps, 'acme')).map((c) => c.id), ['main_warehouse']);
  t.is(await connectionToQuery(deps, 'acme', undefined), 'main_warehouse');
});

dialectTest(
  'connections are listed by name as SQLite orders it (capitals first) whatever the collation of the database',
  async (t, { x }) => {
    const deps = connectionDeps(await twoOrganizations(x));
    for (const name of ['billing', 'Archive', 'analytics', 'Zeta']) await createConnection(deps, 'acme', 'ann', { ...pg, name });
    t.deepEqual((await listConnections(deps, 'acme')).map((c) => c.name), ['Archive', 'Zeta', 'analytics', 'billing']);
  },
  { pgCollation: 'linguistic' },
);

dialectTest('an id already taken in the organization is a conflict, and the first connection stays', async (t, { x }) => {
  const deps = connectionDeps(await twoOrganizations(x));
  await createConnection(deps, 'acme', 'ann', { ...pg, id: 'wh' });
  await t.throwsAsync(createConnection(deps, 'acme', 'ann', { ...pg, id: 'wh', name: 'Second' }), { code: 'CONNECTION_EXISTS' });
  t.is((await getConnection(deps, 'acme', 'wh')).name, 'Main warehouse');
});

dialectTest('a patch writes only the fields it names, so two admins patching different fields both keep theirs', async (t, { x, other }) => {
  const store = await twoOrganizations(x);
  const deps = connectionDeps(store);
  await createConnection(deps, 'acme', 'ann', { ...pg, id: 'wh', password: 'old' });
  await Promise.all([
    updateConnection(deps, 'acme', 'wh', { name: 'Renamed' }),
    updateConnection(connectionDeps(other as typeof store), 'acme', 'wh', { password: 'new' }),
  ]);
  t.like(await getConnection(deps, 'acme', 'wh'), { name: 'Renamed', has_password: true, settings: { host: 'db.acme.test' } });
  t.is((await connectionSecrets(deps, 'acme', 'wh')).settings.password, 'new');
  await updateConnection(deps, 'acme', 'wh', { password: null, settings: { host: 'db2.acme.test' } });
  t.like(await getConnection(deps, 'acme', 'wh'), { name: 'Renamed', has_password: false, settings: { host: 'db2.acme.test' } });
});

dialectTest("another organization's connection of the same id is never read, changed or deleted", async (t, { x }) => {
  const deps = connectionDeps(await twoOrganizations(x));
  await createConnection(deps, 'globex', 'gus', { ...pg, id: 'wh', name: 'Globex warehouse', password: 'theirs' });
  await t.throwsAsync(getConnection(deps, 'acme', 'wh'), { code: 'CONNECTION_NOT_FOUND' });
  await t.throwsAsync(connectionSecrets(deps, 'acme', 'wh'), { code: 'CONNECTION_NOT_FOUND' });
  await t.throwsAsync(updateConnection(deps, 'acme', 'wh', { name: 'Taken over', password: 'mine' }), { code: 'CONNECTION_NOT_FOUND' });
  await t.throwsAsync(deleteConnection(deps, 'acme', 'wh'), { code: 'CONNECTION_NOT_FOUND' });
  t.deepEqual(await listConnections(deps, 'acme'), []);
  t.like(await getConnection(deps, 'globex', 'wh'), { name: 'Globex warehouse' });
  t.is((await connectionSecrets(deps, 'globex', 'wh')).settings.password, 'theirs');
  // The same id is free in the first organization.
  t.like(await createConnection(deps, 'acme', 'ann', { ...pg, id: 'wh' }), { id: 'wh', has_password: false });
});

dialectTest('a deleted connection is gone, and deleting it again is not found', async (t, { x }) => {
  const deps = connectionDeps(await twoOrganizations(x));
  await createConnection(deps, 'acme', 'ann', { ...pg, id: 'wh' });
  await deleteConnection(deps, 'acme', 'wh');
  await t.throwsAsync(deleteConnection(deps, 'acme', 'wh'), { code: 'CONNECTION_NOT_FOUND' });
  await t.throwsAsync(updateConnection(deps, 'acme', 'wh', { name: 'Back' }), { code: 'CONNECTION_NOT_FOUND' });
  t.deepEqual(await listConnections(deps, 'acme'), []);
});

dialectTest('file connections whose stored path lies outside their organization folder are listed', async (t, { x }) => {
  const store = await twoOrganizations(x);
  const row = (org: string, id: string, type: string, path: string) =>
    x.run(sql`INSERT INTO connections (org_id, id, name, type, settings, created_at, updated_at) VALUES (${org}, ${id}, ${id}, ${type}, ${JSON.stringify({ path })}, 0, 0)`);
  await row('acme', 'shared', 'duckdb', '/srv/shared/wh.duckdb');
  await row('acme', 'own', 'sqlite', '/srv/wh/acme/own.db');
  await row('globex', 'rel', 'duckdb', 'rel.duckdb');
  t.deepEqual(await listUnconfinedConnections(store, ['/srv/wh']), [{ orgId: 'acme', connectionId: 'shared', path: '/srv/shared/wh.duckdb', folder: '/srv/wh/acme' }]);
});

dialectTest(
  'file connections outside their folder are listed by the bytes of their ids whatever the collation of the database',
  async (t, { x }) => {
    const store = await twoOrganizations(x);
    for (const id of ['b-wh', 'B-wh', 'a-wh']) {
      await x.run(sql`INSERT INTO connections (org_id, id, name, type, settings, created_at, updated_at) VALUES ('acme', ${id}, ${id}, 'duckdb', ${JSON.stringify({ path: `/srv/shared/${id}.duckdb` })}, 0, 0)`);
    }
    t.deepEqual((await listUnconfinedConnections(store, ['/srv/wh'])).map((c) => c.connectionId), ['B-wh', 'a-wh', 'b-wh']);
  },
  { pgCollation: 'linguistic' },
);
