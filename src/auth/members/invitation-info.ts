import type { Db } from '../../store/index.ts';
import type { Clock } from '../../clock.ts';
import { getOrganization } from '../directory.ts';
import type { Role } from '../principal.ts';
import { InvalidInvitation } from './errors.ts';
import { pendingInvitationByToken } from './invitation-rows.ts';

export interface InvitationInfo {
  email: string;
  org_name: string;
  role: Role;
  expires_at: string;
  /** Whether the organization offers single sign-on to accept with. */
  sso_available: boolean;
}

/** What the accept page shows to whoever holds a live invitation link (the mailbox owner). */
export function invitationInfo({ db, clock }: { db: Db; clock: Clock }, token: string): InvitationInfo {
  const row = pendingInvitationByToken(db, clock, token);
  if (!row) throw new InvalidInvitation();
  const org = getOrganization(db, row.org_id)!;
  const sso = db.prepare('SELECT 1 FROM sso_configs WHERE org_id = ? AND enabled = 1').get(org.base_org_id ?? org.id);
  return { email: row.email, org_name: org.name, role: row.role, expires_at: new Date(row.expires_at).toISOString(), sso_available: !!sso };
}
