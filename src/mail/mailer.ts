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

/** Durable outgoing mail: a message is stored at once and delivered after the caller has moved on. */
export interface MailQueue {
  /** Stores the message (synchronously, so it joins the caller's transaction) and schedules delivery. */
  enqueue(message: MailMessage): void;
  /** Delivers every message that is due now; resolves when done. */
  deliverDue(): Promise<void>;
  /** Resolves once no delivery is under way (tests wait on it instead of sleeping). */
  idle(): Promise<void>;
  close(): void;
}
