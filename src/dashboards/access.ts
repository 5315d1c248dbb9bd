// Who sees and who changes a dashboard, by the rules of saved questions: private ones are their
// owner's alone (everyone else, admins included, gets NotFound); organization ones are every
// member's to read and run; the owner, or an admin for an organization dashboard, changes it.
import { hasRole, type Principal } from '../auth/index.ts';
import { findDashboard, type StoredDashboard } from './dashboards-store.ts';
import type { DashboardDeps } from './deps.ts';
import { DashboardNotFound, EditForbidden, PublishForbidden, ShareForbidden } from './errors.ts';
import type { Visibility } from './schemas.ts';

/** Whether `p`, a member of the dashboard's organization, may read it. */
export const mayRead = (p: Principal, d: Pick<StoredDashboard, 'owner_id' | 'visibility'>): boolean => d.visibility === 'organization' || d.owner_id === p.userId;

/** The dashboard if the caller may read it, else DashboardNotFound. */
export async function readableDashboard(deps: DashboardDeps, p: Principal, id: string): Promise<StoredDashboard> {
  const d = await findDashboard(deps.store, p.orgId, id);
  if (!d || !mayRead(p, d)) throw new DashboardNotFound();
  return d;
}

/** Whether `p` may change (or share) a dashboard they read: its owner, or an admin for an organization dashboard. */
export const mayEdit = (p: Principal, d: Pick<StoredDashboard, 'owner_id' | 'visibility'>): boolean => d.owner_id === p.userId || (d.visibility === 'organization' && hasRole(p, 'admin'));

/** The dashboard if the caller may change it (or, `act: 'share'`, share it); EditForbidden or ShareForbidden otherwise. */
export async function editableDashboard(deps: DashboardDeps, p: Principal, id: string, act: 'edit' | 'share' = 'edit'): Promise<StoredDashboard> {
  const d = await readableDashboard(deps, p, id);
  if (!mayEdit(p, d)) throw act === 'share' ? new ShareForbidden() : new EditForbidden();
  return d;
}

/** Publishing to the organization takes an admin or modeler, as for saved questions. */
export function checkVisibility(p: Principal, visibility: Visibility, before?: Visibility): void {
  if (visibility === 'organization' && before !== 'organization' && !hasRole(p, 'modeler')) throw new PublishForbidden();
}
