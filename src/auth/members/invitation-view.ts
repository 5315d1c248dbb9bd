import type { InvitationRow } from './invitation-rows.ts';

export interface InvitationView {
  invitation_id: string;
  email: string;
  role: InvitationRow['role'];
  invited_by: string | null;
  created_at: string;
  sent_at: string;
  expires_at: string;
}

/** What an admin sees of an invitation (never its token). */
export function invitationView(row: InvitationRow): InvitationView {
  return {
    invitation_id: row.id,
    email: row.email,
    role: row.role,
    invited_by: row.invited_by,
    created_at: new Date(row.created_at).toISOString(),
    sent_at: new Date(row.sent_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
  };
}
