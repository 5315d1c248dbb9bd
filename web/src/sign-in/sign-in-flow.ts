// The steps of signing in, whatever the first factor (password, magic link, SSO): a session, or
// the MFA code, or MFA enrollment when the organization requires it, then back to `next`.
import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { ResponseOf } from '../api/types.ts';
import { isServerPath, safeNext } from '../lib/safe-next.ts';
import { useSession } from '../session/session.tsx';

export type TokenAnswer = ResponseOf<'/api/auth/token', 'post'>;

export type SignInStep =
  | { step: 'first' }
  | { step: 'magic-sent'; email: string }
  | { step: 'mfa'; mfaToken: string; password?: string | undefined }
  | { step: 'recovery-requested' }
  | { step: 'enroll'; enrollmentToken: string }
  | { step: 'recovery-codes'; codes: string[] };

export interface SignInFlow {
  state: SignInStep;
  go: (state: SignInStep) => void;
  /** Moves on from a first-factor or MFA answer. `password` is kept for self-service recovery. */
  continueWith: (answer: TokenAnswer, password?: string) => Promise<void>;
  /** Signed in: refresh the session and go to `next`. */
  finish: () => Promise<void>;
  next: string;
}

export function useSignInFlow(initial: SignInStep = { step: 'first' }): SignInFlow {
  const [state, go] = useState<SignInStep>(initial);
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const navigate = useNavigate();
  const { refresh } = useSession();
  const finish = useCallback(async () => {
    // Consent and CLI approval are pages of the server: a full load takes the new cookie there.
    if (isServerPath(next)) {
      window.location.assign(next);
      return;
    }
    await refresh();
    navigate(next, { replace: true });
  }, [next, navigate, refresh]);
  const continueWith = useCallback(
    async (answer: TokenAnswer, password?: string) => {
      if (answer.mfa_required && answer.mfa_token) go({ step: 'mfa', mfaToken: answer.mfa_token, password });
      else if (answer.mfa_enrollment_required && answer.enrollment_token) go({ step: 'enroll', enrollmentToken: answer.enrollment_token });
      else await finish();
    },
    [finish],
  );
  return { state, go, continueWith, finish, next };
}

/** A token handed over in the URL fragment by the SSO callback (never sent to a server); removed at once. */
export function takeFragmentToken(name: 'mfa_token' | 'enrollment_token'): string | undefined {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const value = params.get(name) ?? undefined;
  if (value) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  return value;
}
