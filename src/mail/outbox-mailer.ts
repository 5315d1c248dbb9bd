// Without a mail server the service still works: mail lands in the outbox table, where an operator
// can read it, and the log says that a mail was queued (never its body, which holds links and codes).
import type { Clock } from '../clock.ts';
import type { Logger } from '../log.ts';
import { newId } from '../security/index.ts';
import type { Db } from '../store/index.ts';
import type { Mailer, MailMessage } from './mailer.ts';

/** A mailer that stores messages in the `outbox` table. */
export function createOutboxMailer({ db, clock, log }: { db: Db; clock: Clock; log: Logger }): Mailer {
  return {
    async send({ to, subject, text }) {
      const id = newId();
      db.prepare('INSERT INTO outbox (id, to_address, subject, text_body, created_at) VALUES (?, ?, ?, ?, ?)').run(id, to, subject, text, clock.now());
      log.info({ outbox_id: id, subject }, 'mail queued in the outbox (no SMTP server configured)');
    },
  };
}

/** Messages in the outbox, newest first. */
export function listOutbox(db: Db, limit = 50): (MailMessage & { id: string; created_at: number })[] {
  return db
    .prepare('SELECT id, to_address AS "to", subject, text_body AS text, created_at FROM outbox ORDER BY created_at DESC, rowid DESC LIMIT ?')
    .all(limit) as (MailMessage & { id: string; created_at: number })[];
}
