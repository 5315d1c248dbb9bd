// The SQL of workspace administration: workspaces are organizations whose base_org_id is the admin's
// organization; their members are memberships of people who belong to that base organization.
import { sql } from 'kysely';
import type { Executor } from '../../store/index.ts';
import { asciiLower, byteOrder } from '../../store/index.ts';
import { Conflict, NotFound } from '../../errors.ts';

export interface WorkspaceView {
  workspace_id: string;
  name: string;
  member_count: number;
  created_at: string;
}

export interface WorkspaceMemberView {
  user_id: string;
  email: string;
  name: string;
  role: string;
}

export class WorkspaceNotFound extends NotFound {
  constructor() {
    super('Workspace not found', 'WORKSPACE_NOT_FOUND');
  }
}

export class WorkspaceNameTaken extends Conflict {
  constructor(name: string) {
    super(`A workspace named ${name} exists already`, 'WORKSPACE_NAME_TAKEN', { name });
  }
}

/** The workspaces of a base organization with their member counts, by name. */
export async function workspacesOf(x: Executor, baseOrgId: string, only?: string): Promise<WorkspaceView[]> {
  const rows = await x.all(
    x.db
      .selectFrom('organizations as o')
      .leftJoin('memberships as m', 'm.org_id', 'o.id')
      .select(['o.id', 'o.name', 'o.created_at', sql<number>`count(m.user_id)`.as('members')])
      .where('o.base_org_id', '=', baseOrgId)
      .$if(only !== undefined, (q) => q.where('o.id', '=', only!))
      .groupBy(['o.id', 'o.name', 'o.created_at'])
      .orderBy(byteOrder(x, 'o.name'))
      .orderBy(byteOrder(x, 'o.id')),
  );
  return rows.map((r) => ({ workspace_id: r.id, name: r.name, member_count: Number(r.members), created_at: new Date(Number(r.created_at)).toISOString() }));
}

/** The workspace of the base organization, or 404 (another organization's workspace looks absent). */
export async function workspaceOf(x: Executor, baseOrgId: string, workspaceId: string): Promise<WorkspaceView> {
  const [ws] = await workspacesOf(x, baseOrgId, workspaceId);
  if (!ws) throw new WorkspaceNotFound();
  return ws;
}

/** The condition that no other workspace of the base organization has the name (ASCII case folded). */
export function nameFree(x: Executor, baseOrgId: string, name: string, except = '') {
  return sql`NOT EXISTS (SELECT 1 FROM organizations w WHERE w.base_org_id = ${baseOrgId} AND w.id <> ${except} AND ${asciiLower(x, sql.ref('w.name'))} = ${asciiLower(x, sql`${name}`)})`;
}
