// The hint under a new password, with the length the server enforces (read from it: one number,
// in one place).
import { api, call } from '../api/client.ts';
import { useLoad } from '../ui/use-load.ts';

/** "At least N characters; a long phrase is best." once the policy is read. */
export function usePasswordHint(): string {
  const policy = useLoad((signal) => call(api.GET('/api/auth/password_policy', { signal })));
  const min = policy.data?.min_length;
  return min ? `At least ${min} characters; a long phrase is best.` : 'A long phrase is best.';
}
