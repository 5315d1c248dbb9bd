// /login (and /magic-link): one page that walks through the sign-in steps.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, call } from '../api/client.ts';
import { useSession } from '../session/session.tsx';
import { CardPage } from '../ui/card-page.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { EnrollStep } from './enroll-step.tsx';
import { MagicCodeStep } from './magic-code-step.tsx';
import { MfaStep } from './mfa-step.tsx';
import { PasswordStep } from './password-step.tsx';
import { RecoveryCodes } from '../ui/recovery-codes.tsx';
import { useSignInFlow, type SignInFlow, type SignInStep } from './sign-in-flow.ts';

/** The heading of each sign-in step (also on the invitation page, which continues with these steps). */
export const STEP_TITLES: Record<SignInStep['step'], string> = {
  first: 'Sign in',
  'magic-sent': 'Check your mail',
  mfa: 'Two-factor authentication',
  'recovery-requested': 'Check your mail',
  enroll: 'Set up two-factor authentication',
  'recovery-codes': 'Save your recovery codes',
};

/** The step the SSO callback asked for in the URL fragment, if any. */
function fragmentStep(): SignInStep {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const mfa = params.get('mfa_token');
  if (mfa) return { step: 'mfa', mfaToken: mfa };
  const enrollment = params.get('enrollment_token');
  if (enrollment) return { step: 'enroll', enrollmentToken: enrollment };
  return { step: 'first' };
}

export function SignInPage() {
  const [initial] = useState(fragmentStep);
  const flow = useSignInFlow(initial);
  const { state: session } = useSession();
  const [params] = useSearchParams();
  useEffect(() => {
    // The fragment's token is in the flow's state now; keep it out of the history.
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, []);
  useEffect(() => {
    if (session.status === 'signed-in' && flow.state.step === 'first') void flow.finish();
  }, [session.status, flow]);
  return (
    <CardPage title={STEP_TITLES[flow.state.step]}>
      {flow.state.step === 'first' && params.get('expired') && <Note tone="info">Your session ended. Sign in again to continue; what you typed is kept.</Note>}
      <StepView flow={flow} />
    </CardPage>
  );
}

/** The current sign-in step's form. */
export function StepView({ flow }: { flow: SignInFlow }) {
  const s = flow.state;
  switch (s.step) {
    case 'first':
      return <PasswordStep flow={flow} />;
    case 'magic-sent':
      return <MagicCodeStep flow={flow} email={s.email} />;
    case 'mfa':
      return <MfaStep flow={flow} mfaToken={s.mfaToken} password={s.password} />;
    case 'recovery-requested':
      return <p>If the request is accepted, a confirmation link is on its way to your inbox. Your administrators are told as well.</p>;
    case 'enroll':
      return <EnrollStep flow={flow} enrollmentToken={s.enrollmentToken} />;
    case 'recovery-codes':
      return <RecoveryCodes codes={s.codes} onDone={() => void flow.finish()} />;
  }
}

/** /magic-link?token=…: spends the mailed token, then continues like any sign-in. */
export function MagicLinkPage() {
  const flow = useSignInFlow();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const consume = useAction(async () => flow.continueWith(await call(api.POST('/api/auth/magic_link/consume', { body: { token } }))));
  const [started, setStarted] = useState(false);
  useEffect(() => {
    if (started || !token) return;
    setStarted(true);
    void consume.run();
  }, [started, token, consume]);
  if (flow.state.step !== 'first') {
    return (
      <CardPage title={STEP_TITLES[flow.state.step]}>
        <StepView flow={flow} />
      </CardPage>
    );
  }
  return (
    <CardPage title="Signing you in">
      {!token && (
        <div className="alert error" role="alert">
          This link has no token. Open the link from the mail again.
        </div>
      )}
      <FormAlert problem={consume.problem} />
      {consume.pending && <p role="status">Checking your link…</p>}
      {consume.problem && (
        <p>
          Links work once and for 15 minutes. <a href="/login">Sign in</a> to get a new one, or enter the code from the mail there.
        </p>
      )}
    </CardPage>
  );
}
