// The page of a link that no longer works: used, withdrawn, expired, or unknown (mistyped or replaced).
import { Link } from 'react-router';
import { CardPage } from '../ui/card-page.tsx';
import { askWhom, day, type Invitation } from './invitation.ts';

type Closed = 'accepted' | 'revoked' | 'expired' | 'unknown';

const TITLES: Record<Closed, string> = {
  accepted: 'This invitation was already used',
  revoked: 'This invitation was withdrawn',
  expired: 'This invitation has expired',
  unknown: 'This invitation link does not work',
};

export function ClosedInvitation({ state, invitation, signedIn }: { state: Closed; invitation?: Invitation | undefined; signedIn: boolean }) {
  return (
    <CardPage title={TITLES[state]}>
      <Explanation state={state} invitation={invitation} />
      <p>
        {signedIn ? <Link to="/">Open Sextant</Link> : <Link to="/login">Sign in</Link>}
      </p>
    </CardPage>
  );
}

function Explanation({ state, invitation: i }: { state: Closed; invitation?: Invitation | undefined }) {
  if (state === 'unknown' || !i)
    return (
      <p>
        The link may have been replaced by a newer invitation mail (use the newest one), or copied only in part. If it still does not work, ask the person who
        invited you to send the invitation again.
      </p>
    );
  if (state === 'accepted')
    return (
      <p>
        The invitation to <strong>{i.org_name}</strong> for {i.email} was accepted, and a link works once. If that was you, sign in with that address.
      </p>
    );
  if (state === 'revoked')
    return (
      <p>
        The invitation to <strong>{i.org_name}</strong> was withdrawn. If you still need access, ask {askWhom(i)} for a new one.
      </p>
    );
  return (
    <p>
      Invitations work for 7 days; the one to <strong>{i.org_name}</strong> ended on {day(i.expires_at)}. Ask {askWhom(i)} to send it again.
    </p>
  );
}
