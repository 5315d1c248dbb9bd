import type { Query } from '../store/index.ts';

/** One outgoing message. Bodies may carry secrets (links, codes): never log them. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Delivers mail now: SMTP (nodemailer), or a test double. The service reaches it through a MailQueue. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** A message ready to be stored: its INSERT, for the caller's batch, and what to do once that committed. */
export interface StagedMail {
  query: Query;
  /** Tells the queue the INSERT committed: delivery starts after the current request (else at the next retry tick). */
  committed(): void;
}

/** Durable outgoing mail: a message is stored at once and delivered after the caller has moved on. */
export interface MailQueue {
  /**
   * The message as a statement for the caller's batch, so it is stored only if the change that causes
   * it commits (and then surely); call `committed()` once the batch did.
   */
  stage(message: MailMessage): StagedMail;
  /** Stores the message on its own and schedules delivery. */
  enqueue(message: MailMessage): Promise<void>;
  /** Delivers every message that is due now; resolves when done. */
  deliverDue(): Promise<void>;
  /** Resolves once no delivery is under way (tests wait on it instead of sleeping). */
  idle(): Promise<void>;
  close(): void;
}
