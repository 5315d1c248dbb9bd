import type { Clock } from '../../clock.ts';
import type { Executor } from '../../store/index.ts';
import { consumeQuota } from '../credentials/rate-limit.ts';

/** Invitation mails one organization may send per hour: enough to onboard a team, not to spam. */
export const ORG_INVITATIONS_PER_HOUR = 500;

/**
 * Counts one invitation mail against the address it goes to (the same hourly quota as every account
 * mail, so nobody's mailbox is flooded) and against the organization. Not per client address: an
 * admin inviting a whole team from one office is the normal case.
 */
export async function consumeInvitationQuota(store: Executor, clock: Clock, { orgId, email, perAddressPerHour }: { orgId: string; email: string; perAddressPerHour: number }): Promise<void> {
  await consumeQuota({ store, clock }, `invite-org:${orgId}`, { max: ORG_INVITATIONS_PER_HOUR, windowMs: 3600_000 });
  await consumeQuota({ store, clock }, `mail:${email}`, { max: perAddressPerHour, windowMs: 3600_000 });
}
