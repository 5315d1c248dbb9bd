import { sql } from 'kysely';
import type { MemberStoreDeps } from '../members/deps.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import type { Principal } from '../principal.ts';
import { nameFree, workspaceOf, WorkspaceNameTaken, type WorkspaceView } from './workspace-rows.ts';

/** Renames a workspace of the admin's base organization (unique names, whatever their case). */
export async function renameWorkspace(deps: MemberStoreDeps, admin: Principal, workspaceId: string, name: string): Promise<WorkspaceView> {
  await assertBaseOrg(deps.x, admin);
  await workspaceOf(deps.x, admin.orgId, workspaceId);
  const done = await deps.x.batch(
    [sql`UPDATE organizations SET name = ${name} WHERE id = ${workspaceId} AND base_org_id = ${admin.orgId} AND ${nameFree(deps.x, admin.orgId, name, workspaceId)}`],
    { require: [0] },
  );
  if (!done.ok) throw new WorkspaceNameTaken(name);
  return workspaceOf(deps.x, admin.orgId, workspaceId);
}
