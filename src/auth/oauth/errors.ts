import { AppError } from '../../errors.ts';

/** A consent page older than 10 minutes, or one whose sign-in transaction is gone (interface part 7). */
export class AuthorizationSessionExpired extends AppError {
  constructor() {
    super('gone', 'AUTHORIZATION_SESSION_EXPIRED', 'Authorization session expired');
  }
}
