import type { AccountDeps } from '../account/account-deps.ts';
import type { MemberFacts } from './ports.ts';

/** What member operations need: the account dependencies plus the row-level security facts port. */
export interface MembersDeps extends AccountDeps {
  facts: MemberFacts;
}
