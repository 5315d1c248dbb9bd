// Every mail goes through the outbox table: stored in the request that causes it (so an answered
// request never loses its mail, even to a crash; a caller with a batch puts the mail's INSERT in it, so
// the mail and the change it reports commit together or not at all), delivered after the answer by the
// transport, and
// retried with backoff while the transport fails. Without a transport (no SMTP server configured) the
// mail stays in the outbox for an operator, and a log line says so (never the body: links, codes).
// Delivery runs on the asynchronous store: replicas draining one outbox each claim a message with one
// conditional statement before sending it, so none is sent twice.
import { sql } from 'kysely';
import { monotonicFactory } from 'ulid';
import type { Clock } from '../clock.ts';
import type { Logger } from '../log.ts';
import type { Executor } from '../store/index.ts';
import type { GiveUpHook, MailAttachment, Mailer, MailMessage, MailQueue, StagedMail } from './mailer.ts';

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
  html_body: string | null;
  attachments: string | null;
  headers: string | null;
  attempts: number;
}

interface QueueDeps {
  /** The store the outbox lives in: messages are stored, claimed and marked through it. */
  store: Executor;
  clock: Clock;
  log: Logger;
}

/** What delivery needs beyond the store: the hooks told of a message given up. */
interface DeliverDeps extends QueueDeps {
  giveUpHooks: readonly GiveUpHook[];
}

// Ids of one millisecond sort in the order they were queued (newest first in listOutbox, on both
// dialects: PostgreSQL has no rowid to break ties with).
const outboxId = monotonicFactory();

