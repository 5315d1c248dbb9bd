import { sql } from 'kysely';
import { newId } from '../../security/index.ts';
import { membershipUpsert } from '../directory.ts';
import type { MemberStoreDeps } from '../members/deps.ts';
import { assertBaseOrg } from '../members/org-settings.ts';
import type { Principal } from '../principal.ts';
import { nameFree, workspaceOf, WorkspaceNameTaken, type WorkspaceView } from './workspace-rows.ts';

/**
 * Creates a workspace of the admin's base organization, with the admin as its first admin (someone
 * must be able to run it). Names are unique within the organization, whatever their case.
 */
export async function createWorkspace(deps: MemberStoreDeps, admin: Principal, name: string): Promise<WorkspaceView> {
  await assertBaseOrg(deps.x, admin);
  const id = newId(8);
  const now = deps.clock.now();
  const done = await deps.x.batch(
    [
      sql`INSERT INTO organizations (id, name, base_org_id, mfa_enforced, created_at)
        SELECT ${id}, ${name}, ${admin.orgId}, 0, CAST(${now} AS BIGINT) WHERE ${nameFree(deps.x, admin.orgId, name)}`,
      membershipUpsert(deps.x, deps.clock, { userId: admin.userId, orgId: id, role: 'admin' }),
    ],
    { require: [0] },
  );
  if (!done.ok) throw new WorkspaceNameTaken(name);
  return workspaceOf(deps.x, admin.orgId, id);
}
