import type { MailMessage } from '../../mail/index.ts';
import type { Query } from '../../store/index.ts';

/** An account mail and the token writes it relies on: the writes are stored (one batch) before the mail is queued. */
export interface ComposedMail {
  writes: Query[];
  message: MailMessage;
}
