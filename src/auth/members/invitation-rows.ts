// The SQL of invitations (migration 0014). A pending invitation is neither accepted nor revoked nor
// expired; only a SHA-256 of its link's token is kept.
import { sql } from 'kysely';
import { hashSecret, newId, newSecret } from '../../security/index.ts';
import { byteOrder, type Executor, type Query } from '../../store/index.ts';
import type { Role } from '../principal.ts';

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

export interface InvitationRow {
  id: string;
  org_id: string;
  email: string;
  role: Role;
  invited_by: string | null;
  created_at: number;
  sent_at: number;
  expires_at: number;
  accepted_at: number | null;
  revoked_at: number | null;
}

const pending = (now: number) => sql`accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}`;

/**
 * The INSERT of a new invitation unless the address already has a pending one to the organization
 * (it then changes no row), and its link token: the only time the token exists in clear.
 */
export function insertInvitationQuery(i: { orgId: string; email: string; role: Role; invitedBy: string; now: number }): { id: string; token: string; query: Query } {
  const token = newSecret('sxt_inv_');
  const id = newId();
  // The casts type the SELECT list on PostgreSQL, whose parameters there have no column to take a type from.
  const query = sql`INSERT INTO invitations (id, org_id, email, role, token_hash, invited_by, created_at, sent_at, expires_at)
    SELECT CAST(${id} AS TEXT), CAST(${i.orgId} AS TEXT), CAST(${i.email} AS TEXT), CAST(${i.role} AS TEXT), CAST(${hashSecret(token)} AS TEXT),
      CAST(${i.invitedBy} AS TEXT), CAST(${i.now} AS BIGINT), CAST(${i.now} AS BIGINT), CAST(${i.now + INVITATION_TTL_MS} AS BIGINT)
    WHERE NOT EXISTS (SELECT 1 FROM invitations WHERE org_id = ${i.orgId} AND email = ${i.email} AND ${pending(i.now)})`;
  return { id, token, query };
}

/** An invitation of the organization, in any state. */
export function invitationRow(x: Executor, orgId: string, id: string): Promise<InvitationRow | undefined> {
  return x.one(sql<InvitationRow>`SELECT * FROM invitations WHERE org_id = ${orgId} AND id = ${id}`);
}

/** The pending invitation of an address to the organization, if any. */
export function pendingInvitationFor(x: Executor, now: number, orgId: string, email: string): Promise<InvitationRow | undefined> {
  return x.one(sql<InvitationRow>`SELECT * FROM invitations WHERE org_id = ${orgId} AND email = ${email} AND ${pending(now)}`);
}

/** The pending invitations of the organization, newest first. */
export function pendingInvitations(x: Executor, now: number, orgId: string): Promise<InvitationRow[]> {
  return x.all(sql<InvitationRow>`SELECT * FROM invitations WHERE org_id = ${orgId} AND ${pending(now)} ORDER BY created_at DESC, ${byteOrder(x, 'id')}`);
}

/** The pending invitation behind a link token, if any. */
export function pendingInvitationByToken(x: Executor, now: number, token: string): Promise<InvitationRow | undefined> {
  return x.one(sql<InvitationRow>`SELECT * FROM invitations WHERE token_hash = ${hashSecret(token)} AND ${pending(now)}`);
}

/** The invitation behind a link token in any state (accepted, revoked, expired), with its inviter's name and address. */
export function invitationByToken(x: Executor, token: string): Promise<(InvitationRow & { inviter_name: string | null; inviter_email: string | null }) | undefined> {
  return x.one(sql<InvitationRow & { inviter_name: string | null; inviter_email: string | null }>`SELECT i.*, u.name AS inviter_name, u.email AS inviter_email
    FROM invitations i LEFT JOIN users u ON u.id = i.invited_by WHERE i.token_hash = ${hashSecret(token)}`);
}

/** Gives a pending invitation a new token and expiry; the old link dies with its hash. Changes no row unless pending. */
export function renewInvitationQuery(id: string, now: number): { token: string; query: Query } {
  const token = newSecret('sxt_inv_');
  return { token, query: sql`UPDATE invitations SET token_hash = ${hashSecret(token)}, sent_at = ${now}, expires_at = ${now + INVITATION_TTL_MS} WHERE id = ${id} AND ${pending(now)}` };
}

/**
 * Claims a pending invitation: exactly one concurrent caller changes the row (on PostgreSQL the
 * losers wait for the row lock, then find it accepted).
 */
export function claimInvitationQuery(token: string, now: number): Query {
  return sql`UPDATE invitations SET accepted_at = ${now} WHERE token_hash = ${hashSecret(token)} AND ${pending(now)}`;
}

/** Names the account that accepted (once it exists, for the foreign key). */
export function acceptedByQuery(invitationId: string, userId: string): Query {
  return sql`UPDATE invitations SET accepted_user_id = ${userId} WHERE id = ${invitationId}`;
}
