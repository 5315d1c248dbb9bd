import type { Clock } from '../../clock.ts';
import type { AuthStore } from '../single-use-tables.ts';

/** What token operations need: the asynchronous store and the clock. */
export interface TokenDeps {
  store: AuthStore;
  clock: Clock;
}
