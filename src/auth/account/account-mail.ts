// Mail that must not reveal whether an account exists: the sign-in link, the password reset and the
// verification mail. A request does the same work for every address (the flood limits, one row in a
// durable queue) and answers; nothing on its path looks the address up. After the answer the queue is
// turned into tokens and mail, or dropped for addresses without a (suitable) account.
import { newId } from '../../security/index.ts';
import { byteOrder } from '../../store/index.ts';
import type { AccountDeps, ClientInfo } from './account-deps.ts';
import type { ComposedMail } from './composed-mail.ts';
import { findUserByEmail, type UserRow } from '../directory.ts';
import { magicLinkMailFor } from './magic-link.ts';
import { consumeMailQuota } from '../credentials/rate-limit.ts';
import { verificationMailFor } from './register.ts';
import { resetMailFor } from './reset-password.ts';

export type AccountMailKind = 'magic_link' | 'reset_password' | 'verify_email';

const COMPOSE: Record<AccountMailKind, (deps: AccountDeps, user: UserRow | undefined) => ComposedMail | undefined> = {
  magic_link: magicLinkMailFor,
  reset_password: resetMailFor,
  verify_email: verificationMailFor,
};

export interface AccountMail {
  /** Checks the flood limits (429) and queues the request; identical work for every address. */
  request(kind: AccountMailKind, email: string, client: ClientInfo): Promise<void>;
  /** Resolves once the queue has been worked through (tests wait on it instead of sleeping). */
  idle(): Promise<void>;
  /** Starts no further work and resolves once the pass under way has stopped (before the store closes). */
  close(): Promise<void>;
}

/** The account mail queue; queued requests left by a previous run are worked through at once. */
export function createAccountMail(deps: AccountDeps): AccountMail {
  let pending: Promise<void> | undefined;
  // A request queued while a pass is under way may come after its last read: one more pass follows.
  let again = false;
  let closed = false;
  const schedule = (): void => {
    if (closed) return;
    if (pending) {
      again = true;
      return;
    }
    // After the current request has answered, so none of this work shows in its response time.
    pending = new Promise<void>((resolve) =>
      setImmediate(() => {
        processAccountMailRequests(deps, () => closed)
          .catch((err: unknown) => deps.log.error({ err }, 'account mail queue: processing failed; the next request retries'))
          .finally(() => {
            pending = undefined;
            if (again) {
              again = false;
              schedule();
            }
            resolve();
          });
      }),
    );
  };
  schedule();
  return {
    async request(kind, email, client) {
      const address = email.trim().toLowerCase();
      await consumeMailQuota(deps.store, deps.clock, { email: address, ip: client.ip }, deps.mailLimits);
      await deps.store.run(deps.store.db.insertInto('account_mail_requests').values({ id: newId(), kind, email: address, created_at: deps.clock.now() }));
      schedule();
    },
    idle: async () => {
      while (pending) await pending;
    },
    close: async () => {
      closed = true;
      while (pending) await pending;
    },
  };
}

/**
 * Turns queued requests into mail, oldest first. Each request is removed in the batch that stores its
 * tokens and its mail: a crash leaves all of it or none (the request is then worked again), and of two
 * replicas working one request, the one whose removal changes no row stores nothing and mails nothing.
 */
export async function processAccountMailRequests(deps: AccountDeps, stopped: () => boolean = () => false): Promise<void> {
  const x = deps.store;
  for (;;) {
    if (stopped()) return;
    // Requests of one millisecond go in the byte order of their ids: any order is fine, but one both dialects share.
    const rows = await x.all(x.db.selectFrom('account_mail_requests').select(['id', 'kind', 'email']).orderBy('created_at').orderBy(byteOrder(x, 'id')).limit(50));
    if (rows.length === 0) return;
    for (const row of rows) {
      if (stopped()) return;
      const take = x.db.deleteFrom('account_mail_requests').where('id', '=', row.id);
      const mail = COMPOSE[row.kind as AccountMailKind](deps, await findUserByEmail(deps.store, row.email));
      const staged = mail && deps.mailer.stage(mail.message);
      const done = await x.batch(mail && staged ? [take, ...mail.writes, staged.query] : [take], { require: [0] });
      if (done.ok) staged?.committed();
    }
  }
}
