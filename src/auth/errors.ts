// Failures of sign-in and account operations. Messages are safe to show and never say whether an
// account exists.
import { AppError, Conflict, Forbidden, Unauthorized, ValidationFailed } from '../errors.ts';

export class InvalidCredentials extends Unauthorized {
  constructor() {
    super('Incorrect email or password', 'INVALID_CREDENTIALS');
  }
}

/** A wrong, reused or malformed TOTP / recovery code during sign-in. */
export class InvalidMfaCode extends Unauthorized {
  constructor() {
    super('Invalid or already used code', 'INVALID_MFA_CODE');
  }
}

/** A wrong code or password while managing MFA with a live session (400, so clients keep the session). */
export class SecondFactorRejected extends AppError {
  constructor(what: 'code' | 'password' = 'code') {
    super('bad_request', what === 'code' ? 'INVALID_MFA_CODE' : 'INVALID_PASSWORD', what === 'code' ? 'Invalid or already used code' : 'Incorrect password');
  }
}

/** The pending-MFA, enrollment or recovery token is missing, expired or stale. */
export class InvalidMfaToken extends Unauthorized {
  constructor() {
    super('Invalid or expired MFA token', 'INVALID_MFA_TOKEN');
  }
}

/** A single-use account token (verification, reset, magic link, recovery) that is wrong, used or expired. */
export class InvalidAccountToken extends AppError {
  constructor() {
    super('bad_request', 'INVALID_TOKEN', 'Invalid or expired token');
  }
}

export class MfaAlreadyEnabled extends Conflict {
  constructor() {
    super('MFA is already enabled; disable it first', 'MFA_ALREADY_ENABLED');
  }
}

export class MfaNotEnabled extends Conflict {
  constructor() {
    super('MFA is not enabled', 'MFA_NOT_ENABLED');
  }
}

export class MfaSetupNotStarted extends Conflict {
  constructor() {
    super('Start MFA setup first', 'MFA_SETUP_NOT_STARTED');
  }
}

export class EmailNotVerified extends Forbidden {
  constructor() {
    super('Verify your email address first', 'EMAIL_NOT_VERIFIED');
  }
}

export class MfaRecoveryIneligible extends Forbidden {
  constructor() {
    super('Self-service MFA recovery is not available for this account; ask an administrator', 'MFA_RECOVERY_INELIGIBLE');
  }
}

/** MFA changes need a person at a browser or app (session or enrollment token), not an API, CLI or embedded token. */
export class InteractiveSessionRequired extends Forbidden {
  constructor() {
    super('This needs a signed-in session', 'SESSION_REQUIRED');
  }
}

/** A required field that the domain (not the schema) knows is required. */
export function fieldRequired(field: string, msg = 'Field required'): ValidationFailed {
  return new ValidationFailed([{ loc: ['body', field], msg, type: 'missing' }]);
}

/**
 * The right password of an account an admin deactivated: only someone who knows the password learns
 * that the account exists and whom to ask (a wrong one still gets InvalidCredentials).
 */
export class AccessRemoved extends AppError {
  constructor(orgName: string, admins: string[]) {
    const whom = admins.length > 0 ? `an admin of ${orgName} (${admins.join(', ')})` : `an admin of ${orgName}`;
    super('forbidden', 'ACCESS_REMOVED', `Your access to ${orgName} was removed by an admin. Ask ${whom} to restore it.`, { org_name: orgName, admins });
  }
}
