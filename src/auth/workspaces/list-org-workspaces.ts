import type { Executor } from '../../store/index.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import type { Principal } from '../principal.ts';
import { workspacesOf, type WorkspaceView } from './workspace-rows.ts';

/** Every workspace of the admin's base organization, by name, with its member count. */
export async function listOrgWorkspaces(deps: { x: Executor }, admin: Principal): Promise<WorkspaceView[]> {
  await assertBaseOrg(deps.x, admin);
  return workspacesOf(deps.x, admin.orgId);
}
