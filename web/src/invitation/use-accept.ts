// Accepting: the link's token goes to the server first, so the account is in the organization before
// any later step (MFA code, MFA enrollment, the SSO round trip), which then only finishes the sign-in.
import { api, call } from '../api/client.ts';
import type { BodyOf } from '../api/types.ts';
import type { SignInFlow } from '../sign-in/sign-in-flow.ts';
import { useAction } from '../ui/use-action.ts';

type AcceptBody = BodyOf<'/api/auth/invitation/accept', 'post'>;
export type Choice = Pick<AcceptBody, 'method' | 'password' | 'name'>;

/** The accept action; `onJoined` when an SSO-only account joined and signs in as before. */
export function useAccept(token: string, flow: SignInFlow, onJoined: () => void) {
  return useAction(async (choice: Choice) => {
    const answer = await call(api.POST('/api/auth/invitation/accept', { body: { token, ...choice } }));
    if (answer.sso_login_url) {
      // The provider signs the new member in; the gateway's path, reached with a full page load.
      window.location.assign(new URL(answer.sso_login_url).pathname);
      return;
    }
    if (answer.joined) {
      onJoined();
      return;
    }
    await flow.continueWith(answer, choice.password);
  });
}
