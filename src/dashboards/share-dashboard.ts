// Read-only links to a dashboard, like shared chats: each under its own random id (128 bits, never
// the dashboard's id), revocable by deleting it. A link's tiles run with the SHARER's permissions
// and row security as they are at the time of the run; the view says so. A link lives only while its
// sharer keeps access without a break: a sharer who can no longer read the dashboard, or who was
// deactivated or removed, ends it for good, as a deactivation ends their tokens. Getting access back
// (reactivated, the dashboard made organization again) does not revive it; a new link is made anew.
import { randomBytes } from 'node:crypto';
import type { Principal } from '../auth/index.ts';
import { editableDashboard, mayRead } from './access.ts';
import { findDashboard, type StoredDashboard } from './dashboards-store.ts';
import type { DashboardDeps } from './deps.ts';
import { ShareNotFound } from './errors.ts';
import { runTileOf, runTilesOf, type TileOutcome, type TileRunArgs } from './run-tiles.ts';
import type { Dashboard, TileRun } from './schemas.ts';
import { deleteShare, findShare, insertShare, listShares, type ShareRow } from './shares-store.ts';
import { viewOf } from './tiles.ts';

export interface DashboardShare {
  share_id: string;
  shared_by: string;
  shared_at: string;
}

const toShare = (r: { id: string; created_by: string; created_at: number }): DashboardShare => ({ share_id: r.id, shared_by: r.created_by, shared_at: new Date(r.created_at).toISOString() });

/** Creates a link to a dashboard the caller may edit (owner, or an admin for an organization one). */
export async function shareDashboard(deps: DashboardDeps, p: Principal, id: string): Promise<DashboardShare> {
  await editableDashboard(deps, p, id, 'share');
  const row = { id: randomBytes(16).toString('base64url'), dashboard_id: id, org_id: p.orgId, created_by: p.userId, created_at: deps.clock.now() };
  await insertShare(deps.store, row);
  return toShare(row);
}

/**
 * The sharer as they act now, if they kept access to the dashboard since the link was made; else
 * undefined, and the link is deleted, so that no later return of access brings it back.
 */
async function liveSharer(deps: DashboardDeps, share: ShareRow, d: StoredDashboard): Promise<Principal | undefined> {
  const sharer = await deps.ports.principal(share.org_id, share.created_by);
  if (sharer && mayRead(sharer, d) && !(await deps.ports.accessInterrupted(share.org_id, share.created_by, share.created_at))) return sharer;
  await deleteShare(deps.store, share.dashboard_id, share.id);
  return undefined;
}

/** The live links of a dashboard the caller may edit, newest first (dead ones are ended on the way). */
export async function dashboardShares(deps: DashboardDeps, p: Principal, id: string): Promise<DashboardShare[]> {
  const d = await editableDashboard(deps, p, id, 'share');
  const rows = await listShares(deps.store, id);
  const live = await Promise.all(rows.map(async (r) => ((await liveSharer(deps, r, d)) ? [toShare(r)] : [])));
  return live.flat();
}

/** Revokes a link: from then on it answers 404. */
export async function revokeDashboardShare(deps: DashboardDeps, p: Principal, id: string, shareId: string): Promise<void> {
  await editableDashboard(deps, p, id, 'share');
  if (!(await deleteShare(deps.store, id, shareId))) throw new ShareNotFound();
}

/** The link, its dashboard and the sharer as they act now, if the link lives; ShareNotFound otherwise. */
async function resolveShare(deps: DashboardDeps, shareId: string) {
  const share = await findShare(deps.store, shareId);
  const dashboard = share && (await findDashboard(deps.store, share.org_id, share.dashboard_id));
  const sharer = share && dashboard && (await liveSharer(deps, share, dashboard));
  if (!share || !dashboard || !sharer) throw new ShareNotFound();
  return { share, sharer, dashboard };
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

/** What a link's run may choose: not the environment (production), nor how failures are told (as to a stranger). */
type SharedRunArgs = Omit<TileRunArgs, 'environmentId' | 'viaLink'>;

/** Runs one tile of a shared dashboard as the sharer, on production. */
export async function runSharedTile(deps: DashboardDeps, shareId: string, a: SharedRunArgs): Promise<TileRun> {
  const { sharer, dashboard } = await resolveShare(deps, shareId);
  await deps.ports.throttle(`dashboard_share:${shareId}`, SHARED_RUNS);
  return runTileOf(deps, sharer, dashboard, { ...a, environmentId: undefined, viaLink: true });
}

/** Every question tile of a shared dashboard as the sharer, on production, each as it finishes; each counts against the link's ceiling. */
export async function runSharedTiles(deps: DashboardDeps, shareId: string, a: Omit<SharedRunArgs, 'tileId'>): Promise<AsyncGenerator<TileOutcome[]>> {
  const { sharer, dashboard } = await resolveShare(deps, shareId);
  for (const t of dashboard.tiles) if (t.saved_question_id !== null) await deps.ports.throttle(`dashboard_share:${shareId}`, SHARED_RUNS);
  return runTilesOf(deps, sharer, dashboard, { ...a, environmentId: undefined, viaLink: true });
}
