import type { Clock } from '../clock.ts';
import type { Logger } from '../log.ts';
import type { Mailer } from '../mail/index.ts';
import type { SecretBox } from '../security/index.ts';
import type { Db } from '../store/index.ts';

/** What account operations need: storage, time, keys, mail. Built once by the gateway from Services. */
export interface AccountDeps {
  db: Db;
  clock: Clock;
  jwtKey: string;
  secretBox: SecretBox;
  mailer: Mailer;
  log: Logger;
  /** Public base URL, for links in mail. */
  baseUrl: string;
  /** bcrypt cost of recovery codes. */
  bcryptCost: number;
}

/** Where a request came from, for rate limits, audit and recovery metadata. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}
