// Reading dashboards: the list and one dashboard with its tiles as the caller sees them.
import type { Principal } from '../auth/index.ts';
import { readableDashboard } from './access.ts';
import { listDashboards } from './dashboards-store.ts';
import type { DashboardDeps } from './deps.ts';
import type { Dashboard, DashboardSummary } from './schemas.ts';
import { viewOf } from './tiles.ts';

/** The organization's dashboards and the caller's private ones, last edited first. */
export async function dashboards(deps: DashboardDeps, p: Principal): Promise<DashboardSummary[]> {
  return listDashboards(deps.store, p.orgId, p.userId);
}

/** One dashboard the caller may read. */
export async function dashboard(deps: DashboardDeps, p: Principal, id: string): Promise<Dashboard> {
  return viewOf(deps, p, await readableDashboard(deps, p, id));
}
