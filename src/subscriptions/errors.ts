// Failures of subscriptions. One the caller may not see is reported exactly like a missing one.
import { AppError, Forbidden, NotFound, ValidationFailed } from '../errors.ts';

export class SubscriptionNotFound extends NotFound {
  constructor() {
    super('Subscription not found', 'SUBSCRIPTION_NOT_FOUND');
  }
}

export class SubscriptionForbidden extends Forbidden {
  constructor() {
    super('Only the owner or an admin changes a subscription', 'SUBSCRIPTION_FORBIDDEN');
  }
}

export class ExternalRecipientRefused extends Forbidden {
  constructor() {
    super('Reports go to members of the organization only; an admin may allow other addresses', 'EXTERNAL_RECIPIENT_REFUSED');
  }
}

/** A rule the request schema cannot say (a cron croner refuses, an unknown zone), on its field: 422. */
export function invalidField(loc: (string | number)[], msg: string): ValidationFailed {
  return new ValidationFailed([{ loc: ['body', ...loc], msg, type: 'value_error' }]);
}

export class InvalidUnsubscribeLink extends AppError {
  constructor() {
    super('bad_request', 'INVALID_UNSUBSCRIBE_LINK', 'This unsubscribe link is not valid');
  }
}
