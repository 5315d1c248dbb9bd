import type { Db } from '../../store/index.ts';
import type { Principal } from '../principal.ts';
import { MemberNotFound } from './errors.ts';
import { memberRow, type MemberRow } from './member-rows.ts';

/** The member `userId` of the admin's organization, or 404 (members of other organizations look absent). */
export function memberOf(db: Db, admin: Principal, userId: string): MemberRow {
  const row = memberRow(db, admin.orgId, userId);
  if (!row) throw new MemberNotFound();
  return row;
}
