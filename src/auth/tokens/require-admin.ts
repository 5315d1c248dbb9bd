import { hasRole, type Principal } from '../principal.ts';
import { Forbidden } from '../../errors.ts';

/** Managing another user's tokens is for admins of the caller's organization only. */
export function requireAdminFor(principal: Principal): void {
  if (!hasRole(principal, 'admin')) throw new Forbidden('Requires role admin', 'ADMIN_REQUIRED');
}
