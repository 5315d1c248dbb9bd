// Whom a deactivated person asks: their organization and a few of its active admins, named on the
// refusal of a sign-in whose password was right (see passwordSignIn).
import { sql } from 'kysely';
import { byteOrder, type Executor } from '../../store/index.ts';
import { baseOrgOf } from '../directory.ts';
import { AccessRemoved } from '../errors.ts';

/** At most this many admins are named: enough to find one, not a directory of the organization. */
const NAMED_ADMINS = 3;

/** The refusal of a deactivated account: its base organization's name and active admins (by name, else address). */
export async function accessRemoved(store: Executor, userId: string): Promise<AccessRemoved> {
  const org = await baseOrgOf(store, userId);
  if (!org) return new AccessRemoved('your organization', []);
  const admins = await store.all(
    sql<{ name: string; email: string }>`SELECT u.name, u.email FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.org_id = ${org.id} AND m.role = 'admin' AND m.deactivated_at IS NULL AND u.disabled_at IS NULL AND u.id <> ${userId}
      ORDER BY ${byteOrder(store, 'u.name')}, ${byteOrder(store, 'u.email')} LIMIT ${NAMED_ADMINS}`,
  );
  return new AccessRemoved(org.name, admins.map((a) => a.name.trim() || a.email));
}
