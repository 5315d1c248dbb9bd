// Workspaces: organizations under a base organization. Switching starts a session (a row and its JWT)
// in the target organization; only members may switch.
import type { Clock } from '../../clock.ts';
import { Forbidden, NotFound } from '../../errors.ts';
import { byteOrder } from '../../store/index.ts';
import { getUser } from '../directory.ts';
import type { AuthStore } from '../single-use-tables.ts';
import type { Principal } from '../principal.ts';
import { startSession, type StartedSession } from '../credentials/sessions.ts';

export interface WorkspaceList {
  base_org: { org_id: string; name: string; role: string | null };
  workspaces: { org_id: string; name: string; role: string }[];
  current_org_id: string;
  default_workspace_id: string | null;
}

/** What workspace operations need: the asynchronous store, and what a new session is signed with. */
export interface WorkspaceDeps {
  store: AuthStore;
  clock: Clock;
  jwtKey: string;
}

/** The base organization plus the workspaces of it the user belongs to. */
export async function listWorkspaces({ store }: Pick<WorkspaceDeps, 'store'>, principal: Principal): Promise<WorkspaceList> {
  const { db } = store;
  const [base, workspaces, user] = await Promise.all([
    store.one(
      db
        .selectFrom('organizations as o')
        .leftJoin('memberships as m', (j) => j.onRef('m.org_id', '=', 'o.id').on('m.user_id', '=', principal.userId))
        .select(['o.id', 'o.name', 'm.role'])
        .where('o.id', '=', principal.baseOrgId),
    ),
    store.all(
      db
        .selectFrom('organizations as o')
        .innerJoin('memberships as m', (j) => j.onRef('m.org_id', '=', 'o.id').on('m.user_id', '=', principal.userId))
        .select(['o.id as org_id', 'o.name', 'm.role'])
        .where('o.base_org_id', '=', principal.baseOrgId)
        .orderBy(byteOrder(store, 'o.name'))
        .orderBy(byteOrder(store, 'o.id')),
    ),
    store.one(db.selectFrom('users').select('default_workspace_id').where('id', '=', principal.userId)),
  ]);
  return {
    base_org: { org_id: principal.baseOrgId, name: base?.name ?? '', role: base?.role ?? null },
    workspaces,
    current_org_id: principal.orgId,
    default_workspace_id: user?.default_workspace_id ?? null,
  };
}

/** A workspace of the caller's base organization that the caller belongs to, or 404. */
async function memberWorkspace(store: AuthStore, principal: Principal, workspaceId: string): Promise<string> {
  const ws = await store.one(
    store.db
      .selectFrom('organizations as o')
      .innerJoin('memberships as m', (j) => j.onRef('m.org_id', '=', 'o.id').on('m.user_id', '=', principal.userId))
      .select('o.id')
      .where('o.id', '=', workspaceId)
      .where('o.base_org_id', '=', principal.baseOrgId),
  );
  if (!ws) throw new NotFound('Workspace not found', 'WORKSPACE_NOT_FOUND');
  return ws.id;
}

/** Switching mints sessions, so only a signed-in session may do it (not API or embedded tokens). */
function assertSession(principal: Principal): void {
  if (principal.credential !== 'session') throw new Forbidden('Switching needs a signed-in session', 'SESSION_REQUIRED');
}

/** A session in a workspace the caller belongs to. */
export async function switchToWorkspace(deps: WorkspaceDeps, principal: Principal, workspaceId: string): Promise<StartedSession & { orgId: string }> {
  assertSession(principal);
  const orgId = await memberWorkspace(deps.store, principal, workspaceId);
  return { ...(await startSession(deps, (await getUser(deps.store, principal.userId))!, orgId)), orgId };
}

/** A session in the base organization (works from a workspace or the base itself). */
export async function switchToBaseOrg(deps: WorkspaceDeps, principal: Principal): Promise<StartedSession & { orgId: string }> {
  assertSession(principal);
  const member = await deps.store.one(deps.store.db.selectFrom('memberships').select('user_id').where('user_id', '=', principal.userId).where('org_id', '=', principal.baseOrgId));
  if (!member) throw new NotFound('Organization not found', 'ORG_NOT_FOUND');
  return { ...(await startSession(deps, (await getUser(deps.store, principal.userId))!, principal.baseOrgId)), orgId: principal.baseOrgId };
}

/** Sets (or clears, with null) the workspace new sign-ins start in. */
export async function setDefaultWorkspace({ store }: Pick<WorkspaceDeps, 'store'>, principal: Principal, workspaceId: string | null): Promise<void> {
  const id = workspaceId === null ? null : await memberWorkspace(store, principal, workspaceId);
  await store.run(store.db.updateTable('users').set({ default_workspace_id: id }).where('id', '=', principal.userId));
}
