// Workspaces: organizations under a base organization. Switching mints a session JWT for the target
// organization; only members may switch.
import type { Clock } from '../../clock.ts';
import { Forbidden, NotFound } from '../../errors.ts';
import type { Db } from '../../store/index.ts';
import { getMembership, getOrganization, getUser } from '../directory.ts';
import type { Principal } from '../principal.ts';
import { startSession, type StartedSession } from '../credentials/sessions.ts';

export interface WorkspaceList {
  base_org: { org_id: string; name: string; role: string | null };
  workspaces: { org_id: string; name: string; role: string }[];
  current_org_id: string;
  default_workspace_id: string | null;
}

/** The base organization plus the workspaces of it the user belongs to. */
export function listWorkspaces({ db }: { db: Db }, principal: Principal): WorkspaceList {
  const base = getOrganization(db, principal.baseOrgId)!;
  const workspaces = db
    .prepare(
      `SELECT o.id AS org_id, o.name, m.role FROM organizations o JOIN memberships m ON m.org_id = o.id AND m.user_id = ?
       WHERE o.base_org_id = ? ORDER BY o.name, o.id`,
    )
    .all(principal.userId, base.id) as WorkspaceList['workspaces'];
  return {
    base_org: { org_id: base.id, name: base.name, role: getMembership(db, principal.userId, base.id)?.role ?? null },
    workspaces,
    current_org_id: principal.orgId,
    default_workspace_id: getUser(db, principal.userId)?.default_workspace_id ?? null,
  };
}

/** A workspace of the caller's base organization that the caller belongs to, or 404. */
function memberWorkspace(db: Db, principal: Principal, workspaceId: string): string {
  const ws = getOrganization(db, workspaceId);
  if (!ws || ws.base_org_id !== principal.baseOrgId || !getMembership(db, principal.userId, ws.id)) throw new NotFound('Workspace not found', 'WORKSPACE_NOT_FOUND');
  return ws.id;
}

/** Switching mints sessions, so only a signed-in session may do it (not API or embedded tokens). */
function assertSession(principal: Principal): void {
  if (principal.credential !== 'session') throw new Forbidden('Switching needs a signed-in session', 'SESSION_REQUIRED');
}

/** A session in a workspace the caller belongs to. */
export function switchToWorkspace(deps: { db: Db; clock: Clock; jwtKey: string }, principal: Principal, workspaceId: string): StartedSession & { orgId: string } {
  assertSession(principal);
  const orgId = memberWorkspace(deps.db, principal, workspaceId);
  return { ...startSession(deps, getUser(deps.db, principal.userId)!, orgId), orgId };
}

/** A session in the base organization (works from a workspace or the base itself). */
export function switchToBaseOrg(deps: { db: Db; clock: Clock; jwtKey: string }, principal: Principal): StartedSession & { orgId: string } {
  assertSession(principal);
  if (!getMembership(deps.db, principal.userId, principal.baseOrgId)) throw new NotFound('Organization not found', 'ORG_NOT_FOUND');
  return { ...startSession(deps, getUser(deps.db, principal.userId)!, principal.baseOrgId), orgId: principal.baseOrgId };
}

/** Sets (or clears, with null) the workspace new sign-ins start in. */
export function setDefaultWorkspace({ db }: { db: Db }, principal: Principal, workspaceId: string | null): void {
  const id = workspaceId === null ? null : memberWorkspace(db, principal, workspaceId);
  db.prepare('UPDATE users SET default_workspace_id = ? WHERE id = ?').run(id, principal.userId);
}