/** The outbox queue; with `transport`, messages are delivered through it. */
export function createMailQueue({ store, clock, log, transport }: QueueDeps & { transport?: Mailer | undefined }): MailQueue {
  let running: Promise<void> | undefined;
  let [again, scheduled] = [false, false];
  // A closed queue starts no delivery (one scheduled before close would claim mail it never sends).
  let closed = false;
  const giveUpHooks: GiveUpHook[] = [];
  const deliverDue = (): Promise<void> => {
    if (!transport || closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain({ store, clock, log, giveUpHooks }, transport, () => closed)
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
        void store
          .run(sql`DELETE FROM outbox WHERE sent_at < ${clock.now() - KEEP_DELIVERED_MS}`)
          .catch((err: unknown) => log.warn({ err }, 'mail queue: could not forget delivered mail'))
          .then(deliverDue);
      }, RETRY_TICK_MS)
    : undefined;
  timer?.unref();
  if (transport) setImmediate(() => void deliverDue());
  // After the current request has answered: delivery never adds to a response's time.
  const deliverSoon = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void deliverDue();
    });
  };
  const stage = ({ to, subject, text, html, attachments, headers }: MailMessage): StagedMail => {
    const now = clock.now();
    const id = outboxId(now);
    const extra = { html: html ?? null, attachments: attachments?.length ? JSON.stringify(attachments) : null, headers: headers ? JSON.stringify(headers) : null };
    return {
      id,
      query: sql`INSERT INTO outbox (id, to_address, subject, text_body, html_body, attachments, headers, created_at, next_attempt_at)
        VALUES (${id}, ${to}, ${subject}, ${text}, ${extra.html}, ${extra.attachments}, ${extra.headers}, ${now}, ${transport ? now : null})`,
      committed: () => {
        if (transport) return deliverSoon();
        log.info({ outbox_id: id, subject }, 'mail queued in the outbox (no SMTP server configured)');
      },
    };
  };
  return {
    stage,
    async enqueue(message) {
      const staged = stage(message);
      await store.run(staged.query);
      staged.committed();
    },
    onGiveUp: (hook) => void giveUpHooks.push(hook),
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
async function drain(deps: DeliverDeps, transport: Mailer, closed: () => boolean): Promise<void> {
  for (;;) {
    if (closed()) return;
    const row = await claimNext(deps.store, deps.clock.now());
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
      RETURNING id, to_address, subject, text_body, html_body, attachments, headers, attempts`);
    if (claimed) return claimed;
    const due = await x.one(sql`SELECT 1 AS due FROM outbox WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ${now} LIMIT 1`);
    if (!due) return undefined;
  }
}

async function deliverOne(deps: DeliverDeps, transport: Mailer, row: DueRow, closed: () => boolean): Promise<void> {
  const { store: x, clock, log } = deps;
  try {
    await transport.send(messageOf(row));
    if (closed()) return;
    await x.run(sql`UPDATE outbox SET sent_at = ${clock.now()}, next_attempt_at = NULL, text_body = '', html_body = NULL, attachments = NULL, attempts = attempts + 1 WHERE id = ${row.id}`);
  } catch (err) {
    if (closed()) return;
    const attempts = row.attempts + 1;
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    if (attempts >= MAX_ATTEMPTS) return giveUp(deps, row, attempts, error);
    await x.run(sql`UPDATE outbox SET next_attempt_at = ${clock.now() + retryDelayMs(attempts)}, attempts = ${attempts}, last_error = ${error} WHERE id = ${row.id}`);
    log.warn({ outbox_id: row.id, subject: row.subject, attempts, err: error }, 'mail delivery failed; it will be retried');
  }
}

/**
 * Marks a message failed for good, with whatever notices the hooks stage, in one batch that changes
 * nothing if the message was already marked (another replica gave it up first): notices are written once.
 */
async function giveUp({ store: x, clock, log, giveUpHooks }: DeliverDeps, row: DueRow, attempts: number, error: string): Promise<void> {
  const mail = { id: row.id, to: row.to_address, subject: row.subject, error, attempts };
  const staged = await Promise.all(
    giveUpHooks.map((hook) =>
      hook(mail).catch((err: unknown) => {
        log.error({ outbox_id: row.id, err: err instanceof Error ? err.message : String(err) }, 'mail queue: a give-up hook failed; no notice for this message');
        return undefined;
      }),
    ),
  );
  const notices = staged.flatMap((s) => s ?? []);
  const res = await x.batch(
    [
      sql`UPDATE outbox SET failed_at = ${clock.now()}, next_attempt_at = NULL, text_body = '', html_body = NULL, attachments = NULL, attempts = ${attempts}, last_error = ${error} WHERE id = ${row.id} AND failed_at IS NULL AND sent_at IS NULL`,
      ...notices.map((n) => n.query),
    ],
    { require: [0] },
  );
  if (res.ok) for (const n of notices) n.committed();
  log.error({ outbox_id: row.id, subject: row.subject, attempts, err: error }, 'mail delivery failed for good; the message was dropped');
}

/** The stored message as the transport takes it. */
function messageOf(row: DueRow): MailMessage {
  return {
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    ...(row.html_body === null ? {} : { html: row.html_body }),
    ...(row.attachments === null ? {} : { attachments: JSON.parse(row.attachments) as MailAttachment[] }),
    ...(row.headers === null ? {} : { headers: JSON.parse(row.headers) as Record<string, string> }),
  };
}

/** What became of some messages: sent, given up (with the last error), or still pending. */
export async function mailOutcomes(x: Executor, ids: string[]): Promise<Map<string, { sent_at: number | null; failed_at: number | null; last_error: string | null; attempts: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await x.all(sql<{ id: string; sent_at: number | null; failed_at: number | null; last_error: string | null; attempts: number }>`SELECT id, sent_at, failed_at, last_error, attempts FROM outbox
    WHERE id IN (${sql.join(ids)})`);
  return new Map(rows.map((r) => [r.id, { sent_at: r.sent_at === null ? null : Number(r.sent_at), failed_at: r.failed_at === null ? null : Number(r.failed_at), last_error: r.last_error, attempts: Number(r.attempts) }]));
}

/** Messages in the outbox, newest first. */
export function listOutbox(store: Executor, limit = 50): Promise<(MailMessage & { id: string; created_at: number; sent_at: number | null })[]> {
  return store.all(sql<MailMessage & { id: string; created_at: number; sent_at: number | null }>`SELECT id, to_address AS "to", subject, text_body AS text, created_at, sent_at
    FROM outbox ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
}
