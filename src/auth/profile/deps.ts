import type { Clock } from '../../clock.ts';
import type { AuthStore } from '../single-use-tables.ts';

/** What profile, memory and disclaimer operations need: the asynchronous store and the clock. */
export interface ProfileDeps {
  store: AuthStore;
  clock: Clock;
}
