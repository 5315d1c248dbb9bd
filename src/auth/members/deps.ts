import type { Executor } from '../../store/index.ts';
import type { AccountDeps } from '../account/account-deps.ts';
import type { MemberFacts } from './ports.ts';

/**
 * What member operations need: the account dependencies, the row-level security facts port and the
 * asynchronous store their own statements run on (SQLite or PostgreSQL, one code path).
 */
export interface MembersDeps extends AccountDeps {
  facts: MemberFacts;
  x: Executor;
  /** Invitation mails, new and resent, one organization may send per day. */
  invitationsPerDay: number;
}

/** What the operations that touch only memberships need: the store, the clock and the facts port. */
export type MemberStoreDeps = Pick<MembersDeps, 'x' | 'clock' | 'facts'>;
