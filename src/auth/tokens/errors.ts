// Failures of the token and CLI sign-in domain, each with a stable code for clients.
import { AppError, Conflict, Forbidden, NotFound } from '../../errors.ts';

/** The token does not exist, is not the caller's, or is of another kind (never says which). */
export class TokenNotFound extends NotFound {
  constructor() {
    super('Token not found', 'TOKEN_NOT_FOUND');
  }
}

/** An admin named a user who is not a member of the admin's organization. */
export class TokenUserNotFound extends NotFound {
  constructor() {
    super('User not found', 'USER_NOT_FOUND');
  }
}

/** The CLI sign-in code is unknown, or its token was already claimed (the record is gone). */
export class CliLoginNotFound extends NotFound {
  constructor() {
    super('CLI sign-in not found; start a new one', 'CLI_LOGIN_NOT_FOUND');
  }
}

/** The CLI sign-in code is past its lifetime. */
export class CliLoginExpired extends AppError {
  constructor() {
    super('gone', 'CLI_LOGIN_EXPIRED', 'CLI sign-in expired; start a new one');
  }
}

/** Someone already approved or denied this CLI sign-in. */
export class CliLoginAlreadyDecided extends Conflict {
  constructor(status: string) {
    super('CLI sign-in already decided', 'CLI_LOGIN_ALREADY_DECIDED', { status });
  }
}

/** The signed-in user denied this CLI sign-in. */
export class CliLoginDenied extends Forbidden {
  constructor() {
    super('CLI sign-in was denied', 'CLI_LOGIN_DENIED');
  }
}
