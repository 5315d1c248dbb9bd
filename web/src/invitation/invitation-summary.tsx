// Who invites, to which organization, with which role, for which address: the first thing on the page.
import { day, inviterWords, roleWords, type Invitation } from './invitation.ts';

export function InvitationSummary({ invitation: i }: { invitation: Invitation }) {
  return (
    <>
      <p>
        <strong>{inviterWords(i)}</strong> invites you to join <strong>{i.org_name}</strong> on Sextant as {roleWords(i.role)}.
      </p>
      <p className="muted">
        This invitation is for <strong>{i.email}</strong> and works once, until {day(i.expires_at)}.
      </p>
    </>
  );
}
