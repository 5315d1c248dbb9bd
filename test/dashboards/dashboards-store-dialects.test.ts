// The dashboard tables give the same answers on SQLite and PostgreSQL: what is listed to whom, tiles
// kept in order and replaced as a whole by an edit, a stale edit refused, links revoked, and the tiles
// and links gone with the dashboard.
import { sql } from 'kysely';
import { deleteDashboard, findDashboard, insertDashboard, listDashboards, updateDashboard } from '../../src/dashboards/dashboards-store.ts';
import { deleteShare, findShare, insertShare, listShares } from '../../src/dashboards/shares-store.ts';
import type { DashboardFields, StoredTile } from '../../src/dashboards/index.ts';
import { dialectTest } from '../helpers/executors.ts';

const fields = (title: string, visibility: DashboardFields['visibility'] = 'private'): DashboardFields => ({
  title,
  description: '',
  visibility,
  filters: [{ id: 'when', type: 'date_range', field: 'order_date', default: { from: '2024-01-01' } }],
});
const tile = (id: string, q: string | null, y = 0): StoredTile => ({ id, saved_question_id: q, text: q ? null : 'Notes', x: 0, y, w: 6, h: 4 });

dialectTest('dashboards are listed to their owner or the organization, edited with their tiles, shared and deleted with tiles and links', async (t, { x }) => {
  for (const org of ['acme', 'other']) await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES (${org}, ${org}, 0)`);
  for (const u of ['u1', 'u2']) await x.run(sql`INSERT INTO users (id, email, created_at) VALUES (${u}, ${`${u}@example.com`}, 0)`);
  await insertDashboard(x, { id: 'd1', orgId: 'acme', ownerId: 'u1', at: 1000, fields: fields('Mine'), tiles: [tile('b', 'q1'), tile('a', null, 4)] });
  await insertDashboard(x, { id: 'd2', orgId: 'acme', ownerId: 'u2', at: 2000, fields: fields('Shared', 'organization'), tiles: [] });
  await insertDashboard(x, { id: 'd3', orgId: 'acme', ownerId: 'u2', at: 3000, fields: fields('Theirs'), tiles: [] });
  await insertDashboard(x, { id: 'd4', orgId: 'other', ownerId: 'u1', at: 4000, fields: fields('Elsewhere', 'organization'), tiles: [] });
  t.deepEqual((await listDashboards(x, 'acme', 'u1')).map((d) => [d.id, d.tile_count]), [['d2', 0], ['d1', 2]]);
  t.deepEqual((await listDashboards(x, 'acme', 'u2')).map((d) => d.id), ['d3', 'd2']);
  t.is(await findDashboard(x, 'acme', 'd4'), undefined, "another organization's");
  const d1 = await findDashboard(x, 'acme', 'd1');
  t.like(d1, { version: 1, title: 'Mine', filters: fields('Mine').filters, created_at: new Date(1000).toISOString() });
  t.deepEqual(d1?.tiles, [tile('b', 'q1'), tile('a', null, 4)], 'in the order written');

  t.true(await updateDashboard(x, { id: 'd1', fromVersion: 1, fields: { ...fields('Renamed'), filters: [] }, tiles: [tile('c', 'q2')], at: 5000 }));
  t.false(await updateDashboard(x, { id: 'd1', fromVersion: 1, fields: fields('Stale'), tiles: [], at: 6000 }), 'written from an old version');
  t.like(await findDashboard(x, 'acme', 'd1'), { version: 2, title: 'Renamed', filters: [], tiles: [tile('c', 'q2')], updated_at: new Date(5000).toISOString() });

  await insertShare(x, { id: 's1', dashboard_id: 'd1', org_id: 'acme', created_by: 'u1', created_at: 7000 });
  await insertShare(x, { id: 's2', dashboard_id: 'd1', org_id: 'acme', created_by: 'u1', created_at: 8000 });
  t.deepEqual((await listShares(x, 'd1')).map((s) => s.id), ['s2', 's1']);
  t.false(await deleteShare(x, 'd2', 's1'), 'not a link of that dashboard');
  t.true(await deleteShare(x, 'd1', 's1'));
  t.is(await findShare(x, 's1'), undefined);
  t.like(await findShare(x, 's2'), { dashboard_id: 'd1', created_by: 'u1', created_at: 8000 });

  await deleteDashboard(x, 'other', 'd1');
  t.truthy(await findDashboard(x, 'acme', 'd1'), 'not deleted from another organization');
  await deleteDashboard(x, 'acme', 'd1');
  t.is(await findDashboard(x, 'acme', 'd1'), undefined);
  t.is(await findShare(x, 's2'), undefined, 'links go with the dashboard');
  t.is((await x.all(sql`SELECT * FROM dashboard_tiles WHERE dashboard_id = 'd1'`)).length, 0);
});

dialectTest('a search finds the dashboards whose title or description holds the text, in any ASCII case, a page at a time', async (t, { x }) => {
  await x.run(sql`INSERT INTO organizations (id, name, created_at) VALUES ('acme', 'acme', 0)`);
  for (const u of ['u1', 'u2']) await x.run(sql`INSERT INTO users (id, email, created_at) VALUES (${u}, ${`${u}@example.com`}, 0)`);
  const board = (title: string, description = '', visibility: DashboardFields['visibility'] = 'organization') => ({ ...fields(title, visibility), description });
  await insertDashboard(x, { id: 'd1', orgId: 'acme', ownerId: 'u1', at: 1000, fields: board('Revenue board'), tiles: [] });
  await insertDashboard(x, { id: 'd2', orgId: 'acme', ownerId: 'u1', at: 2000, fields: board('Weekly', 'Every REVENUE line'), tiles: [] });
  await insertDashboard(x, { id: 'd3', orgId: 'acme', ownerId: 'u2', at: 3000, fields: board('Private revenue', '', 'private'), tiles: [] });
  await insertDashboard(x, { id: 'd4', orgId: 'acme', ownerId: 'u1', at: 4000, fields: board('50% of_plan'), tiles: [] });
  const found = async (q: string, after?: { at: number; id: string }) => (await listDashboards(x, 'acme', 'u1', { q, after })).map((d) => d.id);
  t.deepEqual(await found('revenue'), ['d2', 'd1'], 'title or description, last edited first; another user\'s private one is not listed');
  t.deepEqual(await found('%'), ['d4'], 'a % is a percent sign');
  t.deepEqual(await found('0_p'), [], 'an _ is an underscore');
  t.deepEqual(await found('revenue', { at: 2000, id: 'd2' }), ['d1'], 'after the cursor');
  t.deepEqual((await listDashboards(x, 'acme', 'u1', { limit: 2 })).map((d) => d.id), ['d4', 'd2']);
});
