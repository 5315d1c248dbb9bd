// Read-only links to a dashboard, like shared chats: each under its own random id (128 bits, never
// the dashboard's id), revocable by deleting it. A link's tiles run with the SHARER's permissions
// and row security as they are at the time of the run; the view says so. A sharer who can no
// longer read the dashboard, or who left the organization, leaves a link that answers 404.
import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/index.ts';
import { editableDashboard, readableDashboard } from './access.ts';
import type { DashboardDeps } from './deps.ts';
import { DashboardNotFound, ShareNotFound } from './errors.ts';
import { runTileOf, runTilesOf, type TileOutcome, type TileRunArgs } from './run-tiles.ts';
import type { Dashboard, TileRun } from './schemas.ts';
import { deleteShare, findShare, insertShare, listShares } from './shares-store.ts';
import { viewOf } from './tiles.ts';

export interface DashboardShare {
  share_id: string;
  shared_by: string;
  shared_at: string;
}

const toShare = (r: { id: string; created_by: string; created_at: number }): DashboardShare => ({ share_id: r.id, shared_by: r.created_by, shared_at: new Date(r.created_at).toISOString() });

/** Creates a link to a dashboard the caller may edit (owner, or an admin for an organization one). */
export async function shareDashboard(deps: DashboardDeps, p: Principal, id: string): Promise<DashboardShare> {
  await editableDashboard(deps, p, id);
  const row = { id: randomBytes(16).toString('base64url'), dashboard_id: id, org_id: p.orgId, created_by: p.userId, created_at: deps.clock.now() };
  await insertShare(deps.store, row);
  return toShare(row);
}

/** The links of a dashboard the caller may edit, newest first. */
export async function dashboardShares(deps: DashboardDeps, p: Principal, id: string): Promise<DashboardShare[]> {
  await editableDashboard(deps, p, id);
  return (await listShares(deps.store, id)).map(toShare);
}

/** Revokes a link: from then on it answers 404. */
export async function revokeDashboardShare(deps: DashboardDeps, p: Principal, id: string, shareId: string): Promise<void> {
  await editableDashboard(deps, p, id);
  if (!(await deleteShare(deps.store, id, shareId))) throw new ShareNotFound();
}

/** The sharer as they act now, and the dashboard as they may read it; ShareNotFound otherwise. */
async function resolveShare(deps: DashboardDeps, shareId: string) {
  const share = await findShare(deps.store, shareId);
  const sharer = share && (await deps.ports.principal(share.org_id, share.created_by));
  if (!share || !sharer) throw new ShareNotFound();
  try {
    return { share, sharer, dashboard: await readableDashboard(deps, sharer, share.dashboard_id) };
  } catch (err) {
    if (err instanceof DashboardNotFound) throw new ShareNotFound();
    throw err;
  }
}

/** The public view of a shared dashboard: what the sharer sees, without owner or ids of people. */
export async function sharedDashboard(deps: DashboardDeps, shareId: string): Promise<Pick<Dashboard, 'title' | 'description' | 'filters' | 'tiles'> & { shared_at: string }> {
  const { share, sharer, dashboard } = await resolveShare(deps, shareId);
  const view = await viewOf(deps, sharer, dashboard);
  return { title: view.title, description: view.description, filters: view.filters, tiles: view.tiles, shared_at: new Date(share.created_at).toISOString() };
}

/**
 * Tile runs per link: anyone holding a link makes the sharer's warehouse work, without signing in,
 * so a link has a ceiling (a 12-tile dashboard opened or refreshed 50 times a minute fits).
 */
export const SHARED_RUNS = { max: 600, windowMs: 60_000 };

/** Runs one tile of a shared dashboard as the sharer, on production. */
export async function runSharedTile(deps: DashboardDeps, shareId: string, a: Omit<TileRunArgs, 'environmentId'>): Promise<TileRun> {
  const { sharer, dashboard } = await resolveShare(deps, shareId);
  await deps.ports.throttle(`dashboard_share:${shareId}`, SHARED_RUNS);
  return runTileOf(deps, sharer, dashboard, { ...a, environmentId: undefined });
}

/** Every question tile of a shared dashboard as the sharer, on production, each as it finishes; each counts against the link's ceiling. */
export async function runSharedTiles(deps: DashboardDeps, shareId: string, a: Omit<TileRunArgs, 'environmentId' | 'tileId'>): Promise<AsyncGenerator<TileOutcome[]>> {
  const { sharer, dashboard } = await resolveShare(deps, shareId);
  for (const t of dashboard.tiles) if (t.saved_question_id !== null) await deps.ports.throttle(`dashboard_share:${shareId}`, SHARED_RUNS);
  return runTilesOf(deps, sharer, dashboard, { ...a, environmentId: undefined });
}
