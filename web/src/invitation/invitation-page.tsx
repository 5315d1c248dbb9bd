// /invitation?token=…: the link of an invitation mail. It shows who invites, to which organization,
// with which role, and lets the invited person join that organization (never a new one): with a new
// account, with the account the address already has, or explains why the address cannot join. The
// token stays in the address bar, so signing out of another account or reloading keeps it.
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { useSession } from '../session/session.tsx';
import { StepView, STEP_TITLES } from '../sign-in/sign-in-page.tsx';
import { useSignInFlow } from '../sign-in/sign-in-flow.ts';
import { CardPage } from '../ui/card-page.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useLoad } from '../ui/use-load.ts';
import { CannotJoin } from './cannot-join.tsx';
import { ClosedInvitation } from './closed-invitation.tsx';
import { InvitationSummary } from './invitation-summary.tsx';
import type { Invitation } from './invitation.ts';
import { ExistingAccountChoice, NewAccountChoices } from './join-choices.tsx';
import { useAccept } from './use-accept.ts';

export function InvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { state: session } = useSession();
  const info = useLoad((signal) => (token ? call(api.POST('/api/auth/invitation/info', { body: { token }, signal })) : Promise.resolve(undefined)), token);
  const flow = useSignInFlow();
  const [joined, setJoined] = useState(false);
  const accept = useAccept(token, flow, () => setJoined(true));
  const { reload } = info;
  // Used or withdrawn while the page was open: show what the link is now.
  useEffect(() => {
    if (accept.problem?.code === 'INVALID_INVITATION') void reload();
  }, [accept.problem, reload]);

  if (flow.state.step !== 'first')
    return (
      <CardPage title={STEP_TITLES[flow.state.step]}>
        <StepView flow={flow} />
      </CardPage>
    );
  if (!token || info.problem?.code === 'INVALID_INVITATION') return <ClosedInvitation state="unknown" signedIn={session.status === 'signed-in'} />;
  if (info.problem)
    return (
      <CardPage title="Invitation">
        <FormAlert problem={info.problem} />
        <button type="button" onClick={() => void reload()}>
          Try again
        </button>
      </CardPage>
    );
  if (!info.data || session.status === 'loading') return <p className="page-message" role="status">Loading…</p>;
  const i = info.data;
  const signedIn = session.status === 'signed-in';
  if (i.state !== 'pending') return <ClosedInvitation state={i.state} invitation={i} signedIn={signedIn} />;
  if (joined) return <JoinedWithSso invitation={i} />;
  if (signedIn && session.me.email.toLowerCase() !== i.email.toLowerCase()) return <SignedInAsSomeoneElse invitation={i} email={session.me.email} />;
  if (i.account === 'member' || i.account === 'in_other_organization' || i.account === 'deactivated') return <CannotJoin why={i.account} invitation={i} signedIn={signedIn} />;
  return (
    <CardPage title={`Join ${i.org_name}`}>
      <InvitationSummary invitation={i} />
      {i.account === 'existing' ? <ExistingAccountChoice invitation={i} accept={accept} signedIn={signedIn} /> : <NewAccountChoices invitation={i} accept={accept} />}
    </CardPage>
  );
}

/** Signed in with another address: this account cannot take the invitation; signing out keeps the link. */
function SignedInAsSomeoneElse({ invitation: i, email }: { invitation: Invitation; email: string }) {
  const { signOut } = useSession();
  return (
    <CardPage title={`Join ${i.org_name}`}>
      <InvitationSummary invitation={i} />
      <Note tone="info">
        You are signed in as {email}, but this invitation is for {i.email}.
      </Note>
      <p>To accept it, sign out, then continue here as {i.email}.</p>
      <div className="actions">
        <button type="button" className="primary" onClick={() => void signOut()}>
          Sign out and continue
        </button>
        <Link to="/">Stay signed in as {email}</Link>
      </div>
    </CardPage>
  );
}

/** An account that signs in only through the organization's identity provider joined; it signs in as before. */
function JoinedWithSso({ invitation: i }: { invitation: Invitation }) {
  return (
    <CardPage title={`You joined ${i.org_name}`}>
      <Note>{i.email} is now a member of {i.org_name}.</Note>
      <p>
        Sign in with your organization&apos;s single sign-on, as before. <Link to="/login">Sign in</Link>
      </p>
    </CardPage>
  );
}
