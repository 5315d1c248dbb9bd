// Every mail goes through the outbox table: stored in the request that causes it (so an answered
// request never loses its mail, even to a crash), delivered after the answer by the transport, and
// retried with backoff while the transport fails. Without a transport (no SMTP server configured) the
// mail stays in the outbox for an operator, and a log line says so (never the body: links, codes).
// Delivery runs on the asynchronous store: replicas draining one outbox each claim a message with one
// conditional statement before sending it, so none is sent twice.
import { sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Logger } from '../log.ts';
import { newId } from '../security/index.ts';
import { statement, type Db, type Executor } from '../store/index.ts';
import type { Mailer, MailMessage, MailQueue } from './mailer.ts';

/** Attempts before a message is given up; the waits between them double from 30 s up to an hour. */
export const MAX_ATTEMPTS = 8;
const retryDelayMs = (attempts: number) => Math.min(3600_000, 30_000 * 2 ** (attempts - 1));
const RETRY_TICK_MS = 30_000;
const KEEP_DELIVERED_MS = 30 * 24 * 3600_000;
/**
 * How long a claimed message is left to its sender: longer than the transport's slowest send (nodemailer
 * gives up a socket after 10 minutes). A sender that died meanwhile leaves it to be sent again after.
 */
export const CLAIM_MS = 15 * 60_000;

interface DueRow {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  attempts: number;
}

interface QueueDeps {
  /** The service's SQLite handle: a message is stored in the caller's synchronous transaction. */
  db: Db;
  /** The asynchronous store the delivery runs on. */
  x: Executor;
  clock: Clock;
  log: Logger;
}

/** The outbox queue; with `transport`, messages are delivered through it. */
export function createMailQueue({ db, x, clock, log, transport }: QueueDeps & { transport?: Mailer | undefined }): MailQueue {
  let running: Promise<void> | undefined;
  let again = false;
  let scheduled = false;
  // A closed queue starts no delivery (one scheduled before close would claim mail it never sends).
  let closed = false;
  const deliverDue = (): Promise<void> => {
    if (!transport || closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain({ db, x, clock, log }, transport, () => closed)
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
        void x
          .run(sql`DELETE FROM outbox WHERE sent_at < ${clock.now() - KEEP_DELIVERED_MS}`)
          .catch((err: unknown) => log.warn({ err }, 'mail queue: could not forget delivered mail'))
          .then(deliverDue);
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
    close: () => {
      closed = true;
      clearInterval(timer);
    },
  };
}

/** Sends due messages one by one until none is due (or the queue closes). */
async function drain(deps: QueueDeps, transport: Mailer, closed: () => boolean): Promise<void> {
  for (;;) {
    if (closed()) return;
    const row = await claimNext(deps.x, deps.clock.now());
    if (!row) return;
    await deliverOne(deps, transport, row, closed);
  }
}

/**
 * Claims the next due message for CLAIM_MS: one conditional UPDATE, so of two replicas picking the same
 * row the second changes nothing (PostgreSQL rechecks the condition on the row the first updated). A
 * replica that lost while others are still due tries again; undefined once nothing is due.
 */
export async function claimNext(x: Executor, now: number): Promise<DueRow | undefined> {
  for (;;) {
    const claimed = await x.one(sql<DueRow>`UPDATE outbox SET next_attempt_at = ${now + CLAIM_MS}
      WHERE id = (SELECT id FROM outbox WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ${now} ORDER BY next_attempt_at, id LIMIT 1)
        AND next_attempt_at <= ${now}
      RETURNING id, to_address, subject, text_body, attempts`);
    if (claimed) return claimed;
    const due = await x.one(sql`SELECT 1 AS due FROM outbox WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ${now} LIMIT 1`);
    if (!due) return undefined;
  }
}

async function deliverOne({ x, clock, log }: QueueDeps, transport: Mailer, row: DueRow, closed: () => boolean): Promise<void> {
  try {
    await transport.send({ to: row.to_address, subject: row.subject, text: row.text_body });
    if (closed()) return;
    await x.run(sql`UPDATE outbox SET sent_at = ${clock.now()}, next_attempt_at = NULL, text_body = '', attempts = attempts + 1 WHERE id = ${row.id}`);
  } catch (err) {
    if (closed()) return;
    const attempts = row.attempts + 1;
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    if (attempts >= MAX_ATTEMPTS) {
      await x.run(sql`UPDATE outbox SET failed_at = ${clock.now()}, next_attempt_at = NULL, text_body = '', attempts = ${attempts}, last_error = ${error} WHERE id = ${row.id}`);
      log.error({ outbox_id: row.id, subject: row.subject, attempts, err: error }, 'mail delivery failed for good; the message was dropped');
      return;
    }
    await x.run(sql`UPDATE outbox SET next_attempt_at = ${clock.now() + retryDelayMs(attempts)}, attempts = ${attempts}, last_error = ${error} WHERE id = ${row.id}`);
    log.warn({ outbox_id: row.id, subject: row.subject, attempts, err: error }, 'mail delivery failed; it will be retried');
  }
}

/** Messages in the outbox, newest first. */
export function listOutbox(db: Db, limit = 50): (MailMessage & { id: string; created_at: number; sent_at: number | null })[] {
  return db
    .prepare('SELECT id, to_address AS "to", subject, text_body AS text, created_at, sent_at FROM outbox ORDER BY created_at DESC, rowid DESC LIMIT ?')
    .all(limit) as (MailMessage & { id: string; created_at: number; sent_at: number | null })[];
}
