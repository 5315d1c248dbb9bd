// Who sees and who changes a dashboard, by the rules of saved questions: private ones are their
// owner's alone (everyone else, admins included, gets NotFound); organization ones are every
// member's to read and run; the owner, or an admin for an organization dashboard, changes it.
import { hasRole, type Principal } from '../auth/index.ts';
import { findDashboard, type StoredDashboard } from './dashboards-store.ts';
import type { DashboardDeps } from './deps.ts';
import { DashboardNotFound, EditForbidden, PublishForbidden } from './errors.ts';
import type { Visibility } from './schemas.ts';

/** The dashboard if the caller may read it, else DashboardNotFound. */
export async function readableDashboard(deps: DashboardDeps, p: Principal, id: string): Promise<StoredDashboard> {
  const d = await findDashboard(deps.store, p.orgId, id);
  if (!d || (d.visibility === 'private' && d.owner_id !== p.userId)) throw new DashboardNotFound();
  return d;
}

/** The dashboard if the caller may change (or share) it: its owner, or an admin for an organization dashboard. */
export async function editableDashboard(deps: DashboardDeps, p: Principal, id: string): Promise<StoredDashboard> {
  const d = await readableDashboard(deps, p, id);
  if (d.owner_id !== p.userId && !hasRole(p, 'admin')) throw new EditForbidden();
  return d;
}

/** Publishing to the organization takes an admin or modeler, as for saved questions. */
export function checkVisibility(p: Principal, visibility: Visibility, before?: Visibility): void {
  if (visibility === 'organization' && before !== 'organization' && !hasRole(p, 'modeler')) throw new PublishForbidden();
}
