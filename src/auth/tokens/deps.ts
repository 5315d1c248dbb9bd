import type { Clock } from '../../clock.ts';
import type { Db } from '../../store/index.ts';

/** What token operations need: the database and the clock. */
export interface TokenDeps {
  db: Db;
  clock: Clock;
}
