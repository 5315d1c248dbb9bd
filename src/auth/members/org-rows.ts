// The organization as member operations read it: whether it is a base organization or a workspace.
import { sql } from 'kysely';
import type { Executor, Query } from '../../store/index.ts';

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

/**
 * A write to the organization's row that changes nothing, opening a batch whose checks must see every
 * concurrent batch of the organization (the last admin, one pending invitation per address). On
 * PostgreSQL it holds the row lock to the end of the batch, so such batches run one after the other,
 * and the next one's statements (READ COMMITTED reads afresh per statement) see the previous one's
 * commit. On SQLite a batch runs alone anyway. Required: it changes no row for an unknown organization.
 */
export function lockOrganization(orgId: string): Query {
  return sql`UPDATE organizations SET mfa_enforced = mfa_enforced WHERE id = ${orgId}`;
}
