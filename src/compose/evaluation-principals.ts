// The evaluations' principals port: who a run acts as when a restart resumes it, with the user's
// current role and permissions in the organization (undefined once they left or were disabled).
import { getUser, principalFor, SCOPE_API_FULL } from '../auth/index.ts';
import type { EvaluationPrincipals } from '../evaluations/index.ts';
import type { Executor } from '../store/index.ts';

export function evaluationPrincipalsPort(store: Executor): EvaluationPrincipals {
  return {
    async principalOf(orgId, userId) {
      const user = await getUser(store, userId);
      return user ? principalFor(store, user, orgId, 'session', [SCOPE_API_FULL]) : undefined;
    },
  };
}
