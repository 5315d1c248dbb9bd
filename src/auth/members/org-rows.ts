// The organization as member operations read it: whether it is a base organization or a workspace.
import { sql } from 'kysely';
import type { Executor } from '../../store/index.ts';

export interface OrgRow {
  id: string;
  name: string;
  base_org_id: string | null;
  mfa_enforced: number;
}

/** The organization `orgId`, or undefined. */
export function orgRow(x: Executor, orgId: string): Promise<OrgRow | undefined> {
  return x.one(sql<OrgRow>`SELECT id, name, base_org_id, mfa_enforced FROM organizations WHERE id = ${orgId}`);
}

/** Whether `orgId` is a base organization (not a workspace of one). */
export async function isBaseOrg(x: Executor, orgId: string): Promise<boolean> {
  return (await orgRow(x, orgId))?.base_org_id === null;
}
