import type { Clock } from '../../clock.ts';
import type { Logger } from '../../log.ts';
import type { MailQueue } from '../../mail/index.ts';
import type { SecretBox } from '../../security/index.ts';
import type { SingleUseStore } from '../single-use-tables.ts';

/** What account operations need: storage, time, keys, mail. Built once by the gateway from Services. */
export interface AccountDeps {
  /** The store every account statement runs on (SQLite or PostgreSQL); the rate limits are found by it too. */
  store: SingleUseStore;
  clock: Clock;
  jwtKey: string;
  secretBox: SecretBox;
  /** Outgoing mail: staged in the caller's batch (or enqueued on its own), delivered after the answer. */
  mailer: MailQueue;
  /** Account mails per hour to one address and from one client address (429 beyond). */
  mailLimits: { perAddressPerHour: number; perClientPerHour: number };
  log: Logger;
  /** Public base URL, for links in mail. */
  baseUrl: string;
  /** bcrypt cost of new passwords and recovery codes. */
  bcryptCost: number;
}

/** Where a request came from, for rate limits, audit and recovery metadata. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
  /** The remembered-device cookie as presented (unverified): see credentials/device-token.ts. */
  device?: string | undefined;
}
