// Which addresses belong to active members of an organization: who may receive its reports when an
// admin has not allowed others (subscriptions ask through their port). Compared in ASCII lower case.
import { sql } from 'kysely';
import { asciiLower, type Executor } from '../../store/index.ts';

/** The given addresses (lower case) that are active members' of the organization. */
export async function activeMemberAddresses(x: Executor, orgId: string, addresses: string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const lower = addresses.map((a) => a.toLowerCase());
  const rows = await x.all(sql<{ email: string }>`SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE m.org_id = ${orgId} AND m.deactivated_at IS NULL AND u.disabled_at IS NULL AND ${asciiLower(x, sql.ref('u.email'))} IN (${sql.join(lower)})`);
  return new Set(rows.map((r) => r.email.toLowerCase()));
}
