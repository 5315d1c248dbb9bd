// Failures of claiming and verifying an email domain. Messages are safe to show to the admin.
import { AppError, Conflict, NotFound, ValidationFailed } from '../../errors.ts';

/** A public mail domain (gmail.com, ...) in a claim: a 422 on its place in the list. */
export class PublicMailDomain extends ValidationFailed {
  constructor(domain: string, index: number) {
    super([{ loc: ['body', 'allowed_email_domains', index], msg: `${domain} is a public mail domain: anyone may have an address there, so no organization can claim it`, type: 'value_error.public_mail_domain' }]);
  }
}

/** The organization has not claimed this domain (or the domain is malformed). */
export class DomainNotClaimed extends NotFound {
  constructor() {
    super('This organization has not claimed that email domain; add it to the settings first', 'DOMAIN_NOT_CLAIMED');
  }
}

export type DnsFailure = 'no_record' | 'wrong_value' | 'dns_failed';

/** The TXT record is missing, holds another value, or DNS did not answer. `reason` says which. */
export class DomainNotVerified extends Conflict {
  constructor(domain: string, reason: DnsFailure, record: { name: string; value: string }) {
    const why = { no_record: 'has no TXT record', wrong_value: 'holds no TXT record with this organization\'s token', dns_failed: 'could not be resolved (DNS did not answer)' }[reason];
    super(`${record.name} ${why}; publish the record and try again (DNS changes may take a while to show)`, 'DOMAIN_NOT_VERIFIED', { domain, reason, txt_record: record });
  }
}

/** The verification link is unknown, used, expired, or belongs to another organization. */
export class InvalidDomainLink extends AppError {
  constructor() {
    super('bad_request', 'INVALID_DOMAIN_LINK', 'Invalid or expired domain verification link');
  }
}
