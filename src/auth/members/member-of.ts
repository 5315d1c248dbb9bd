import type { Executor } from '../../store/index.ts';
import type { Principal } from '../principal.ts';
import { MemberNotFound } from './errors.ts';
import { memberRow, type MemberRow } from './member-rows.ts';

/** The member `userId` of the admin's organization, or 404 (members of other organizations look absent). */
export async function memberOf(x: Executor, admin: Principal, userId: string): Promise<MemberRow> {
  const row = await memberRow(x, admin.orgId, userId);
  if (!row) throw new MemberNotFound();
  return row;
}
