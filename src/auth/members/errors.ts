// Failures of running an organization. Messages are safe to show to the admin (or, for invitations,
// to whoever holds the link) and say no more than that person may know.
import { AppError, Conflict, Forbidden, NotFound } from '../../errors.ts';

export class MemberNotFound extends NotFound {
  constructor() {
    super('Member not found', 'MEMBER_NOT_FOUND');
  }
}

export class InvitationNotFound extends NotFound {
  constructor() {
    super('Invitation not found', 'INVITATION_NOT_FOUND');
  }
}

/** The organization would be left without an active admin. */
export class LastAdmin extends Conflict {
  constructor(action: 'demote' | 'deactivate' | 'remove') {
    super(`Cannot ${action} the last active admin of the organization; make another member admin first`, 'LAST_ADMIN', { action });
  }
}

export class AlreadyMember extends Conflict {
  constructor() {
    super('This address already belongs to a member of the organization', 'ALREADY_MEMBER');
  }
}

export class InvitationPending extends Conflict {
  constructor() {
    super('An invitation to this address is already pending; resend it instead', 'INVITATION_PENDING');
  }
}

/** The invited address has an account in another organization; an account belongs to one organization. */
export class AccountInOtherOrganization extends Conflict {
  constructor() {
    super('This address already has an account in another organization; ask the inviting admin to use another address', 'ACCOUNT_IN_OTHER_ORGANIZATION');
  }
}

/** The invitation link is unknown, used, revoked, replaced by a resend, or expired. */
export class InvalidInvitation extends AppError {
  constructor() {
    super('bad_request', 'INVALID_INVITATION', 'Invalid or expired invitation');
  }
}

export class DomainTaken extends Conflict {
  constructor(domain: string) {
    super(`The email domain ${domain} is already claimed by another organization`, 'DOMAIN_TAKEN', { domain });
  }
}

/** Signing up with SSO needs a provider that the organization has not set up. */
export class SsoNotConfigured extends Conflict {
  constructor() {
    super('This organization has no single sign-on provider; choose a password or a sign-in link', 'SSO_NOT_CONFIGURED');
  }
}

/** The invited address belongs to an account an admin has deactivated; an invitation does not revive it. */
export class AccountDeactivated extends Forbidden {
  constructor() {
    super('This account is deactivated; ask an admin of your organization to reactivate it', 'ACCOUNT_DEACTIVATED');
  }
}
