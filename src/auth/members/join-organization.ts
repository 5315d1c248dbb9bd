// The write of accepting an invitation, as one batch: the claim of the link first (required: exactly
// one concurrent accept changes the row, on any replica), then the account if it is new, the
// memberships and the audit entry. A losing claim rolls everything back.
import { sql } from 'kysely';
import { newId } from '../../security/index.ts';
import type { Executor, Query } from '../../store/index.ts';
import type { UserRow } from '../directory.ts';
import type { Role } from '../principal.ts';
import { auditEntryQuery } from '../audit-log/write-audit.ts';
import { acceptedByQuery, claimInvitationQuery, type InvitationRow } from './invitation-rows.ts';
import type { RequestClient } from './member-audit.ts';

export type AcceptMethod = 'password' | 'magic_link' | 'sso';

export interface JoinPlan {
  token: string;
  method: AcceptMethod;
  invitation: InvitationRow;
  /** The existing account, or the new one to create. */
  account: { existing: UserRow } | { name: string; passwordHash: string | null };
  /** The base organization the account joins first (as user), when it joins a workspace without being in its base. */
  joinBase: string | undefined;
}

const membershipQuery = (userId: string, orgId: string, role: Role, now: number): Query =>
  sql`INSERT INTO memberships (user_id, org_id, role, can_merge, created_at) VALUES (${userId}, ${orgId}, ${role}, 0, ${now})
      ON CONFLICT (user_id, org_id) DO UPDATE SET role = excluded.role, can_merge = excluded.can_merge`;

function newAccountQuery(id: string, p: JoinPlan, a: { name: string; passwordHash: string | null }, now: number): Query {
  const identityKind = p.method === 'password' ? 'password' : p.method;
  // Holding the link proves the mailbox: the address counts as verified. An account made for the
  // address meanwhile (a sign-up) makes this change no row, and the accept starts over with it.
  return sql`INSERT INTO users (id, email, name, password_hash, identity_kind, email_verified_at, created_at)
    VALUES (${id}, ${p.invitation.email}, ${a.name}, ${a.passwordHash}, ${identityKind}, ${now}, ${now}) ON CONFLICT (email) DO NOTHING`;
}

/** Runs the plan: the account's id when this accept won, `lost` when the link was taken, `raced` when the address got an account meanwhile. */
export async function joinOrganization(x: Executor, p: JoinPlan, client: RequestClient, now: number): Promise<{ userId: string } | 'lost' | 'raced'> {
  const created = !('existing' in p.account);
  const userId = 'existing' in p.account ? p.account.existing.id : newId();
  const { invitation: row } = p;
  const qs: Query[] = [claimInvitationQuery(p.token, now)];
  if (!('existing' in p.account)) qs.push(newAccountQuery(userId, p, p.account, now));
  if (p.joinBase) qs.push(membershipQuery(userId, p.joinBase, 'user', now));
  qs.push(
    membershipQuery(userId, row.org_id, row.role, now),
    acceptedByQuery(row.id, userId),
    auditEntryQuery(x, {
      action: 'invitation_accepted', userId, orgId: row.org_id, actorId: userId, target: { type: 'invitation', id: row.id }, ip: client.ip,
      data: { invitation_id: row.id, role: row.role, method: p.method, new_account: created },
    }, now),
  );
  const done = await x.batch(qs, { require: created ? [0, 1] : [0] });
  if (done.ok) return { userId };
  return done.failed === 0 ? 'lost' : 'raced';
}
