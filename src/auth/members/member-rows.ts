// The SQL behind the member list: one row per membership of the organization, with what an admin
// sees of the account (status, last sign-in, MFA, sign-in methods). Keyset pages follow the email.
// Flags are 0/1 on both dialects (CASE rather than a bare comparison, which is boolean on PostgreSQL).
// Case is folded in ASCII only, for the order and the search alike: it is all SQLite folds (lower(),
// LIKE, the NOCASE email column), and the only folding both dialects compute the same whatever the
// server's locale. Unicode folding would need a function of our own on SQLite, and PostgreSQL's own
// differs by locale (libc or ICU); so `É` matches `É` but not `é`, on both.
import { sql } from 'kysely';
import { asciiLower, containsText, type Executor } from '../../store/index.ts';
import type { Role } from '../principal.ts';

export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  can_merge: number;
  deactivated_at: number | null;
  disabled_at: number | null;
  totp_enabled_at: number | null;
  has_password: number;
  identity_kind: string | null;
  has_sso: number;
  last_sign_in_at: number | null;
  joined_at: number;
}

const COLUMNS = sql.raw(`u.id AS user_id, u.email, u.name, m.role, m.can_merge, m.deactivated_at, u.disabled_at, u.totp_enabled_at,
  CASE WHEN u.password_hash IS NOT NULL THEN 1 ELSE 0 END AS has_password, u.identity_kind,
  CASE WHEN EXISTS (SELECT 1 FROM sso_identities i WHERE i.user_id = u.id) THEN 1 ELSE 0 END AS has_sso,
  (SELECT MAX(s.created_at) FROM sessions s WHERE s.user_id = u.id AND s.kind = 'session') AS last_sign_in_at,
  m.created_at AS joined_at`);

/** Up to `limit` members after the email `after`, whose name or email contains `q` (any ASCII case). */
export function memberRows(x: Executor, orgId: string, { q, after, limit }: { q: string | undefined; after: string | undefined; limit: number }): Promise<MemberRow[]> {
  const email = asciiLower(x, sql.ref('u.email'));
  const search = q === undefined ? sql`` : sql`AND (${containsText(x, sql.ref('u.email'), q)} OR ${containsText(x, sql.ref('u.name'), q)})`;
  const from = after === undefined ? sql`` : sql`AND ${email} > ${asciiLower(x, sql.val(after))}`;
  return x.all(
    sql<MemberRow>`SELECT ${COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.org_id = ${orgId} ${search} ${from}
     ORDER BY ${email} LIMIT ${limit}`,
  );
}

/** One member of the organization, or undefined. */
export function memberRow(x: Executor, orgId: string, userId: string): Promise<MemberRow | undefined> {
  return x.one(sql<MemberRow>`SELECT ${COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = ${orgId} AND u.id = ${userId}`);
}
