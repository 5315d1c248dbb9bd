// Every mail goes through the outbox table: stored in the request that causes it (so an answered
// request never loses its mail, even to a crash), delivered after the answer by the transport, and
// retried with backoff while the transport fails. Without a transport (no SMTP server configured) the
// mail stays in the outbox for an operator, and a log line says so (never the body: links, codes).
import type { Clock } from '../clock.ts';
import type { Logger } from '../log.ts';
import { newId } from '../security/index.ts';
import { statement, type Db } from '../store/index.ts';
import type { Mailer, MailMessage, MailQueue } from './mailer.ts';

/** Attempts before a message is given up; the waits between them double from 30 s up to an hour. */
export const MAX_ATTEMPTS = 8;
const retryDelayMs = (attempts: number) => Math.min(3600_000, 30_000 * 2 ** (attempts - 1));
const RETRY_TICK_MS = 30_000;
const KEEP_DELIVERED_MS = 30 * 24 * 3600_000;

interface DueRow {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  attempts: number;
}

/** The outbox queue; with `transport`, messages are delivered through it. */
export function createMailQueue({ db, clock, log, transport }: { db: Db; clock: Clock; log: Logger; transport?: Mailer | undefined }): MailQueue {
  let running: Promise<void> | undefined;
  let again = false;
  let scheduled = false;
  const deliverDue = (): Promise<void> => {
    if (!transport) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain(db, clock, log, transport)
      .catch((err: unknown) => log.error({ err: err instanceof Error ? err.message : String(err) }, 'mail queue: delivery loop failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          void deliverDue();
        }
      });
    return running;
  };
  // Messages left by a previous run (a crash, a restart during a retry wait) go out now; later ones on
  // the retry tick. Delivered messages are forgotten after 30 days.
  const timer = transport
    ? setInterval(() => {
        statement(db, 'DELETE FROM outbox WHERE sent_at < ?').run(clock.now() - KEEP_DELIVERED_MS);
        void deliverDue();
      }, RETRY_TICK_MS)
    : undefined;
  timer?.unref();
  if (transport) setImmediate(() => void deliverDue());
  return {
    enqueue({ to, subject, text }: MailMessage) {
      const id = newId();
      statement(db, 'INSERT INTO outbox (id, to_address, subject, text_body, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, ?)').run(
        id,
        to,
        subject,
        text,
        clock.now(),
        transport ? clock.now() : null,
      );
      if (!transport) {
        log.info({ outbox_id: id, subject }, 'mail queued in the outbox (no SMTP server configured)');
        return;
      }
      // After the current request has answered: delivery never adds to a response's time.
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        void deliverDue();
      });
    },
    deliverDue,
    idle: async () => {
      while (running || scheduled) await (running ?? new Promise((r) => setImmediate(r)));
    },
    close: () => clearInterval(timer),
  };
}

/** Sends due messages one by one until none is due. */
async function drain(db: Db, clock: Clock, log: Logger, transport: Mailer): Promise<void> {
  for (;;) {
    if (!db.open) return;
    const due = statement(db, 'SELECT id, to_address, subject, text_body, attempts FROM outbox WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT 20').all(
      clock.now(),
    ) as DueRow[];
    if (due.length === 0) return;
    for (const row of due) await deliverOne(db, clock, log, transport, row);
  }
}

async function deliverOne(db: Db, clock: Clock, log: Logger, transport: Mailer, row: DueRow): Promise<void> {
  try {
    await transport.send({ to: row.to_address, subject: row.subject, text: row.text_body });
    if (!db.open) return;
    statement(db, "UPDATE outbox SET sent_at = ?, next_attempt_at = NULL, text_body = '', attempts = attempts + 1 WHERE id = ?").run(clock.now(), row.id);
  } catch (err) {
    if (!db.open) return;
    const attempts = row.attempts + 1;
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    if (attempts >= MAX_ATTEMPTS) {
      statement(db, "UPDATE outbox SET failed_at = ?, next_attempt_at = NULL, text_body = '', attempts = ?, last_error = ? WHERE id = ?").run(clock.now(), attempts, error, row.id);
      log.error({ outbox_id: row.id, subject: row.subject, attempts, err: error }, 'mail delivery failed for good; the message was dropped');
      return;
    }
    statement(db, 'UPDATE outbox SET next_attempt_at = ?, attempts = ?, last_error = ? WHERE id = ?').run(clock.now() + retryDelayMs(attempts), attempts, error, row.id);
    log.warn({ outbox_id: row.id, subject: row.subject, attempts, err: error }, 'mail delivery failed; it will be retried');
  }
}

/** Messages in the outbox, newest first. */
export function listOutbox(db: Db, limit = 50): (MailMessage & { id: string; created_at: number; sent_at: number | null })[] {
  return db
    .prepare('SELECT id, to_address AS "to", subject, text_body AS text, created_at, sent_at FROM outbox ORDER BY created_at DESC, rowid DESC LIMIT ?')
    .all(limit) as (MailMessage & { id: string; created_at: number; sent_at: number | null })[];
}
