// Whether the account of an invited address may join the invitation's organization: the one rule the
// accept enforces and the invitation page announces before anyone types anything.
import { sql } from 'kysely';
import type { Executor } from '../../store/index.ts';
import type { UserRow } from '../directory.ts';
import { AccountDeactivated, AccountInOtherOrganization, AlreadyMember } from './errors.ts';
import type { InvitationRow } from './invitation-rows.ts';
import { orgRow } from './org-rows.ts';

/** The account with the id or the (stored, lower-case) address, if any. */
export const userBy = (x: Executor, column: 'id' | 'email', value: string) =>
  x.one(column === 'id' ? sql<UserRow>`SELECT * FROM users WHERE id = ${value}` : sql<UserRow>`SELECT * FROM users WHERE email = ${value}`);

/** Whether the account may join the invitation's organization (else the refusal); the base organization it joins first, if any. */
export async function joinBaseFor(x: Executor, row: InvitationRow, user: UserRow | undefined): Promise<string | undefined> {
  const org = (await orgRow(x, row.org_id))!;
  const baseId = org.base_org_id ?? org.id;
  if (user && (await x.one(sql`SELECT 1 AS one FROM memberships WHERE user_id = ${user.id} AND org_id = ${row.org_id}`))) throw new AlreadyMember();
  if (user && user.disabled_at !== null) throw new AccountDeactivated();
  const home = user && (await x.one(
    sql<{ id: string }>`SELECT o.id FROM organizations o JOIN memberships m ON m.org_id = o.id
      WHERE m.user_id = ${user.id} AND o.base_org_id IS NULL ORDER BY m.created_at LIMIT 1`,
  ));
  if (home && home.id !== baseId) throw new AccountInOtherOrganization();
  return !home && baseId !== org.id ? baseId : undefined;
}

/** What accepting would do with the invited address's account, as the invitation page tells it. */
export type InvitedAccount = 'new' | 'existing' | 'member' | 'in_other_organization' | 'deactivated';

/** The answer of joinBaseFor for the invited address, as a value instead of a refusal. */
export async function invitedAccount(x: Executor, row: InvitationRow): Promise<InvitedAccount> {
  const user = await userBy(x, 'email', row.email);
  try {
    await joinBaseFor(x, row, user);
    return user ? 'existing' : 'new';
  } catch (err) {
    if (err instanceof AlreadyMember) return 'member';
    if (err instanceof AccountDeactivated) return 'deactivated';
    if (err instanceof AccountInOtherOrganization) return 'in_other_organization';
    throw err;
  }
}
