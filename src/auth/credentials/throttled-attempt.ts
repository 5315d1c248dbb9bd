// The one way a step that proves who someone is (password, MFA code, sign-in code, password re-entry)
// runs under the sign-in throttle: keyed by the account, the client address and, when the client
// presents one for that account, its remembered device; failures counted, a success forgets them.
import type { Clock } from '../../clock.ts';
import type { Executor } from '../../store/index.ts';
import type { ClientInfo } from '../account/account-deps.ts';
import { rememberedDevice } from './device-token.ts';
import { attemptKeys, clearAccountFailures, limited } from './rate-limit.ts';

export interface ThrottleDeps {
  store: Executor;
  clock: Clock;
  /** The service secret the device cookie is signed with. */
  jwtKey: string;
}

/** Runs `attempt` on `account` (a user id, or the email typed when none matched) under the throttle; 429 when limited. */
export function throttledAttempt<T>(deps: ThrottleDeps, account: string, client: ClientInfo, attempt: () => Promise<T>): Promise<T> {
  const device = rememberedDevice(deps, account, client.device);
  return limited(deps.store, deps.clock, attemptKeys(account, client.ip, device), async () => {
    const result = await attempt();
    await clearAccountFailures(deps.store, deps.clock, account, client.ip, device);
    return result;
  });
}
