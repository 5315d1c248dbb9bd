import type { Db } from '../../store/index.ts';
import { LastAdmin } from './errors.ts';
import { activeAdminCount, type MemberRow } from './member-rows.ts';

/**
 * Refuses a change that takes an active admin away when they are the organization's last one. Runs
 * inside the caller's transaction, so two admins demoting each other at once cannot both pass.
 */
export function assertNotLastAdmin(db: Db, orgId: string, target: MemberRow, action: 'demote' | 'deactivate' | 'remove'): void {
  const activeAdmin = target.role === 'admin' && target.deactivated_at === null && target.disabled_at === null;
  if (activeAdmin && activeAdminCount(db, orgId) <= 1) throw new LastAdmin(action);
}
