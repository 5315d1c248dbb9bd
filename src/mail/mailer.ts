import type { Query } from '../store/index.ts';

/** One outgoing message. Bodies may carry secrets (links, codes): never log them. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to the text (reports); the caller escapes what it puts in. */
  html?: string | undefined;
  /** Files attached; one with a `cid` is an inline image the HTML shows as `cid:<cid>`. */
  attachments?: MailAttachment[] | undefined;
  /** Extra headers (List-Unsubscribe); values must hold no line break. */
  headers?: Record<string, string> | undefined;
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** The content, base64. */
  content: string;
  cid?: string | undefined;
}

/** Delivers mail now: SMTP (nodemailer), or a test double. The service reaches it through a MailQueue. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** A message ready to be stored: its INSERT, for the caller's batch, and what to do once that committed. */
export interface StagedMail {
  /** The outbox id, to ask later what became of it (mailOutcomes). */
  id: string;
  query: Query;
  /** Tells the queue the INSERT committed: delivery starts after the current request (else at the next retry tick). */
  committed(): void;
}

/** A message the queue gave up on: the relay refused it for good, or it failed MAX_ATTEMPTS times. */
export interface GivenUpMail {
  /** Its outbox id (what StagedMail.id was). */
  id: string;
  to: string;
  subject: string;
  /** The last error, as the transport told it. */
  error: string;
  attempts: number;
}

/**
 * Told of a message given up; the mail it stages (a notice to someone) is stored in the one batch that
 * marks the message failed, so it is written once, whichever replica gives up, even across a crash.
 */
export type GiveUpHook = (mail: GivenUpMail) => Promise<StagedMail[] | undefined>;

/** Durable outgoing mail: a message is stored at once and delivered after the caller has moved on. */
export interface MailQueue {
  /**
   * The message as a statement for the caller's batch, so it is stored only if the change that causes
   * it commits (and then surely); call `committed()` once the batch did.
   */
  stage(message: MailMessage): StagedMail;
  /** Stores the message on its own and schedules delivery. */
  enqueue(message: MailMessage): Promise<void>;
  /**
   * Adds a hook told of every message given up. A notice it stages that is given up in turn reaches
   * the hooks too: a hook reports only messages it knows as its own, so notices never loop.
   */
  onGiveUp(hook: GiveUpHook): void;
  /** Delivers every message that is due now; resolves when done. */
  deliverDue(): Promise<void>;
  /** Resolves once no delivery is under way (tests wait on it instead of sleeping). */
  idle(): Promise<void>;
  close(): void;
}
