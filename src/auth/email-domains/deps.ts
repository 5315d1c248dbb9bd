import type { MembersDeps } from '../members/deps.ts';
import type { TxtRecords } from './ports.ts';

/** What claiming and verifying email domains needs: the members' dependencies and a DNS resolver. */
export interface EmailDomainDeps extends Pick<MembersDeps, 'x' | 'store' | 'clock' | 'mailer' | 'mailLimits' | 'baseUrl'> {
  txt: TxtRecords;
}
