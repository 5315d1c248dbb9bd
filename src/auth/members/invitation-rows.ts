// The SQL of invitations (migration 0014). A pending invitation is neither accepted nor revoked nor
// expired; only a SHA-256 of its link's token is kept.
import type { Clock } from '../../clock.ts';
import { hashSecret, newId, newSecret } from '../../security/index.ts';
import { statement, type Db } from '../../store/index.ts';
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

const PENDING = 'accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?';

/** Stores a new invitation and returns it with its link token (the only time the token exists in clear). */
export function insertInvitation(db: Db, clock: Clock, i: { orgId: string; email: string; role: Role; invitedBy: string }): { row: InvitationRow; token: string } {
  const token = newSecret('sxt_inv_');
  const now = clock.now();
  const id = newId();
  db.prepare(
    `INSERT INTO invitations (id, org_id, email, role, token_hash, invited_by, created_at, sent_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(id, i.orgId, i.email, i.role, hashSecret(token), i.invitedBy, now, now, now + INVITATION_TTL_MS);
  return { row: invitationRow(db, i.orgId, id)!, token };
}

/** An invitation of the organization, in any state. */
export function invitationRow(db: Db, orgId: string, id: string): InvitationRow | undefined {
  return statement(db, 'SELECT * FROM invitations WHERE org_id = ? AND id = ?').get(orgId, id) as InvitationRow | undefined;
}

/** The pending invitation of an address to the organization, if any. */
export function pendingInvitationFor(db: Db, clock: Clock, orgId: string, email: string): InvitationRow | undefined {
  return statement(db, `SELECT * FROM invitations WHERE org_id = ? AND email = ? AND ${PENDING}`).get(orgId, email, clock.now()) as InvitationRow | undefined;
}

/** The pending invitations of the organization, newest first. */
export function pendingInvitations(db: Db, clock: Clock, orgId: string): InvitationRow[] {
  return statement(db, `SELECT * FROM invitations WHERE org_id = ? AND ${PENDING} ORDER BY created_at DESC, id`).all(orgId, clock.now()) as InvitationRow[];
}

/** The pending invitation behind a link token, if any. */
export function pendingInvitationByToken(db: Db, clock: Clock, token: string): InvitationRow | undefined {
  return statement(db, `SELECT * FROM invitations WHERE token_hash = ? AND ${PENDING}`).get(hashSecret(token), clock.now()) as InvitationRow | undefined;
}

/** Gives a pending invitation a new token and expiry; the old link dies with its hash. */
export function renewInvitationToken(db: Db, clock: Clock, row: InvitationRow): string | undefined {
  const token = newSecret('sxt_inv_');
  const now = clock.now();
  const changed = db
    .prepare(`UPDATE invitations SET token_hash = ?, sent_at = ?, expires_at = ? WHERE id = ? AND ${PENDING}`)
    .run(hashSecret(token), now, now + INVITATION_TTL_MS, row.id, now).changes;
  return changed === 1 ? token : undefined;
}
