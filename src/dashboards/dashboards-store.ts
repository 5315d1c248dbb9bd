// SQL of the dashboards and dashboard_tiles tables. A dashboard and its tiles are written in one
// batch: an edit replaces every tile only if the dashboard is still at the version it was read at.
import { sql } from 'kysely';
import { afterKeyset, containsText, type Executor, type KeysetAfter } from '../store/index.ts';
import type { DashboardFields, DashboardFilter, StoredTile, Visibility } from './schemas.ts';

interface DashboardRow {
  id: string;
  org_id: string;
  owner_id: string;
  visibility: Visibility;
  version: number;
  title: string;
  description: string;
  filters: string;
  created_at: number;
  updated_at: number;
}

/** A dashboard as stored, tiles in grid order. */
export interface StoredDashboard {
  id: string;
  owner_id: string;
  visibility: Visibility;
  version: number;
  title: string;
  description: string;
  filters: DashboardFilter[];
  tiles: StoredTile[];
  created_at: string;
  updated_at: string;
}

const iso = (ms: number) => new Date(Number(ms)).toISOString();

function toDashboard(r: DashboardRow, tiles: StoredTile[]): StoredDashboard {
  return {
    id: r.id,
    owner_id: r.owner_id,
    visibility: r.visibility,
    version: Number(r.version),
    title: r.title,
    description: r.description,
    filters: JSON.parse(r.filters) as DashboardFilter[],
    tiles,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

const insertTiles = (id: string, tiles: StoredTile[]) =>
  tiles.map(
    (t, i) => sql`INSERT INTO dashboard_tiles (dashboard_id, tile_id, position, saved_question_id, text, x, y, w, h)
      VALUES (${id}, ${t.id}, ${i}, ${t.saved_question_id}, ${t.text}, ${t.x}, ${t.y}, ${t.w}, ${t.h})`,
  );

/** Stores a new dashboard as version 1 with its tiles. */
export async function insertDashboard(x: Executor, d: { id: string; orgId: string; ownerId: string; at: number; fields: DashboardFields; tiles: StoredTile[] }): Promise<void> {
  const f = d.fields;
  await x.batch([
    sql`INSERT INTO dashboards (id, org_id, owner_id, visibility, version, title, description, filters, created_at, updated_at)
      VALUES (${d.id}, ${d.orgId}, ${d.ownerId}, ${f.visibility}, 1, ${f.title}, ${f.description}, ${JSON.stringify(f.filters)}, ${d.at}, ${d.at})`,
    ...insertTiles(d.id, d.tiles),
  ]);
}

/** A dashboard of the organization with its tiles, or undefined. */
export async function findDashboard(x: Executor, orgId: string, id: string): Promise<StoredDashboard | undefined> {
  const row = await x.one(sql<DashboardRow>`SELECT * FROM dashboards WHERE org_id = ${orgId} AND id = ${id}`);
  if (!row) return undefined;
  const tiles = await x.all(sql<StoredTile>`SELECT tile_id AS id, saved_question_id, text, x, y, w, h FROM dashboard_tiles WHERE dashboard_id = ${id} ORDER BY position`);
  return toDashboard(
    row,
    tiles.map((t) => ({ ...t, x: Number(t.x), y: Number(t.y), w: Number(t.w), h: Number(t.h) })),
  );
}

/** What a page of the list holds: those whose title or description contains `q`, `limit` of them after `after`, each when given. */
export interface ListQuery {
  q?: string | undefined;
  after?: KeysetAfter | undefined;
  limit?: number | undefined;
}

/** The organization's dashboards and the user's private ones, last edited first, with their tile counts. */
export async function listDashboards(x: Executor, orgId: string, userId: string, page: ListQuery = {}): Promise<(Omit<StoredDashboard, 'tiles' | 'filters'> & { tile_count: number })[]> {
  const search = page.q === undefined ? sql`` : sql`AND (${containsText(x, sql.ref('d.title'), page.q)} OR ${containsText(x, sql.ref('d.description'), page.q)})`;
  const limit = page.limit === undefined ? sql`` : sql`LIMIT ${page.limit}`;
  const rows = await x.all(sql<DashboardRow & { tile_count: number }>`SELECT d.*, (SELECT COUNT(*) FROM dashboard_tiles t WHERE t.dashboard_id = d.id) AS tile_count
    FROM dashboards d WHERE d.org_id = ${orgId} AND (d.visibility = 'organization' OR d.owner_id = ${userId}) ${search} ${afterKeyset(page.after, 'd.updated_at', 'd.id')}
    ORDER BY d.updated_at DESC, d.id DESC ${limit}`);
  return rows.map((r) => {
    const { tiles: _t, filters: _f, ...rest } = toDashboard(r, []);
    return { ...rest, tile_count: Number(r.tile_count) };
  });
}

/**
 * Writes the next version with its tiles if the dashboard is still at `fromVersion`; false when someone
 * else wrote first. A private dashboard is its owner's alone, so in the same batch the links anyone
 * else made to it end for good: made organization again, it does not bring them back.
 */
export async function updateDashboard(x: Executor, u: { id: string; fromVersion: number; fields: DashboardFields; tiles: StoredTile[]; at: number }): Promise<boolean> {
  const f = u.fields;
  const res = await x.batch(
    [
      sql`UPDATE dashboards SET version = version + 1, visibility = ${f.visibility}, title = ${f.title}, description = ${f.description}, filters = ${JSON.stringify(f.filters)},
        updated_at = ${u.at} WHERE id = ${u.id} AND version = ${u.fromVersion}`,
      sql`DELETE FROM dashboard_tiles WHERE dashboard_id = ${u.id}`,
      ...insertTiles(u.id, u.tiles),
      ...(f.visibility === 'private' ? [sql`DELETE FROM dashboard_shares WHERE dashboard_id = ${u.id} AND created_by <> (SELECT owner_id FROM dashboards WHERE id = ${u.id})`] : []),
    ],
    { require: [0] },
  );
  return res.ok;
}

/** Deletes a dashboard with its tiles and share links. */
export async function deleteDashboard(x: Executor, orgId: string, id: string): Promise<void> {
  await x.run(sql`DELETE FROM dashboards WHERE org_id = ${orgId} AND id = ${id}`);
}
