import type { Clock } from '../../clock.ts';
import { RateLimited } from '../../errors.ts';
import type { Executor } from '../../store/index.ts';
import { consumeQuota } from '../credentials/rate-limit.ts';

const DAY_MS = 24 * 3600_000;

/** The organization sent as many invitation mails (new and resent) as it may today. */
export class InvitationQuotaExceeded extends RateLimited {
  constructor(retryAfterSeconds: number) {
    super(retryAfterSeconds, 'The organization has sent as many invitations as it may today; try again later', 'INVITATIONS_PER_DAY');
  }
}

/**
 * Counts one invitation mail, new or resent, against the organization's daily allowance (the
 * operator's SEXTANT_INVITATIONS_PER_DAY, per UTC day: a stranger who registers an organization
 * cannot turn it into a mailer) and against the address it goes to (the same hourly quota as every
 * account mail, so nobody's mailbox is flooded). Not per client address: an admin inviting a whole
 * team from one office is the normal case.
 */
export async function consumeInvitationQuota(
  store: Executor,
  clock: Clock,
  { orgId, email, perAddressPerHour, perOrgPerDay }: { orgId: string; email: string; perAddressPerHour: number; perOrgPerDay: number },
): Promise<void> {
  await consumeQuota({ store, clock }, `invite-org-day:${orgId}`, { max: perOrgPerDay, windowMs: DAY_MS }).catch((err: unknown) => {
    throw err instanceof RateLimited ? new InvitationQuotaExceeded(err.retryAfterSeconds) : err;
  });
  await consumeQuota({ store, clock }, `mail:${email}`, { max: perAddressPerHour, windowMs: 3600_000 });
}
