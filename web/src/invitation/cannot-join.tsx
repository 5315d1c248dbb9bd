// Why the invited address cannot join, and what its owner can do: already a member, an account of
// another organization (an account belongs to one organization), or a deactivated account.
import { Link } from 'react-router';
import { CardPage } from '../ui/card-page.tsx';
import { InvitationSummary } from './invitation-summary.tsx';
import { askWhom, day, type Invitation } from './invitation.ts';

type Refusal = 'member' | 'in_other_organization' | 'deactivated';

const TITLES: Record<Refusal, string> = {
  member: 'You are already a member',
  in_other_organization: 'This address belongs to another organization',
  deactivated: 'This account is deactivated',
};

export function CannotJoin({ why, invitation: i, signedIn }: { why: Refusal; invitation: Invitation; signedIn: boolean }) {
  const home = signedIn ? <Link to="/">Open Sextant</Link> : <Link to="/login">Sign in</Link>;
  return (
    <CardPage title={TITLES[why]}>
      <InvitationSummary invitation={i} />
      {why === 'member' && (
        <p>
          {i.email} is already a member of <strong>{i.org_name}</strong>; there is nothing to accept. {home}
        </p>
      )}
      {why === 'in_other_organization' && (
        <>
          <p>
            {i.email} already has a Sextant account in another organization. An account belongs to one organization, so it cannot join <strong>{i.org_name}</strong>.
          </p>
          <p>What you can do:</p>
          <ul>
            <li>Ask {askWhom(i)} to invite another address of yours, one without a Sextant account: its link makes a new account in {i.org_name}.</li>
            <li>If you no longer need your current account, ask an admin of your organization to remove you from it; this link then works until {day(i.expires_at)}.</li>
            <li>Keep using your current account: {home}.</li>
          </ul>
        </>
      )}
      {why === 'deactivated' && (
        <p>
          An admin of your organization deactivated the account of {i.email}, and an invitation does not bring it back. Ask an admin of your organization to
          reactivate it; this link then works until {day(i.expires_at)}.
        </p>
      )}
    </CardPage>
  );
}
